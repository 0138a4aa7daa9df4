import type { Candle } from '@tradewind/contract/market';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedPrice, MarketFeed } from '../src/modules/market/feed.ts';
import { MarketRecorder } from '../src/modules/market/recorder.ts';
import { loadConfig } from '../src/platform/config.ts';
import { queryRows } from '../src/platform/db.ts';
import { EmbeddedUpkeep } from '../src/platform/housekeeping.ts';
import { type TestApp, call, createTestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;
const POSTGRES = 'postgres://tradewind@db.example:5432/tradewind';

describe('tick retention defaults', () => {
  it('the embedded database keeps raw ticks 3 days by default, PostgreSQL 30', () => {
    expect(loadConfig({}).market.tickRetentionDays).toBe(3);
    expect(
      loadConfig({ DATABASE_URL: POSTGRES, DEMO_MODE: 'false' }).market.tickRetentionDays,
    ).toBe(30);
  });

  it('TICK_RETENTION_DAYS, when set, wins on either database', () => {
    expect(loadConfig({ TICK_RETENTION_DAYS: '45' }).market.tickRetentionDays).toBe(45);
    expect(
      loadConfig({ DATABASE_URL: POSTGRES, DEMO_MODE: 'false', TICK_RETENTION_DAYS: '2' }).market
        .tickRetentionDays,
    ).toBe(2);
  });

  it("the console's settings page shows the default in force", () => {
    const shown = (env: Record<string, string>) =>
      loadConfig(env).settings.find((setting) => setting.name === 'TICK_RETENTION_DAYS');
    expect(shown({})).toMatchObject({ value: '3', fromEnv: false });
    expect(shown({ DATABASE_URL: POSTGRES, DEMO_MODE: 'false' })).toMatchObject({
      value: '30',
      fromEnv: false,
    });
    expect(shown({ TICK_RETENTION_DAYS: '9' })).toMatchObject({ value: '9', fromEnv: true });
  });
});

/** One XAGUSD price at each instant it is asked for (this file's ticks are its own instrument's). */
class OnePrice implements MarketFeed {
  readonly source = 'simulated';
  sample(): FeedPrice[] {
    return [{ instrument: 'XAGUSD', priceMinor: 3_120_000n }];
  }
}

describe('tick pruning on the embedded default', () => {
  it('ticks older than the retention are pruned by the recorder loop, younger ones and every candle stay', async () => {
    const db = t.database.db;
    // The database's own trigger refuses to delete ticks younger than a day by its clock: the ticks are real-time old.
    const nowMs = Math.floor(Date.now() / 60_000) * 60_000;
    t.clock.set(nowMs);
    const retentionDays = t.app.services.config.market.tickRetentionDays;
    expect(retentionDays).toBe(3);
    const recorder = new MarketRecorder({
      db,
      clock: t.clock,
      feed: new OnePrice(),
      tickRetentionDays: retentionDays,
    });
    const agesMs = [
      5 * DAY_MS,
      4 * DAY_MS,
      3 * DAY_MS + 60_000,
      3 * DAY_MS - 60_000,
      2 * DAY_MS,
      3_600_000,
    ];
    for (const age of agesMs) expect(await recorder.recordOnce(new Date(nowMs - age))).toBe(1);
    const ticks = async () =>
      (
        await queryRows<{ ts: Date | string }>(
          db,
          sql`select ts from market_ticks where instrument = 'XAGUSD' order by ts`,
        )
      ).map((r) => nowMs - new Date(r.ts).getTime());
    const candles = async () =>
      (
        await call<{ items: Candle[] }>(
          t.app,
          'GET',
          `/api/v1/market/klines?symbol=XAGUSD&interval=1m&before=${nowMs + 60_000}&limit=100`,
        )
      ).body.data.items;
    const candlesBefore = await candles();
    expect(candlesBefore).toHaveLength(agesMs.length);
    expect(await ticks()).toEqual(agesMs);

    // The loop's step records this second and, a minute after the last prune (here: the first), prunes.
    await recorder.step();
    expect(await ticks()).toEqual([3 * DAY_MS - 60_000, 2 * DAY_MS, 3_600_000, 0]);
    expect((await candles()).slice(0, agesMs.length)).toEqual(candlesBefore);
  });
});

describe('the embedded database upkeep', () => {
  it("makes deleted rows' space reusable: after it, new rows fill the old pages instead of growing the table", async () => {
    const db = t.database.db;
    await db.execute(
      sql`create table test_upkeep (id bigint generated always as identity primary key, body text not null)`,
    );
    const fill = () =>
      db.execute(
        sql`insert into test_upkeep (body) select repeat('x', 200) from generate_series(1, 5000)`,
      );
    const heapBytes = async () =>
      Number(
        (
          await queryRows<{ n: string }>(db, sql`select pg_relation_size('test_upkeep')::text as n`)
        )[0]?.n,
      );
    await fill();
    const full = await heapBytes();
    await db.execute(sql`delete from test_upkeep`);
    await new EmbeddedUpkeep({ db }).runOnce();
    await fill();
    expect(await heapBytes()).toBe(full);
    await db.execute(sql`drop table test_upkeep`);
  });
});
