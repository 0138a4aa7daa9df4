import type { Sparkline } from '@tradewind/contract/market';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillDemoHistory, demoCandles } from '../src/modules/market/demo-history.ts';
import { loadConfig } from '../src/platform/config.ts';
import { queryRows } from '../src/platform/db.ts';
import { recordAt } from './contracts.ts';
import { type TestApp, call, createTestApp } from './harness.ts';

/** Demo mode's simulated history before the first recorded minute (issue 32). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const count = async (query: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: string }>(t.database.db, query))[0]?.n);

describe('the demo market history', () => {
  it('writes days of one-minute candles that run into the first recorded price, once, and no tick', async () => {
    const start = Math.floor(t.clock.now().getTime() / 60_000) * 60_000 + 120_000;
    await recordAt(t, start + 1_000, { BTCUSDT: '95000', XAUUSD: '2650.5' });
    const ticks = await count(sql`select count(*) from market_ticks`);
    const now = new Date(start + 2_000);
    const written = await backfillDemoHistory(t.database.db, {
      instruments: ['BTCUSDT', 'XAUUSD'],
      now,
      days: 2,
    });
    expect(written).toBe(2 * 2 * 1440);
    expect(await count(sql`select count(*) from market_ticks`)).toBe(ticks);
    for (const [symbol, first] of [
      ['BTCUSDT', '9500000'],
      ['XAUUSD', '265050'],
    ] as const) {
      const rows = await queryRows<{ open_time: Date; open: string; close: string }>(
        t.database.db,
        sql`select open_time, open_minor::text as open, close_minor::text as close
            from market_candles_1m where instrument = ${symbol} order by open_time`,
      );
      expect(rows.length).toBe(2 * 1440 + 1);
      const live = rows.at(-1);
      const last = rows.at(-2);
      // Minute after minute up to the live one, whose open the history's last close meets.
      expect(
        new Date(live?.open_time as Date).getTime() - new Date(last?.open_time as Date).getTime(),
      ).toBe(60_000);
      expect(live?.open).toBe(first);
      expect(last?.close).toBe(first);
      expect(
        new Date(live?.open_time as Date).getTime() -
          new Date(rows[0]?.open_time as Date).getTime(),
      ).toBe(2 * 86_400_000);
    }
    // A restart (or a second worker) adds nothing.
    expect(
      await backfillDemoHistory(t.database.db, { instruments: ['BTCUSDT'], now, days: 2 }),
    ).toBe(0);
    // The Trade list's sparkline has its 24 hourly points from the first minute.
    t.clock.set(now.getTime());
    const reply = await call<{ items: Sparkline[] }>(t.app, 'GET', '/api/v1/market/sparklines');
    const btc = reply.body.data.items.find((item) => item.symbol === 'BTCUSDT');
    expect(btc?.closes.length).toBe(24);
    expect(btc?.closes.at(-1)).toBe('95000');
  });

  it('is a fresh random path each time, in the bounds the candles’ rules allow', () => {
    const a = demoCandles('ETHUSDT', 1440, 330_000n);
    const b = demoCandles('ETHUSDT', 1440, 330_000n);
    expect(a.map((c) => c.close)).not.toEqual(b.map((c) => c.close));
    for (const c of [...a, ...b]) {
      expect(c.low > 0n && c.low <= c.open && c.low <= c.close).toBe(true);
      expect(c.high >= c.open && c.high >= c.close).toBe(true);
      expect(c.volume >= 0n).toBe(true);
    }
    expect(a.at(-1)?.close).toBe(330_000n);
    // Continuous: each minute opens where the last one closed.
    for (let i = 1; i < a.length; i++) expect(a[i]?.open).toBe(a[i - 1]?.close);
  });

  it('is written in demo mode only, 30 days unless set', () => {
    expect(loadConfig({ DEMO_MODE: 'true' }).market.demoHistoryDays).toBe(30);
    expect(loadConfig({ DEMO_MODE: 'true', DEMO_HISTORY_DAYS: '0' }).market.demoHistoryDays).toBe(
      0,
    );
    expect(
      loadConfig({
        DEMO_MODE: 'false',
        DATABASE_URL: 'postgres://x@127.0.0.1/x',
        DEMO_HISTORY_DAYS: '30',
      }).market.demoHistoryDays,
    ).toBe(0);
    expect(() => loadConfig({ DEMO_MODE: 'true', DEMO_HISTORY_DAYS: '91' })).toThrow(
      /DEMO_HISTORY_DAYS/,
    );
  });
});
