import { INSTRUMENT_SYMBOLS, type InstrumentSymbol } from '@tradewind/contract/market';

/**
 * Which Pyth price feed prices each instrument (decision 0024). Feed ids are Pyth's 32-byte
 * ids (hex, no 0x) as Hermes takes them in `ids[]`. Every id and contract date below is from
 * Pyth's own symbol list: pyth-network/pyth-crosschain, apps/developer-hub/data/
 * changelog-snapshots/2026-05-07.json at commit 9829121679e45f998a9f9353ba683f5faf00a8d2 (a
 * copy of https://pyth.dourolabs.app/v1/symbols), and the daily changelog diffs up to
 * 2026-07-24 (commit f961dbdc615c878506e816930b4a67b3505934f9), except WTIF7 and the natural
 * gas index, which are from Hermes's own feed list of 2026-09-11 (`/v2/price_feeds`) as public
 * repositories recorded it. The fixtures README lists the rows and where each came from.
 *
 * Pyth quotes the crypto pairs against USD, not USDT: `quote` says so, and the USDT/USD feed
 * is here for whoever converts. Pyth has no live spot feed for WTI or copper
 * (Commodities.USOILSPOT is inactive, Metal.XCU/USD "coming soon"): those instruments follow
 * the monthly futures Pyth publishes, rolled before each contract's last trading day. Natural
 * gas follows Pyth's 24/7 index.
 */
export interface PythSpotFeed {
  kind: 'spot';
  /** Pyth's symbol, e.g. `FX.EUR/USD`. */
  symbol: string;
  feedId: string;
  /** The currency Pyth quotes in when it differs from the instrument's. */
  quote?: 'USD';
}

export interface PythFuturesContract {
  symbol: string;
  feedId: string;
  /** The contract's last trading day (UTC date), as Pyth's description states it. */
  lastTradeDate: string;
}

export interface PythFuturesFeed {
  kind: 'futures';
  /** The contract code's root in Pyth's symbols: `WTI` in `Commodities.WTIF7/USD` (pyth/contracts.ts finds new months by it). */
  root: string;
  /** Months in order; the front contract is the first whose roll date has not passed. */
  contracts: readonly PythFuturesContract[];
}

export type PythFeedSpec = PythSpotFeed | PythFuturesFeed;

/** Instruments with no Pyth feed are absent (null): they need another source to be tradable. */
export type PythFeedMap = Readonly<Record<InstrumentSymbol, PythFeedSpec | null>>;

/** Moves to the next contract this many days before the front one's last trading day, while both still trade. */
export const PYTH_FUTURES_ROLL_DAYS = 3;

/** Crypto.USDT/USD: converts the USD-quoted crypto feeds to the USDT pairs, if an index wants to. */
export const PYTH_USDT_USD_FEED_ID =
  '2b89b9dc8fdf9f34709a5b106b472f0f39bb6ca9ce04b0fd7f2e971688e2e53b';

const spot = (symbol: string, feedId: string, quote?: 'USD'): PythSpotFeed =>
  quote ? { kind: 'spot', symbol, feedId, quote } : { kind: 'spot', symbol, feedId };

