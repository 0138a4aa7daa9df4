// The public replay recomputes each settled order from the recorded ticks, the index included:
// for every order of a few thousand, placed and settled on prices from several sources with
// random ages and outliers, the replay agrees with what was stored.
import type { Order, Replay } from '@tradewind/contract/instant';
import { INSTRUMENTS, type InstrumentSymbol } from '@tradewind/contract/market';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedPrice, MarketFeed } from '../src/modules/market/feed.ts';
import { MarketRecorder } from '../src/modules/market/recorder.ts';
import { type Trader, placeOrder, settlement, trader } from './contracts.ts';
import { type TestApp, call, createTestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { CONTRACT_MAX_OPEN_ORDERS: '1000' } });
});
afterAll(() => t.close());

const SYMBOLS: InstrumentSymbol[] = ['BTCUSDT', 'ETHUSDT', 'XAUUSD'];
const START: Record<string, bigint> = { BTCUSDT: 9_500_000n, ETHUSDT: 330_000n, XAUUSD: 265_000n };

/** A source quoting around a shared level with its own noise, random ages, gaps and rare wild prices. */
class NoisySource implements MarketFeed {
  constructor(
    readonly source: string,
    private readonly level: Map<InstrumentSymbol, bigint>,
    private readonly random: () => number,
  ) {}
  sample(now: Date): FeedPrice[] {
    const second = Math.floor(now.getTime() / 1000) * 1000;
    const out: FeedPrice[] = [];
    for (const instrument of SYMBOLS) {
      if (this.random() < 0.15) continue; // silent this second
      const level = this.level.get(instrument) ?? 1n;
      const noise = BigInt(Math.round((this.random() - 0.5) * 6));
      const wild = this.random() < 0.02 ? level / 10n : 0n; // one large trade: 10 % off
      const ageMs = Math.floor(this.random() * 7_000); // sometimes older than the 5 s that count
      out.push({
        instrument,
        priceMinor: level + noise + wild,
        sourceTimeMs: second - ageMs,
        receivedAtMs: second - Math.floor(ageMs / 2),
      });
    }
    return out;
  }
}

describe('the public replay over the index', () => {
  it(
    'agrees with the stored result for every one of a few thousand orders on several sources',
    { timeout: 600_000 },
    async () => {
      const random = fc
        .sample(fc.integer({ min: 0, max: 1_000_000 }), { numRuns: 200_000, seed: 2028 })
        .map((n) => n / 1_000_001);
      let i = 0;
      const next = () => random[i++ % random.length] as number;
      const level = new Map<InstrumentSymbol, bigint>(SYMBOLS.map((s) => [s, START[s] as bigint]));
      const recorder = new MarketRecorder({
        db: t.database.db,
        clock: t.clock,
        feeds: ['binance', 'pyth', 'okx'].map((name) => new NoisySource(name, level, next)),
      });
      const step = async () => {
        for (const symbol of SYMBOLS)
          level.set(symbol, (level.get(symbol) ?? 1n) + BigInt(Math.round((next() - 0.5) * 4)));
        t.clock.advance(1_000);
        await recorder.recordOnce();
      };
      const traders: Trader[] = [];
      for (let n = 0; n < 4; n++) traders.push(await trader(t, '1000000'));
      for (let s = 0; s < 6; s++) await step();

      const orders: Order[] = [];
      const target = 2_000;
      while (orders.length < target) {
        await step();
        for (let k = 0; k < 40 && orders.length < target; k++) {
          const who = traders[Math.floor(next() * traders.length)] as Trader;
          const symbol = SYMBOLS[Math.floor(next() * SYMBOLS.length)] as InstrumentSymbol;
          const reply = await placeOrder(t, who.token, {
            symbol,
            direction: next() < 0.5 ? 'up' : 'down',
            periodId: 1,
            amount: String(10 + Math.floor(next() * 90)),
          });
          // An instrument with no fresh index this second is refused: that is the rule, not a failure here.
          if (reply.body.code === 0) orders.push(reply.body.data.order);
        }
      }
      // Past every delivery, recording every second, then settle.
      for (let s = 0; s < 35; s++) await step();
      let settled = 0;
      for (let round = 0; round < 50 && settled < orders.length; round++)
        settled += await settlement(t).settleDue();
      expect(settled).toBe(orders.length);

      let withQuotes = 0;
      let voided = 0;
      for (const order of orders) {
        const reply = await call<Replay>(
          t.app,
          'GET',
          `/api/v1/contracts/replay?publicId=${order.publicId}`,
        );
        expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
        const replay = reply.body.data;
        expect(replay, order.publicId).toMatchObject({ agrees: true, indexAgrees: true });
        if (replay.stored.outcome === 'void') voided += 1;
        if (replay.closeTick?.quotes && replay.closeTick.quotes.length > 1) withQuotes += 1;
      }
      // Most close prices were the median of several sources; a few orders found none fresh and were voided.
      expect(withQuotes).toBeGreaterThan(orders.length / 2);
      expect(voided).toBeLessThan(orders.length / 10);
      expect(INSTRUMENTS.BTCUSDT.priceScale).toBe(2);
    },
  );
});
