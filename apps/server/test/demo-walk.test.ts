import { INSTRUMENT_SYMBOLS } from '@tradewind/contract/market';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { demoWalkKey } from '../src/modules/market/demo-walk-key.ts';
import { SimulatedFeed } from '../src/modules/market/feed.ts';
import { type Database, queryRows } from '../src/platform/db.ts';
import { openTestDatabase } from './harness.ts';

const opened: Database[] = [];
afterAll(async () => {
  for (const database of opened) await database.close();
});

async function freshDatabase(): Promise<Database> {
  const database = await openTestDatabase();
  opened.push(database);
  return database;
}

/** A minute of one feed's prices, one sample a second from `startMs`. */
function walk(feed: SimulatedFeed, startMs: number, seconds = 60): string[] {
  const out: string[] = [];
  for (let s = 0; s < seconds; s++)
    for (const p of feed.sample(new Date(startMs + s * 1000)))
      out.push(`${p.instrument}:${p.priceMinor}`);
  return out;
}

describe('the demo walk', () => {
  const startMs = Date.UTC(2026, 10, 27, 8, 0, 0);

  it('gets a random key at first start, kept for the next start of the same database', async () => {
    const database = await freshDatabase();
    const first = await demoWalkKey(database.db, new Date(startMs));
    const again = await demoWalkKey(database.db, new Date(startMs + 60_000));
    expect(first).toHaveLength(32);
    expect(Buffer.from(again).toString('hex')).toBe(Buffer.from(first).toString('hex'));
    const rows = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from market_demo_walk_key`,
    );
    expect(rows[0]?.n).toBe(1);
    // A restart continues the same walk: the same key and second give the same step.
    expect(walk(new SimulatedFeed({ seed: again }), startMs, 5)).toEqual(
      walk(new SimulatedFeed({ seed: first }), startMs, 5),
    );
  });

  it('two fresh starts at the same instant walk differently, and no seed made from the start time replays either', async () => {
    const keyA = await demoWalkKey((await freshDatabase()).db, new Date(startMs));
    const keyB = await demoWalkKey((await freshDatabase()).db, new Date(startMs));
    expect(Buffer.from(keyA).equals(Buffer.from(keyB))).toBe(false);
    const a = walk(new SimulatedFeed({ seed: keyA }), startMs);
    const b = walk(new SimulatedFeed({ seed: keyB }), startMs);
    // Unrelated: few instrument-seconds agree (some do by chance: a yen or a cent moves a few units a second).
    const same = a.filter((price, i) => price === b[i]).length;
    expect(same).toBeLessThan(a.length / 4);
    // What an observer could derive from the start time (the health check's uptime gives it to the second).
    const candidates = new Set<number>();
    for (let offsetMs = -2_000; offsetMs <= 2_000; offsetMs++) {
      const ms = startMs + offsetMs;
      candidates.add(ms % 4_294_967_296);
      candidates.add(Math.floor(ms / 1000));
    }
    const firstSecond = (key: number | Uint8Array) =>
      new SimulatedFeed({ seed: key })
        .sample(new Date(startMs))
        .map((p) => `${p.instrument}:${p.priceMinor}`);
    const aFirst = a.slice(0, INSTRUMENT_SYMBOLS.length);
    const bFirst = b.slice(0, INSTRUMENT_SYMBOLS.length);
    for (const candidate of candidates) {
      const guess = firstSecond(candidate);
      expect(guess).not.toEqual(aFirst);
      expect(guess).not.toEqual(bFirst);
    }
  });
});
