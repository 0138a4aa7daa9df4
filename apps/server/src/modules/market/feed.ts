import { createHash, createHmac } from 'node:crypto';
import { parseAmount } from '@tradewind/contract/money';
import { INSTRUMENTS, INSTRUMENT_SYMBOLS, type InstrumentSymbol } from '@tradewind/contract/market';

/** Traded volume is an integer of 10^-8 base units (Binance reports quantities with 8 decimals). */
export const VOLUME_SCALE = 8;

/** One instrument's price as a feed reports it: an integer at the instrument's price scale. */
export interface FeedPrice {
  instrument: InstrumentSymbol;
  priceMinor: bigint;
  /** Where this price came from; defaults to the feed's `source` (a feed may mix sources, e.g. Binance for crypto, simulated for the rest). */
  source?: string;
  /** Base units traded since the previous sample, at VOLUME_SCALE; 0 when the feed does not know. */
  volumeMinor?: bigint;
  /** When the source says the price was current (a trade's time, an oracle's publish time); default: the sampled second. */
  sourceTimeMs?: number;
  /** When this process received it; default: the sampled second. */
  receivedAtMs?: number;
  /** The source's signature over the price, if it signs (Pyth: the accumulator update cut to the feed, hex). */
  proof?: { feedId: string; update: string };
}

/**
 * Where prices come from (ARCHITECTURE §6). The recorder asks the feed once a second for
 * the current price of each instrument it covers and records what it answers; a feed
 * never writes anything itself. The simulated feed steps its random walk on each call; an
 * exchange adapter answers the last trade price it heard on its WebSocket.
 */
export interface MarketFeed {
  /** Recorded with every tick whose price does not name its own source, e.g. `simulated`. */
  readonly source: string;
  sample(now: Date): FeedPrice[] | Promise<FeedPrice[]>;
  /** Continues from the last recorded prices after a restart, so recorded series have no jumps. */
  resume?(prices: ReadonlyMap<InstrumentSymbol, bigint>): void;
}

/**
 * Starting prices and per-second volatility of the simulated walk: realistic levels,
 * volatility in parts per billion per second (about 55–100 % a year).
 */
export const SIMULATED_MARKET: Record<
  InstrumentSymbol,
  { start: string; sigmaPpbPerS: number; volumePerS: string }
> = {
  // Mean traded volume per second in base units (barrels, MMBtu, pounds, ounces, currency units), roughly a major venue's.
  BTCUSDT: { start: '95000', sigmaPpbPerS: 100_000, volumePerS: '0.25' },
  ETHUSDT: { start: '3300', sigmaPpbPerS: 125_000, volumePerS: '4' },
  BNBUSDT: { start: '650', sigmaPpbPerS: 100_000, volumePerS: '2' },
  SOLUSDT: { start: '190', sigmaPpbPerS: 150_000, volumePerS: '30' },
  XRPUSDT: { start: '2.3', sigmaPpbPerS: 160_000, volumePerS: '50000' },
  DOGEUSDT: { start: '0.32', sigmaPpbPerS: 180_000, volumePerS: '500000' },
  TRXUSDT: { start: '0.25', sigmaPpbPerS: 110_000, volumePerS: '300000' },
  LTCUSDT: { start: '100', sigmaPpbPerS: 130_000, volumePerS: '5' },
  WTIUSD: { start: '71.5', sigmaPpbPerS: 70_000, volumePerS: '5000' },
  NGASUSD: { start: '3.1', sigmaPpbPerS: 110_000, volumePerS: '20000' },
  COPPERUSD: { start: '4.35', sigmaPpbPerS: 45_000, volumePerS: '10000' },
  EURUSD: { start: '1.085', sigmaPpbPerS: 15_000, volumePerS: '5000000' },
  GBPUSD: { start: '1.27', sigmaPpbPerS: 16_000, volumePerS: '2000000' },
  USDJPY: { start: '151.2', sigmaPpbPerS: 18_000, volumePerS: '3000000' },
  AUDUSD: { start: '0.66', sigmaPpbPerS: 18_000, volumePerS: '1000000' },
  XAUUSD: { start: '2650', sigmaPpbPerS: 25_000, volumePerS: '600' },
  XAGUSD: { start: '31.2', sigmaPpbPerS: 45_000, volumePerS: '5000' },
};

/** The walk drifts back toward its starting level with this time constant, so demo prices stay realistic for days. */
const REVERSION_S = 86_400;
/** A pause longer than this (a suspended process) is not caught up step by step. */
const MAX_CATCH_UP_S = 3_600;
const PPB = 1_000_000_000n;

/** How many uniforms one draw takes: 12 for the price step (Irwin–Hall), 1 for the volume. */
const UNIFORMS_PER_DRAW = 13;

