import { INSTRUMENTS, type InstrumentSymbol } from '@tradewind/contract/market';
import {
  MAX_PYTH_EXPO,
  normalizeHex,
  parseAccumulatorUpdate,
  parsePriceMessage,
  scalePythPrice,
  sliceAccumulatorUpdate,
} from '@tradewind/contract/pyth-proof';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { PythFeedAt } from './feed-ids.ts';

/** What the ticks of this source say in their `source` column. */
export const PYTH_SOURCE = 'pyth';

/** One accepted Pyth price, at the instrument's price scale. */
export interface PythTick {
  symbol: InstrumentSymbol;
  source: typeof PYTH_SOURCE;
  /** The Pyth feed id (hex, no 0x): which feed, hence which futures contract, priced it. */
  sourceId: string;
  priceMinor: bigint;
  /** Pyth's confidence interval (±) at the same scale. */
  confMinor: bigint;
  /** The source's own timestamp: Pyth's publish_time, in ms. */
  publishTimeMs: number;
  /** The Pythnet slot, which orders updates published within the same second. */
  slot?: number;
  /**
   * The signed accumulator update cut down to this feed (hex): Wormhole VAA and Merkle proof,
   * checkable with `verifyPythUpdate` from @tradewind/contract/pyth-proof. Absent when the
   * message carried none.
   */
  signedUpdate?: string;
}

/** Why an entry of a Hermes message became no tick. */
export type HermesRejection = 'malformed' | 'unknown_id';

export type HermesEntry =
  | { ok: true; tick: PythTick }
  | { ok: false; reason: HermesRejection; feedId?: string; detail: string };

/** Hermes packs every subscribed feed of a slot into one message; more than this many is not a message it sends. */
const MAX_ENTRIES = 256;
const FEED_ID = /^(0x)?[0-9a-fA-F]{64}$/;
const INT64 = /^-?\d{1,19}$/;
const UINT64 = /^\d{1,20}$/;
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function reject(reason: HermesRejection, detail: string, feedId?: string): HermesEntry {
  return feedId === undefined
    ? { ok: false, reason, detail }
    : { ok: false, reason, feedId, detail };
}

/** `binary.data` as hex strings; Hermes sends hex or base64 as asked. Anything else is no binary. */
function binaryUpdates(binary: unknown): string[] {
  if (!isObject(binary) || !Array.isArray(binary.data)) return [];
  const out: string[] = [];
  for (const item of binary.data) {
    if (typeof item !== 'string') return [];
    if (binary.encoding === 'hex') out.push(normalizeHex(item));
    else if (binary.encoding === 'base64') out.push(Buffer.from(item, 'base64').toString('hex'));
    else return [];
  }
  return out;
}

interface ParsedPrice {
  price: bigint;
  conf: bigint;
  expo: number;
  publishTime: number;
}

function parsePrice(value: unknown): ParsedPrice | string {
  if (!isObject(value)) return 'price is not an object';
  const { price, conf, expo, publish_time: publishTime } = value;
  if (
    typeof price !== 'string' ||
    !INT64.test(price) ||
    BigInt(price) > INT64_MAX ||
    BigInt(price) < -INT64_MAX - 1n
  )
    return 'price.price is not an int64 string';
  if (typeof conf !== 'string' || !UINT64.test(conf) || BigInt(conf) > UINT64_MAX)
    return 'price.conf is not a uint64 string';
  if (typeof expo !== 'number' || !Number.isInteger(expo) || Math.abs(expo) > MAX_PYTH_EXPO)
    return 'price.expo is out of range';
  if (typeof publishTime !== 'number' || !Number.isSafeInteger(publishTime) || publishTime <= 0)
    return 'price.publish_time is not a positive integer';
  return { price: BigInt(price), conf: BigInt(conf), expo, publishTime };
}

/**
 * The signed update for this feed, if the message's binary carries one that says the same
 * price and time as its parsed part. A binary that disagrees is a message not to trust.
 */
