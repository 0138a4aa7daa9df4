import { INDEX_FRESH_MS } from '@tradewind/contract/price-index';
import { INSTRUMENT_SYMBOLS, isInstrumentSymbol } from '@tradewind/contract/market';
import type { MarketSources, PriceSource } from '@tradewind/contract/market-sources';
import { sql } from 'drizzle-orm';
import type { MarketConfig } from '#platform/config.ts';
import { type Executor, queryRows } from '#platform/db.ts';
import { loadListedContracts, withListedContracts } from './pyth/contracts.ts';
import { pythFeedsAt } from './pyth/feed-ids.ts';
import { readSharedSettings } from '../settings/service.ts';
import { tickQuotes } from './service.ts';
import { configuredPythFeeds, sourcePlan } from './sources.ts';
import type { TickComponent } from './tables.ts';

/** GET /admin/market/sources: each instrument's configured sources with their ids, and when each last counted. */
export async function sourcesView(
  db: Executor,
  market: Pick<MarketConfig, 'sources' | 'simulated' | 'pythFeedIds'>,
  now: Date,
): Promise<MarketSources> {
  const { quarantineBandPpm } = await readSharedSettings(db);
  const plan = sourcePlan(market);
  const pythFeeds = market.sources.includes('pyth')
    ? withListedContracts(configuredPythFeeds(market.pythFeedIds), await loadListedContracts(db))
    : configuredPythFeeds(market.pythFeedIds);
  const pyth = new Map(
    [...pythFeedsAt(now.getTime(), pythFeeds).values()].map((feed) => [feed.instrument, feed]),
  );
  const latest = await queryRows<{
    instrument: string;
    ts: Date | string;
    source: string;
    components: TickComponent[] | null;
  }>(
    db,
    sql`select distinct on (instrument) instrument, ts, source, components from market_ticks
        where ts > ${new Date(now.getTime() - 86_400_000).toISOString()}::timestamptz order by instrument, ts desc`,
  );
  const ticks = new Map(
    latest.filter((row) => isInstrumentSymbol(row.instrument)).map((row) => [row.instrument, row]),
  );
  const [quarantined] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from market_quarantined_quotes where received_at > ${new Date(now.getTime() - 86_400_000).toISOString()}::timestamptz`,
  );
  return {
    items: INSTRUMENT_SYMBOLS.map((symbol) => {
      const tick = ticks.get(symbol);
      const tickMs = tick ? new Date(tick.ts).getTime() : null;
      const quotes = tick
        ? tickQuotes({
            ts: new Date(tick.ts),
            priceMinor: 0n,
            source: tick.source,
            components: tick.components,
          })
        : [];
      const quotedAt = (source: string): string | null => {
        const quote = quotes.find((q) => q.source === source);
        return quote ? new Date(quote.sourceTimeMs).toISOString() : null;
      };
      const sources = plan.byInstrument[symbol].map((source): PriceSource => {
        const feed = pyth.get(symbol);
        const [id, label] =
          source === 'binance'
            ? [`${symbol.toLowerCase()}@aggTrade`, symbol]
            : source === 'pyth' && feed
              ? [feed.feedId, feed.pythSymbol]
              : [source, source];
        return { source, id, label, lastQuoteAt: quotedAt(source) };
      });
      return {
        symbol,
        sources,
        lastTickAt: tickMs === null ? null : new Date(tickMs).toISOString(),
      };
    }),
    freshMs: INDEX_FRESH_MS,
    quarantineBandPpm,
    quarantinedLastDay: quarantined?.n ?? 0,
  };
}
