/**
 * The settlement index (ARCHITECTURE §1, §6): the price of an instrument at an instant is
 * the median of the latest price of each fresh source at or before it. One rule, used by
 * the recorder, the public replay and the verification page, so they cannot disagree.
 */

/** A source's price counts toward the index only if the source stamped it at most this long before the instant. */
export const INDEX_FRESH_MS = 5_000;

/** One source's price as the index saw it. Prices are integers at the instrument's price scale. */
export interface SourceQuote {
  source: string;
  priceMinor: bigint;
  /** When the source says the price was current (its own timestamp). */
  sourceTimeMs: number;
  /** When this process received it. */
  receivedAtMs: number;
  /** Outside the band around the other sources (or the source's own last minute): recorded, never used. */
  quarantined?: boolean;
}

export interface IndexResult {
  priceMinor: bigint;
  /** The quotes the median was taken over, one per source, by source name. */
  used: SourceQuote[];
}

/**
 * The quotes that may count at `atMs`: per source the latest one stamped at or before the
 * instant and not older than INDEX_FRESH_MS, never a quarantined one.
 */
export function freshQuotes(
  quotes: readonly SourceQuote[],
  atMs: number,
  freshMs: number = INDEX_FRESH_MS,
): SourceQuote[] {
  const latest = new Map<string, SourceQuote>();
  for (const quote of quotes) {
    if (
      quote.quarantined ||
      quote.sourceTimeMs > atMs ||
      quote.sourceTimeMs < atMs - freshMs ||
      quote.priceMinor <= 0n
    )
      continue;
    const held = latest.get(quote.source);
    if (!held || quote.sourceTimeMs > held.sourceTimeMs) latest.set(quote.source, quote);
  }
  return [...latest.values()].sort((a, b) =>
    a.source < b.source ? -1 : a.source > b.source ? 1 : 0,
  );
}

/**
 * The median of prices: the middle one of an odd count; of an even count, the mean of the
 * two middle ones rounded down to the instrument's smallest unit. Null for none.
 */
export function medianPrice(prices: readonly bigint[]): bigint | null {
  if (prices.length === 0) return null;
  const sorted = [...prices].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const middle = sorted.length >> 1;
  if (sorted.length % 2 === 1) return sorted[middle] as bigint;
  return ((sorted[middle - 1] as bigint) + (sorted[middle] as bigint)) / 2n;
}

/** The index at `atMs`, or null when no source is fresh (an order due then is voided and refunded). */
export function indexPrice(
  quotes: readonly SourceQuote[],
  atMs: number,
  freshMs: number = INDEX_FRESH_MS,
): IndexResult | null {
  const used = freshQuotes(quotes, atMs, freshMs);
  const priceMinor = medianPrice(used.map((quote) => quote.priceMinor));
  return priceMinor === null ? null : { priceMinor, used };
}

/** Parts per million a price is away from a reference (absolute). */
export function deviationPpm(priceMinor: bigint, referenceMinor: bigint): bigint {
  if (referenceMinor <= 0n) return 0n;
  const difference =
    priceMinor > referenceMinor ? priceMinor - referenceMinor : referenceMinor - priceMinor;
  return (difference * 1_000_000n) / referenceMinor;
}

/** Whether a price is further than `bandPpm` from its reference, i.e. to be quarantined. */
export function outsideBand(priceMinor: bigint, referenceMinor: bigint, bandPpm: number): boolean {
  return deviationPpm(priceMinor, referenceMinor) > BigInt(bandPpm);
}