export const PYTH_FEEDS: PythFeedMap = {
  BTCUSDT: spot(
    'Crypto.BTC/USD',
    'e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43',
    'USD',
  ),
  ETHUSDT: spot(
    'Crypto.ETH/USD',
    'ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace',
    'USD',
  ),
  BNBUSDT: spot(
    'Crypto.BNB/USD',
    '2f95862b045670cd22bee3114c39763a4a08beeb663b145d283c31d7d1101c4f',
    'USD',
  ),
  SOLUSDT: spot(
    'Crypto.SOL/USD',
    'ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d',
    'USD',
  ),
  XRPUSDT: spot(
    'Crypto.XRP/USD',
    'ec5d399846a9209f3fe5881d70aae9268c94339ff9817e8d18ff19fa05eea1c8',
    'USD',
  ),
  DOGEUSDT: spot(
    'Crypto.DOGE/USD',
    'dcef50dd0a4cd2dcc17e45df1676dcb336a11a61c69df7a0299b0150c672d25c',
    'USD',
  ),
  TRXUSDT: spot(
    'Crypto.TRX/USD',
    '67aed5a24fdad045475e7195c98a98aea119c763f272d4523f5bac93a4f33c2b',
    'USD',
  ),
  LTCUSDT: spot(
    'Crypto.LTC/USD',
    '6e3f3fa8253588df9326580180233eb791e03b443a3ba7a1d892e73874e19a54',
    'USD',
  ),
  // Light sweet crude (CL), USD per barrel.
  WTIUSD: {
    kind: 'futures',
    root: 'WTI',
    contracts: [
      {
        symbol: 'Commodities.WTIM6/USD',
        feedId: '5519b89cd7b80d074113aae5d6555ddd74469222e331d9edc182c68153cf27b1',
        lastTradeDate: '2026-05-19',
      },
      {
        symbol: 'Commodities.WTIN6/USD',
        feedId: 'ce4c15100156d27c8bdd044d9804294e7bc0944dbb5b2b82a61a7aa85b6b3a5e',
        lastTradeDate: '2026-06-22',
      },
      {
        symbol: 'Commodities.WTIQ6/USD',
        feedId: '05e7c9b556df67e455c52ea2d31658744e3f4ade60db7dab887008844f2ae472',
        lastTradeDate: '2026-07-21',
      },
      {
        symbol: 'Commodities.WTIU6/USD',
        feedId: '17d0b3b03f9ccb6bb6721960f034b8601b3d89ef70743b33f86304a1565cebda',
        lastTradeDate: '2026-08-20',
      },
      {
        symbol: 'Commodities.WTIV6/USD',
        feedId: '9526e04755ebaed86733913b84fe14db4ea165da8f40f97710014cd877fe545b',
        lastTradeDate: '2026-09-22',
      },
      {
        symbol: 'Commodities.WTIX6/USD',
        feedId: 'f8c2191e76f7f4d5335e7f4e8f81ab0df6360d54ee020874222841894203e9d7',
        lastTradeDate: '2026-10-20',
      },
      {
        symbol: 'Commodities.WTIZ6/USD',
        feedId: '0a76185a3bd608f10216036ee37140112c1c296d4cba31c4e2822f44e8dc0433',
        lastTradeDate: '2026-11-20',
      },
      {
        symbol: 'Commodities.WTIF7/USD',
        feedId: '87f7b1af745a1a6affb67275f813c081a65a3ccd46729c6170284176b5077e9c',
        lastTradeDate: '2026-12-21',
      },
    ],
  },
  // Henry Hub natural gas, USD per MMBtu: Pyth's 24/7 index, which does not roll (its NGD*
  // monthly futures after August 2026 are listed on Pyth Pro only, without a Hermes id).
  NGASUSD: spot(
    'Commodities.Index.NATGAS/USD',
    '45f95717fbe158e896415d1cea33814d73e54169022a8f7bcbb815ebef92f71c',
  ),
  // COMEX high grade copper (HG), USD per pound.
  COPPERUSD: {
    kind: 'futures',
    root: 'CC',
    contracts: [
      {
        symbol: 'Commodities.CCK6/USD',
        feedId: 'd6a6755e89a16800a66dbc1a62356e5aaaba575c85fc4a86d787a84b5efe5fc4',
        lastTradeDate: '2026-05-27',
      },
      {
        symbol: 'Commodities.CCM6/USD',
        feedId: '4a41250a5924a6a3459aaa617c081ce57480f0bfa1be2cac993a43aced4b61cc',
        lastTradeDate: '2026-06-26',
      },
      {
        symbol: 'Commodities.CCN6/USD',
        feedId: '14ce75bc8f30f7332a2c49fdb8765df37d2480564cc64d280bc133f6830e1b53',
        lastTradeDate: '2026-07-29',
      },
      {
        symbol: 'Commodities.CCQ6/USD',
        feedId: '0ecbef2e191ed6ced916db4823a1d18528f93ebc82c91e05916f18c3e80c0af7',
        lastTradeDate: '2026-08-27',
      },
      {
        symbol: 'Commodities.CCU6/USD',
        feedId: 'e18f040343bc881281f3f210eafd20d0206e6a0d9ce572b94e71b118121c6416',
        lastTradeDate: '2026-09-28',
      },
      {
        symbol: 'Commodities.CCV6/USD',
        feedId: '2258398ffd584e54c5075d29e80cd8e5cf9e79c916f6498fef81b2c306833132',
        lastTradeDate: '2026-10-28',
      },
      {
        symbol: 'Commodities.CCX6/USD',
        feedId: '886d78227a4f4029aad70dc34856f935929899ba49e37d90db4e6780a4aaa570',
        lastTradeDate: '2026-11-25',
      },
      {
        symbol: 'Commodities.CCZ6/USD',
        feedId: 'b0608465d2f5e17fdd2097b9e32c76a31973d73971c0246a949599e8a2b4e414',
        lastTradeDate: '2026-12-29',
      },
    ],
  },
  EURUSD: spot('FX.EUR/USD', 'a995d00bb36a63cef7fd2c287dc105fc8f3d93779f062f09551b0af3e81ec30b'),
  GBPUSD: spot('FX.GBP/USD', '84c2dde9633d93d1bcad84e7dc41c9d56578b7ec52fabedc1f335d673df0a7c1'),
  USDJPY: spot('FX.USD/JPY', 'ef2c98c804ba503c6a707e38be4dfbb16683775f195b091252bf24693042fd52'),
  AUDUSD: spot('FX.AUD/USD', '67a6f93030420c1c9e3fe37c1ab6b77966af82f995944a9fefce357a22854a80'),
  XAUUSD: spot('Metal.XAU/USD', '765d2ba906dbc32ca17cc11f5310a89e9ee1f6420508c63861f2f8ba4ee34bb2'),
  XAGUSD: spot('Metal.XAG/USD', 'f2fb02c32b055c805e7238d628e5e9dadef274376114eb1f012337cabe93871e'),
};