/** The demo walk's key from a test's number (tests replay a walk by number; production uses 32 random bytes). */
export function walkKey(seed: number | Uint8Array): Uint8Array {
  return typeof seed === 'number'
    ? new Uint8Array(createHash('sha256').update(`tradewind-demo-walk:${seed}`).digest())
    : seed;
}

/**
 * The uniforms of one instrument's step at one whole second: HMAC-SHA-512 under the walk's
 * key of the symbol and the second. Keyed, so a price series reveals nothing of the key and
 * predicts no later step; indexed by time, so a restart with the same key continues the
 * same walk and two recorders of one database agree on a second.
 */
function draws(key: Uint8Array, symbol: string, second: number): number[] {
  const bytes = createHmac('sha512', key).update(`${symbol}:${second}`).digest();
  const out: number[] = [];
  for (let i = 0; i < UNIFORMS_PER_DRAW; i++) out.push(bytes.readUInt32BE(i * 4) / 4_294_967_296);
  return out;
}

interface WalkState {
  start: bigint;
  price: bigint;
  sigmaPpb: number;
  volumePerSMinor: bigint;
}

/**
 * Demo prices (clearly labelled as such): a keyed, mean-reverting random walk per
 * instrument, in integer arithmetic on the price's minor units. Only the random step
 * itself is a float; every price is an exact integer. The key comes from a secure random
 * source at first start and is stored (`demoWalkKey`); nothing the app shows derives from it.
 */
export class SimulatedFeed implements MarketFeed {
  readonly source = 'simulated' as const;
  private readonly walks = new Map<InstrumentSymbol, WalkState>();
  private lastAtMs: number | null = null;
  private key: Uint8Array;

  constructor(options: { seed: number | Uint8Array; instruments?: readonly InstrumentSymbol[] }) {
    this.key = walkKey(options.seed);
    for (const symbol of options.instruments ?? INSTRUMENT_SYMBOLS) {
      const { start, sigmaPpbPerS } = SIMULATED_MARKET[symbol];
      const startMinor = parseAmount(start, INSTRUMENTS[symbol].priceScale);
      if (startMinor === undefined) throw new Error(`bad simulated start price for ${symbol}`);
      const volumePerSMinor = parseAmount(SIMULATED_MARKET[symbol].volumePerS, VOLUME_SCALE);
      if (volumePerSMinor === undefined) throw new Error(`bad simulated volume for ${symbol}`);
      this.walks.set(symbol, {
        start: startMinor,
        price: startMinor,
        sigmaPpb: sigmaPpbPerS,
        volumePerSMinor,
      });
    }
  }

  /** Walks on from here with the stored key (read at boot, after construction). */
  useKey(key: Uint8Array): void {
    this.key = key;
  }

  resume(prices: ReadonlyMap<InstrumentSymbol, bigint>): void {
    for (const [symbol, price] of prices) {
      const walk = this.walks.get(symbol);
      if (walk && price > 0n) walk.price = price;
    }
  }

  sample(now: Date): FeedPrice[] {
    const nowMs = now.getTime();
    const elapsedS =
      this.lastAtMs === null
        ? 1
        : Math.min(MAX_CATCH_UP_S, Math.max(1, Math.round((nowMs - this.lastAtMs) / 1000)));
    this.lastAtMs = nowMs;
    const second = Math.floor(nowMs / 1000);
    const out: FeedPrice[] = [];
    for (const [instrument, walk] of this.walks) {
      const uniforms = draws(this.key, instrument, second);
      walk.price = step(walk, elapsedS, uniforms);
      // Between 0.2 and 1.8 times the mean rate, in thousandths: exact integers again.
      const factorPermille = BigInt(200 + Math.floor((uniforms[12] ?? 0) * 1_600));
      out.push({
        instrument,
        priceMinor: walk.price,
        source: this.source,
        volumeMinor: (walk.volumePerSMinor * BigInt(elapsedS) * factorPermille) / 1_000n,
        sourceTimeMs: second * 1000,
        receivedAtMs: second * 1000,
      });
    }
    return out;
  }
}

function step(walk: WalkState, elapsedS: number, uniforms: readonly number[]): bigint {
  // Irwin–Hall: the sum of 12 uniforms minus 6 is close to a standard normal.
  let z = -6;
  for (let i = 0; i < 12; i++) z += uniforms[i] ?? 0;
  const shockPpb = BigInt(Math.round(walk.sigmaPpb * Math.sqrt(elapsedS) * z));
  const driftPpb =
    ((walk.start - walk.price) * PPB * BigInt(elapsedS)) / walk.start / BigInt(REVERSION_S);
  const next = walk.price + (walk.price * (shockPpb + driftPpb)) / PPB;
  return next > 0n ? next : 1n;
}
