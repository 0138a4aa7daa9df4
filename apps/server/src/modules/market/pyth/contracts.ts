import { INSTRUMENT_SYMBOLS, type InstrumentSymbol } from '@tradewind/contract/market';
import { asc } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { listedContracts } from '../tables.ts';
import {
  PYTH_FUTURES_ROLL_DAYS,
  type PythFeedMap,
  type PythFuturesContract,
  type PythFuturesFeed,
  frontContract,
} from './feed-ids.ts';

/**
 * New futures months for the commodities that follow Pyth's monthly contracts (WTI, copper).
 * The built-in list (`feed-ids.ts`) ends where Pyth's public lists ended when it was copied;
 * Pyth lists each new month on Hermes weeks before it becomes the front one. So the adapter
 * reads Hermes' feed list (`GET /v2/price_feeds?query=<root>&asset_type=commodities`), keeps
 * the months of the instrument's root whose description states a last trading day that agrees
 * with the contract code, stores them (`market_listed_contracts`) and merges them into the
 * built-in ones: the stream rolls on to them as it does to a built-in month.
 *
 * A listed month only adds a feed id for a contract code the built-in list does not have; it
 * never replaces a built-in one. Hermes is the source whose prices those feeds carry anyway.
 */

/** How often the list is read again: new months appear weeks ahead, a few reads a day is plenty. */
export const LISTING_REFRESH_MS = 6 * 3_600_000;
/** Warn this many days before a roll when no later month is known. */
export const LISTING_WARN_DAYS = 7;

/** CME month codes, January to December. */
const MONTH_CODES = 'FGHJKMNQUVXZ';
const MONTH_NAMES = [
  'JAN',
  'FEB',
  'MAR',
  'APR',
  'MAY',
  'JUN',
  'JUL',
  'AUG',
  'SEP',
  'OCT',
  'NOV',
  'DEC',
];
const DAY_MS = 86_400_000;

export type ListedContract = PythFuturesContract & { instrument: InstrumentSymbol };