/** The feed an instrument follows at an instant. */
export interface PythFeedAt {
  instrument: InstrumentSymbol;
  /** Pyth's symbol, e.g. `Commodities.WTIZ6/USD`. */
  pythSymbol: string;
  feedId: string;
}

const DAY_MS = 86_400_000;

/** The front futures contract at `atMs`, or null once every listed contract has rolled off. */
export function frontContract(
  feed: PythFuturesFeed,
  atMs: number,
  rollDays = PYTH_FUTURES_ROLL_DAYS,
): PythFuturesContract | null {
  for (const contract of feed.contracts) {
    const rollAtMs = Date.parse(`${contract.lastTradeDate}T00:00:00Z`) - rollDays * DAY_MS;
    if (atMs < rollAtMs) return contract;
  }
  return null;
}

/**
 * Every feed to subscribe to at `atMs`, keyed by feed id (lowercase hex). An instrument whose
 * futures list has run out is left out: it has no Pyth price until its next contracts are added.
 */
export function pythFeedsAt(
  atMs: number,
  feeds: PythFeedMap = PYTH_FEEDS,
): Map<string, PythFeedAt> {
  const out = new Map<string, PythFeedAt>();
  for (const instrument of INSTRUMENT_SYMBOLS) {
    const spec = feeds[instrument];
    if (!spec) continue;
    const chosen = spec.kind === 'spot' ? spec : frontContract(spec, atMs);
    if (chosen)
      out.set(chosen.feedId.toLowerCase(), {
        instrument,
        pythSymbol: chosen.symbol,
        feedId: chosen.feedId.toLowerCase(),
      });
  }
  return out;
}
