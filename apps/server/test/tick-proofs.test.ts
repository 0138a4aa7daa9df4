import type { Order, Replay } from '@tradewind/contract/instant';
import type { InstrumentSymbol } from '@tradewind/contract/market';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PythFeed } from '../src/modules/market/pyth-feed.ts';
import type { ReceivedPythTick } from '../src/modules/market/pyth/stream.ts';
import { MarketRecorder } from '../src/modules/market/recorder.ts';
import { queryRows } from '../src/platform/db.ts';
import { TICK_REFERENCES } from '../src/tick-references.ts';
import { placed, settlement, trader } from './contracts.ts';
import { type TestApp, call, createTestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('signed updates kept with ticks', () => {
  it('keeps Pyth’s signed update beside each tick it priced; an order’s close tick shows it; unreferenced ones go after an hour', async () => {
    const latest = new Map<InstrumentSymbol, ReceivedPythTick>();
    const stream = {
      connected: true,
      latest: (instrument: InstrumentSymbol) => latest.get(instrument),
    };
    const recorder = new MarketRecorder({
      db: t.database.db,
      clock: t.clock,
      feeds: [new PythFeed(stream)],
      tickRetentionDays: 3,
      tickReferences: TICK_REFERENCES,
    });
    const record = async (price: bigint) => {
      t.clock.advance(1_000);
      const ms = Math.floor(t.clock.now().getTime() / 1000) * 1000;
      latest.set('ETHUSDT', {
        symbol: 'ETHUSDT',
        source: 'pyth',
        sourceId: 'ff61491a',
        priceMinor: price,
        confMinor: 10n,
        publishTimeMs: ms - 400,
        receivedAtMs: ms - 300,
        signedUpdate: `504e4155${price.toString(16)}`,
      });
      expect(await recorder.recordOnce()).toBe(1);
    };
    await record(330_000n);
    const user = await trader(t, '1000');
    const order: Order = await placed(t, user.token, {
      symbol: 'ETHUSDT',
      periodId: 1,
      amount: '50',
    });
    for (let s = 0; s < 31; s++) await record(330_100n + BigInt(s));
    expect(await settlement(t).settleDue()).toBe(1);

    const detail = await call<Order>(t.app, 'GET', `/api/v1/contracts/order?id=${order.id}`, {
      token: user.token,
    });
    const close = detail.body.data.closeTick;
    expect(close?.quotes).toEqual([
      expect.objectContaining({ source: 'pyth', price: close?.price }),
    ]);
    expect(close?.proofs).toEqual([
      {
        source: 'pyth',
        feedId: 'ff61491a',
        update: `504e4155${BigInt(close?.price.replace('.', '') ?? 0).toString(16)}`,
      },
    ]);
    const replay = await call<Replay>(
      t.app,
      'GET',
      `/api/v1/contracts/replay?publicId=${order.publicId}`,
    );
    expect(replay.body.data.closeTick?.proofs).toEqual(close?.proofs);

    const count = async () =>
      (
        await queryRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from market_tick_proofs`,
        )
      )[0]?.n;
    expect(await count()).toBe(32);
    t.clock.advance(3_600_000 + 60_000);
    await recorder.pruneTicks();
    // Only the ticks the order refers to keep theirs: its open tick and its close tick.
    const kept = await queryRows<{ tick_id: string }>(
      t.database.db,
      sql`select tick_id::text from market_tick_proofs order by tick_id`,
    );
    const [row] = await queryRows<{ open: string; close: string }>(
      t.database.db,
      sql`select open_tick_id::text as open, close_tick_id::text as close from contract_orders where id = ${Number(order.id)}`,
    );
    expect(kept.map((k) => k.tick_id)).toEqual([row?.open, row?.close].sort());
  });
});