function signedFor(
  updates: readonly string[],
  feedId: string,
  parsed: ParsedPrice,
): string | undefined | 'mismatch' {
  for (const hex of updates) {
    const slice = sliceAccumulatorUpdate(hex, feedId);
    if (!slice) continue;
    const entry = parseAccumulatorUpdate(slice).updates[0];
    const message = entry ? parsePriceMessage(entry.message) : null;
    if (
      !message ||
      message.price !== parsed.price ||
      message.conf !== parsed.conf ||
      message.expo !== parsed.expo ||
      message.publishTime !== parsed.publishTime
    ) {
      return 'mismatch';
    }
    return bytesToHex(slice);
  }
  return undefined;
}

function parseEntry(
  entry: unknown,
  feeds: ReadonlyMap<string, PythFeedAt>,
  updates: readonly string[],
): HermesEntry {
  if (!isObject(entry)) return reject('malformed', 'parsed entry is not an object');
  if (typeof entry.id !== 'string' || !FEED_ID.test(entry.id))
    return reject('malformed', 'id is not a 32-byte hex feed id');
  const feedId = normalizeHex(entry.id);
  const feed = feeds.get(feedId);
  if (!feed) return reject('unknown_id', 'feed id is not subscribed', feedId);
  const parsed = parsePrice(entry.price);
  if (typeof parsed === 'string') return reject('malformed', parsed, feedId);
  const scale = INSTRUMENTS[feed.instrument].priceScale;
  const priceMinor = scalePythPrice(parsed.price, parsed.expo, scale);
  // A zero or negative price (or one below the instrument's tick) can price nothing.
  if (priceMinor <= 0n)
    return reject('malformed', 'price is not positive at the instrument scale', feedId);
  const signedUpdate = signedFor(updates, feedId, parsed);
  if (signedUpdate === 'mismatch')
    return reject('malformed', 'binary update disagrees with the parsed price', feedId);
  const slot =
    isObject(entry.metadata) && Number.isSafeInteger(entry.metadata.slot)
      ? (entry.metadata.slot as number)
      : undefined;
  const tick: PythTick = {
    symbol: feed.instrument,
    source: PYTH_SOURCE,
    sourceId: feedId,
    priceMinor,
    confMinor: scalePythPrice(parsed.conf, parsed.expo, scale),
    publishTimeMs: parsed.publishTime * 1000,
  };
  if (slot !== undefined) tick.slot = slot;
  if (signedUpdate !== undefined) tick.signedUpdate = signedUpdate;
  return { ok: true, tick };
}

/**
 * One Hermes price-update message (the JSON of an SSE `data:` line, or a
 * `/v2/updates/price/latest` reply): `{ binary: { encoding, data: [update…] }, parsed: [{ id,
 * price: { price, conf, expo, publish_time }, ema_price, metadata: { slot, … } }] }`. Each
 * parsed entry becomes a tick for the instrument `feeds` maps its id to, or a rejection with
 * a reason to count. Prices are exact: mantissa × 10^expo to the instrument's scale, in bigint.
 * Never throws: a message that is not JSON of that shape is one `malformed` rejection.
 */
export function parseHermesMessage(
  text: string,
  feeds: ReadonlyMap<string, PythFeedAt>,
): HermesEntry[] {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return [reject('malformed', 'not JSON')];
  }
  if (!isObject(message) || !Array.isArray(message.parsed))
    return [reject('malformed', 'no parsed array')];
  if (message.parsed.length === 0 || message.parsed.length > MAX_ENTRIES)
    return [reject('malformed', 'parsed array is empty or too long')];
  const updates = binaryUpdates(message.binary);
  return message.parsed.map((entry) => {
    try {
      return parseEntry(entry, feeds, updates);
    } catch {
      return reject('malformed', 'entry could not be read');
    }
  });
}