export interface ListingRead {
  contracts: PythFuturesContract[];
  /** Entries of the root that were refused: deprecated, no date, a date the code contradicts, a bad id. */
  refused: { symbol: string; reason: string }[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `19 MAY 2026`, `21 Dec 2026`, `20 NOVEMBER 2026` → `2026-05-19`; null when there is none or it is no date. */
export function lastTradeDateOf(description: string): string | null {
  const match = /\b(\d{1,2})\s+([A-Za-z]{3,9})\.?\s+(\d{4})\b/.exec(description);
  if (!match) return null;
  const month = MONTH_NAMES.indexOf((match[2] ?? '').slice(0, 3).toUpperCase());
  if (month < 0) return null;
  const day = Number(match[1]);
  const year = Number(match[3]);
  const date = new Date(Date.UTC(year, month, day));
  if (date.getUTCMonth() !== month || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/**
 * Whether a last trading day fits a contract code: it falls in the delivery month or up to two
 * months before it (WTI's is in the month before, copper's in the month itself). The code's
 * year is one digit, so it is read as the year ending in it nearest the date.
 */
function agrees(monthCode: string, yearDigit: number, lastTradeDate: string): boolean {
  const month = MONTH_CODES.indexOf(monthCode);
  const tradeYear = Number(lastTradeDate.slice(0, 4));
  const tradeMonth = Number(lastTradeDate.slice(5, 7)) - 1;
  for (const year of [tradeYear - 1, tradeYear, tradeYear + 1]) {
    if (year % 10 !== yearDigit) continue;
    const ahead = year * 12 + month - (tradeYear * 12 + tradeMonth);
    if (ahead >= 0 && ahead <= 2) return true;
  }
  return false;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The months of `root` in a Hermes `/v2/price_feeds` reply (`[{ id, attributes: { symbol,
 * description, … } }]`), each with the last trading day its description states, in order.
 * Entries of other roots are not ours and are passed over; entries of this root that cannot be
 * trusted are refused and named. Never throws.
 */
export function readListing(body: unknown, root: string): ListingRead {
  const out: ListingRead = { contracts: [], refused: [] };
  if (!Array.isArray(body)) {
    out.refused.push({ symbol: '', reason: 'the reply is not a list' });
    return out;
  }
  const pattern = new RegExp(`^Commodities\\.${escape(root)}([${MONTH_CODES}])(\\d)/USD$`);
  const seen = new Set<string>();
  for (const entry of body) {
    if (!isRecord(entry) || !isRecord(entry.attributes)) continue;
    const symbol = entry.attributes.symbol;
    if (typeof symbol !== 'string') continue;
    const code = pattern.exec(symbol);
    if (!code) continue;
    const refuse = (reason: string) => out.refused.push({ symbol, reason });
    const id = typeof entry.id === 'string' ? entry.id.toLowerCase().replace(/^0x/, '') : '';
    if (!/^[0-9a-f]{64}$/.test(id)) {
      refuse('its id is not a 32-byte hex feed id');
      continue;
    }
    const description =
      typeof entry.attributes.description === 'string' ? entry.attributes.description : '';
    if (/deprecated/i.test(description)) {
      refuse('Pyth marks it deprecated');
      continue;
    }
    const lastTradeDate = lastTradeDateOf(description);
    if (!lastTradeDate) {
      refuse('its description states no last trading day');
      continue;
    }
    if (!agrees(code[1] ?? '', Number(code[2]), lastTradeDate)) {
      refuse(`its last trading day ${lastTradeDate} does not fit the contract code`);
      continue;
    }
    if (seen.has(symbol)) {
      refuse('listed twice');
      continue;
    }
    seen.add(symbol);
    out.contracts.push({ symbol, feedId: id, lastTradeDate });
  }
  out.contracts.sort((a, b) => a.lastTradeDate.localeCompare(b.lastTradeDate));
  return out;
}

/**
 * The feed map with the listed months added to each futures instrument after its built-in
 * ones: a month whose code or feed id the instrument already has is left out. An instrument
 * an operator pointed at one feed (PYTH_FEED_IDS) is left as it is.
 */
export function withListedContracts(
  feeds: PythFeedMap,
  listed: readonly ListedContract[],
): PythFeedMap {
  const out: Record<string, PythFeedMap[InstrumentSymbol]> = { ...feeds };
  for (const instrument of INSTRUMENT_SYMBOLS) {
    const spec = feeds[instrument];
    if (spec?.kind !== 'futures') continue;
    const known = new Set(spec.contracts.flatMap((c) => [c.symbol, c.feedId.toLowerCase()]));
    const added = listed
      .filter((c) => c.instrument === instrument && !known.has(c.symbol) && !known.has(c.feedId))
      .map(({ symbol, feedId, lastTradeDate }) => ({ symbol, feedId, lastTradeDate }));
    if (added.length === 0) continue;
    const contracts = [...spec.contracts, ...added].sort((a, b) =>
      a.lastTradeDate.localeCompare(b.lastTradeDate),
    );
    out[instrument] = { ...spec, contracts } satisfies PythFuturesFeed;
  }
  return out as PythFeedMap;
}

/** Every month stored so far, oldest first. */
export async function loadListedContracts(db: Db): Promise<ListedContract[]> {
  const rows = await db
    .select()
    .from(listedContracts)
    .orderBy(asc(listedContracts.lastTradeDate), asc(listedContracts.symbol));
  return rows.flatMap((row) =>
    (INSTRUMENT_SYMBOLS as readonly string[]).includes(row.instrument)
      ? [
          {
            instrument: row.instrument as InstrumentSymbol,
            symbol: row.symbol,
            feedId: row.feedId,
            lastTradeDate: row.lastTradeDate,
          },
        ]
      : [],
  );
}

/** Stores months not stored yet (a month once stored keeps its id); returns the new ones. */
export async function saveListedContracts(
  db: Db,
  now: Date,
  contracts: readonly ListedContract[],
): Promise<ListedContract[]> {
  if (contracts.length === 0) return [];
  const inserted = await db
    .insert(listedContracts)
    .values(contracts.map((c) => ({ ...c, listedAt: now })))
    .onConflictDoNothing()
    .returning({ symbol: listedContracts.symbol });
  const symbols = new Set(inserted.map((row) => row.symbol));
  return contracts.filter((c) => symbols.has(c.symbol));
}

export interface ListingOptions {
  db: Db;
  clock: Clock;
  /** The built-in feeds with the operator's replacements: what the listed months are added to. */
  feeds: PythFeedMap;
  baseUrl: string;
  apiKey?: string;
  fetch?: typeof fetch;
  /** Told the merged map after each read (the stream resubscribes when its front month changes). */
  onFeeds: (feeds: PythFeedMap) => void;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  refreshMs?: number;
}

/**
 * Reads Hermes' list for each futures instrument at start and every LISTING_REFRESH_MS, stores
 * what is new, and hands the merged map on. A failed read is logged and changes nothing: the
 * months stored before still count, and the next read tries again.
 */
export class ContractListing {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private readonly abort = new AbortController();
  private merged: PythFeedMap;
  private markRead: () => void = () => undefined;
  /** Settles once the first read is done, whatever it found, or once the listing stops. */
  readonly firstRead = new Promise<void>((resolve) => {
    this.markRead = resolve;
  });

  constructor(private readonly options: ListingOptions) {
    this.merged = options.feeds;
  }

  /** The map as of the last read: the built-in months with the stored ones. */
  feeds(): PythFeedMap {
    return this.merged;
  }

  start(): void {
    const loop = () => {
      this.running = this.refresh().finally(() => {
        this.running = null;
        if (this.abort.signal.aborted) return;
        this.timer = setTimeout(loop, this.options.refreshMs ?? LISTING_REFRESH_MS);
        this.timer.unref();
      });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.markRead();
  }

  /** One read of the list, then the merged map from everything stored. */
  async refresh(): Promise<PythFeedMap> {
    const { db, clock, feeds, log } = this.options;
    try {
      const added = await saveListedContracts(db, clock.now(), await this.read());
      if (added.length > 0)
        log?.info(
          { contracts: added.map((c) => `${c.symbol} ${c.lastTradeDate} ${c.feedId}`) },
          'pyth feed: new futures months listed',
        );
    } catch (error) {
      if (this.abort.signal.aborted) {
        this.markRead();
        return this.merged;
      }
      log?.warn({ err: error }, 'pyth feed: the futures months could not be stored');
    }
    let merged = feeds;
    try {
      merged = withListedContracts(feeds, await loadListedContracts(db));
    } catch (error) {
      log?.warn({ err: error }, 'pyth feed: the stored futures months could not be read');
    }
    this.merged = merged;
    this.warnBeforeRunningOut(merged);
    this.options.onFeeds(merged);
    this.markRead();
    return merged;
  }

  /** Each futures root's months; a root whose read fails is logged and left for the next read. */
  private async read(): Promise<ListedContract[]> {
    const out: ListedContract[] = [];
    for (const instrument of INSTRUMENT_SYMBOLS) {
      const spec = this.options.feeds[instrument];
      if (spec?.kind !== 'futures') continue;
      try {
        const body = await this.fetchListing(instrument, spec.root);
        if (body === undefined) continue;
        const { contracts, refused } = readListing(body, spec.root);
        if (refused.length > 0)
          this.options.log?.warn(
            { instrument, refused },
            'pyth feed: futures months refused from the listing',
          );
        out.push(...contracts.map((c) => ({ ...c, instrument })));
      } catch (error) {
        if (this.abort.signal.aborted) break;
        this.options.log?.warn(
          { err: error, instrument },
          'pyth feed: the futures listing could not be read',
        );
      }
    }
    return out;
  }

  /** Hermes' reply for one root, or undefined when it refused or answered no JSON (logged). */
  private async fetchListing(instrument: InstrumentSymbol, root: string): Promise<unknown> {
    const { baseUrl, apiKey, log } = this.options;
    const url = new URL('v2/price_feeds', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    url.searchParams.set('query', root);
    url.searchParams.set('asset_type', 'commodities');
    const response = await (this.options.fetch ?? fetch)(url, {
      headers: {
        accept: 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(30_000)]),
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      log?.warn(
        { instrument, status: response.status, hasKey: Boolean(apiKey) },
        'pyth feed: Hermes refused the futures listing',
      );
      return undefined;
    }
    try {
      return await response.json();
    } catch {
      log?.warn({ instrument }, 'pyth feed: the futures listing is not JSON');
      return undefined;
    }
  }

  /** Operators hear, a week ahead, that a commodity will have no Pyth price after its roll. */
  private warnBeforeRunningOut(feeds: PythFeedMap): void {
    const nowMs = this.options.clock.now().getTime();
    const ending: InstrumentSymbol[] = [];
    for (const instrument of INSTRUMENT_SYMBOLS) {
      const spec = feeds[instrument];
      if (spec?.kind !== 'futures') continue;
      if (frontContract(spec, nowMs + LISTING_WARN_DAYS * DAY_MS) === null) ending.push(instrument);
    }
    if (ending.length > 0)
      this.options.log?.warn(
        { instruments: ending, rollDays: PYTH_FUTURES_ROLL_DAYS, withinDays: LISTING_WARN_DAYS },
        'pyth feed: no later futures month is known: these instruments have no Pyth price after their roll (docs/prices.md)',
      );
  }
}
