import { INSTRUMENT_SYMBOLS } from '@tradewind/contract/market';
import type { FeedPrice, MarketFeed } from './feed.ts';
import { PYTH_SOURCE } from './pyth/hermes.ts';
import type { PythStream } from './pyth/stream.ts';

/**
 * Pyth as one of the recorder's sources: each instrument's last accepted update on the
 * current Hermes connection, with Pyth's publish time as the quote's own time. Freshness
 * and the index are the recorder's rule; a dropped connection answers nothing.
 */
export class PythFeed implements MarketFeed {
  readonly source = PYTH_SOURCE;

  constructor(private readonly stream: Pick<PythStream, 'connected' | 'latest'>) {}

  sample(): FeedPrice[] {
    if (!this.stream.connected) return [];
    const out: FeedPrice[] = [];
    for (const instrument of INSTRUMENT_SYMBOLS) {
      const tick = this.stream.latest(instrument);
      if (!tick) continue;
      out.push({
        instrument,
        priceMinor: tick.priceMinor,
        source: this.source,
        sourceTimeMs: tick.publishTimeMs,
        receivedAtMs: tick.receivedAtMs,
        ...(tick.signedUpdate
          ? { proof: { feedId: tick.sourceId, update: tick.signedUpdate } }
          : {}),
      });
    }
    return out;
  }
}
