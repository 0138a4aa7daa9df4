import os from 'node:os';
import path from 'node:path';
import { DEFAULT_UPLOAD_MAX_BYTES } from '@tradewind/contract/files';
import { isInstrumentSymbol } from '@tradewind/contract/market';
import { parseAmount } from '@tradewind/contract/money';
import {
  type Product,
  SHARED_SETTING_NAMES,
  type SharedSettingName,
} from '@tradewind/contract/operator';
import { ASSETS, type AssetCode } from '@tradewind/contract/wallet';
import { WITHDRAWAL_ASSETS, type WithdrawalAsset } from '@tradewind/contract/withdrawal';
import { HDKey } from '@scure/bip32';
import { z } from 'zod';
import { DEFAULT_PIPELINE_POOL_SIZE, DEFAULT_POOL_SIZE } from './db.ts';
import type { S3Settings } from './storage/s3-file-store.ts';
import { type TrustProxy, parseTrustProxy } from './trust-proxy.ts';

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** An account-level extended public key (m/44'/195'/0', depth 3): addresses are derived below it. */
function isAccountXpub(value: string): boolean {
  try {
    const key = HDKey.fromExtendedKey(value);
    return key.depth === 3 && key.privateKey === null;
  } catch {
    return false;
  }
}

/** Withdrawals of more than this (per asset) need a second operator's approval. */
export const DEFAULT_WITHDRAWAL_SECOND_APPROVAL = 'USDT:10000,BTC:0.2,ETH:3';
/** Bonus codes whose total (amount × redemptions) is above this (per asset) need a second admin. */
export const DEFAULT_BONUS_CODE_APPROVAL_THRESHOLD = 'USDT:1000,BTC:0.02,ETH:0.3';

const positiveInt = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .positive('must be positive');

/** The most UPLOAD_MAX_BYTES may be: the multipart parser's own limit, under each request's. */
export const UPLOAD_BYTES_CAP = 64 * 1024 * 1024;

/**
 * Every setting the server reads, with its default. docs/configuration.md's table
 * lists the same names; `loadConfig` fails at boot with one readable line per bad value.
 */
const envSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  /** A worker's port for /api/health, /api/ready and /metrics (it serves no API). */
  WORKER_PORT: z.coerce.number({ error: 'must be a number' }).int().min(0).max(65535).default(3001),
  /** An all/api process's second port for /api/health, /api/ready and /metrics, with no token. */
  METRICS_PORT: z.coerce.number({ error: 'must be a number' }).int().min(0).max(65535).optional(),
  /** /metrics on PORT answers only with `Authorization: Bearer <token>`; unset, it is a 404 there. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Names this process in logs and in PostgreSQL's application_name; the host name by default. */
  NODE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,40}$/, 'must be letters, digits, ., _ or -, at most 40')
    .optional(),
  /** /api/ready fails on a settling process while an open order is this long past its delivery. */
  READY_MAX_SETTLEMENT_LAG_S: positiveInt.max(3600, 'must be at most 3600').default(30),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Unset: on for the embedded database (trying Tradewind), off with DATABASE_URL (loadConfig). */
  DEMO_MODE: flag.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  IMG_BASE_URL: z.string().min(1).default('/files'),
  WEB_DIST: z.string().min(1).default('apps/web/dist'),
  ADMIN_DIST: z.string().min(1).default('apps/admin/dist'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  SMTP_FROM: z.string().min(3).default('Tradewind <no-reply@tradewind.local>'),
  SMS_WEBHOOK_URL: z.url({ error: 'must be a URL' }).optional(),
  SESSION_TTL_DAYS: positiveInt.max(365).default(30),
  BODY_LIMIT_BYTES: positiveInt.default(1_048_576),
  RATE_LIMIT_ENABLED: flag.default(true),
  RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (parsed.ok) return parsed.value;
      ctx.issues.push({ code: 'custom', message: parsed.problem, input: value });
      return z.NEVER;
    }),
  /** Unset: events between processes go over PostgreSQL LISTEN/NOTIFY (or stay in the one process). */
  NATS_URL: z
    .string()
    .regex(
      /^(nats|tls):\/\/[^\s,]+(,\s*(nats|tls):\/\/[^\s,]+)*$/,
      'must be a nats:// URL, or several separated by commas',
    )
    .optional(),
  /** Starts every NATS subject: installations that share a NATS server each take their own. */
  NATS_SUBJECT_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be letters, digits, _ or -, at most 40')
    .default('tradewind'),
  /** Unset: rate-limit counters live in each process's memory (one node). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL')
    .optional(),
  /** Starts every Redis key: installations that share a Redis server each take their own. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be letters, digits, _ or -, at most 40')
    .default('tradewind'),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  /** After SIGTERM the node answers 503 on /api/ready and keeps serving this long (platform/shutdown.ts). */
  DRAIN_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(600_000, 'must be at most 600000 (10 minutes)')
    .default(5_000),
  /** PostgreSQL connections of this process's main pool (docs/operations.md#database-connections). */
  DB_POOL_MAX: positiveInt.max(1000, 'must be at most 1000').default(DEFAULT_POOL_SIZE),
  /** PostgreSQL connections for pipelined transactions (the order batches), beside the main pool. */
  DB_PIPELINE_POOL_MAX: positiveInt
    .max(100, 'must be at most 100')
    .default(DEFAULT_PIPELINE_POOL_SIZE),
  /** Apply pending migrations at start; a cluster sets false and runs `npm run migrate` before rolling. */
  MIGRATE_ON_START: flag.default(true),
  WS_MAX_PER_ADDRESS: positiveInt.max(100_000, 'must be at most 100000').default(50),
  WS_MAX_MESSAGES_PER_SECOND: positiveInt.max(10_000, 'must be at most 10000').default(20),
  WS_MAX_SUBSCRIPTIONS: positiveInt.max(1000, 'must be at most 1000').default(50),
  WS_MAX_NEW_PER_MINUTE: positiveInt.max(1_000_000, 'must be at most 1000000').default(120),
  DEPOSIT_CHAIN: z.enum(['simulated', 'tron']).optional(),
  TRON_XPUB: z
    .string()
    .trim()
    .refine(
      isAccountXpub,
      "must be the account-level extended public key (xpub… at m/44'/195'/0'), never a private key",
    )
    .optional(),
  TRON_API_URL: z.url({ error: 'must be a URL' }).default('https://api.trongrid.io'),
  TRON_API_KEY: z.string().min(1).optional(),
  DEPOSIT_MIN_USDT: z
    .string()
    .refine(
      (value) => (parseAmount(value, 6) ?? 0n) > 0n,
      'must be a positive USDT amount with at most 6 decimals',
    )
    .default('1'),
  DEPOSIT_WATCH_INTERVAL_MS: positiveInt.min(200, 'must be at least 200').default(3000),
  UPLOAD_MAX_BYTES: positiveInt
    .max(UPLOAD_BYTES_CAP, 'must be at most 64 MiB')
    .default(DEFAULT_UPLOAD_MAX_BYTES),
  UPLOAD_MAX_SIDE_PX: positiveInt
    .min(256, 'must be at least 256')
    .max(8192, 'must be at most 8192')
    .default(3000),
  /** Uploads in an S3-compatible bucket (s3Config): all of bucket and keys, or none of S3_*. */
  S3_ENDPOINT: z
    .url({
      protocol: /^https?$/,
      error: 'must be an http:// or https:// URL, e.g. https://minio.internal:9000',
    })
    .optional(),
  S3_REGION: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{1,32}$/, 'must be a region name such as us-east-1 (or auto for R2)')
    .optional(),
  S3_BUCKET: z
    .string()
    .trim()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be a bucket name: 3–63 lowercase letters, digits, dots and hyphens',
    )
    .optional(),
  S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  S3_FORCE_PATH_STYLE: flag.optional(),
  CARD_PAYEE_BANK: z.string().trim().min(1).max(100).optional(),
  CARD_PAYEE_NUMBER: z.string().trim().min(1).max(64).optional(),
  CARD_PAYEE_NAME: z.string().trim().min(1).max(100).optional(),
  CARD_PAYEE_PHONE: z.string().trim().min(1).max(32).optional(),
  CARD_DEPOSIT_FEE_BPS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0)
    .max(5000, 'must be at most 5000 (50%)')
    .default(0),
  CARD_DEPOSIT_MIN_USDT: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,6})?$/, 'must be a USDT amount such as 10 or 0.5')
    .default('10'),
  CARD_DEPOSIT_MAX_USDT: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,6})?$/, 'must be a USDT amount such as 100000')
    .default('100000'),
  /** Kept for older settings: `binance` means MARKET_SOURCES=binance, `simulated` means none (demo only). */
  MARKET_FEED: z.enum(['simulated', 'binance']).optional(),
  /** The real price sources, comma-separated (binance, pyth); unset: none in demo mode, both otherwise. */
  MARKET_SOURCES: z
    .string()
    .trim()
    .regex(
      /^((binance|pyth)(\s*,\s*(binance|pyth))*)?$/,
      'must be a comma-separated list of binance and pyth, e.g. binance,pyth',
    )
    .optional(),
  PYTH_HERMES_URL: z
    .url({
      protocol: /^https?$/,
      error: 'must be an http:// or https:// URL, e.g. https://hermes.pyth.network',
    })
    .default('https://hermes.pyth.network'),
  PYTH_API_KEY: z.string().trim().min(1).optional(),
  /** Pyth's History API with its channel; `/history` is appended (issue 32's real market history). */
  PYTH_HISTORY_URL: z
    .url({
      protocol: /^https?$/,
      error:
        'must be an http:// or https:// URL, e.g. https://pyth.dourolabs.app/v1/fixed_rate@200ms',
    })
    .default('https://pyth.dourolabs.app/v1/fixed_rate@200ms'),
  /** Binance's REST API for market data; `/api/v3/klines` is appended. */
  BINANCE_REST_URL: z
    .url({
      protocol: /^https?$/,
      error: 'must be an http:// or https:// URL, e.g. https://data-api.binance.vision',
    })
    .default('https://data-api.binance.vision'),
  /** Days of one-minute history read from each real source's history API at first start (0: none). */
  MARKET_HISTORY_DAYS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(90, 'must be at most 90')
    .default(30),
  /**
   * Pyth feed ids that replace the built-in ones (market/pyth/feed-ids.ts), comma-separated
   * SYMBOL=id pairs: e.g. a commodity's next futures contract once the listed ones rolled off.
   */
  PYTH_FEED_IDS: z
    .string()
    .trim()
    .regex(
      /^([A-Z]{3,12}=(0x)?[0-9a-fA-F]{64})(\s*,\s*[A-Z]{3,12}=(0x)?[0-9a-fA-F]{64})*$/,
      'must be SYMBOL=feed id pairs, comma-separated, e.g. WTIUSD=0x…(64 hex digits)',
    )
    .optional(),
  /** A source quote further than this from the other sources (or alone, its own last minute) is quarantined. */
  MARKET_QUARANTINE_BAND_PPM: positiveInt
    .max(500_000, 'must be at most 500000 (50%)')
    .default(10_000),
  MARKET_FEED_URL: z
    .string()
    .regex(
      /^wss?:\/\/[^\s?#]+$/,
      'must be a ws:// or wss:// URL without a query, e.g. wss://stream.binance.com:9443/stream',
    )
    .default('wss://stream.binance.com:9443/stream'),
  /** Unset: 3 days on the embedded PGlite, 30 on PostgreSQL (`tickRetentionDefault`). */
  TICK_RETENTION_DAYS: positiveInt.max(36_500).optional(),
  /** Demo mode: days of simulated one-minute history written at first start (0: none). */
  DEMO_HISTORY_DAYS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(90, 'must be at most 90')
    .default(30),
  CONVERT_FEE_BPS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(1000, 'must be at most 1000')
    .default(20),
  CONTRACT_MAX_OPEN_ORDERS: positiveInt.max(1000, 'must be at most 1000').default(20),
  MINING_DAY_SECONDS: positiveInt.max(86_400, 'must be at most 86400').default(86_400),
  MINING_AUTO_APPROVE: flag.default(false),
  /** Product switches (issue 32): off, the product refuses new actions; what users hold still settles. */
  PRODUCT_LOANS_ENABLED: flag.default(true),
  PRODUCT_MINING_ENABLED: flag.default(true),
  PRODUCT_IEO_ENABLED: flag.default(true),
  PRODUCT_SHOP_ENABLED: flag.default(true),
  KYC_AUTO_APPROVE: flag.default(false),
  WITHDRAWAL_SECOND_APPROVAL: z.string().trim().default(DEFAULT_WITHDRAWAL_SECOND_APPROVAL),
  BONUS_CODE_APPROVAL_THRESHOLD: z.string().trim().default(DEFAULT_BONUS_CODE_APPROVAL_THRESHOLD),
  CHAT_SCRIPT_URL: z
    .url({
      protocol: /^https?$/,
      error: 'must be an http:// or https:// URL, e.g. https://chat.example.com/packs/js/sdk.js',
    })
    .optional(),
  CHAT_SITE_TOKEN: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be the website token (letters, digits, - and _)')
    .optional(),
  CHAT_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
});

/** Never repeated in an error line: a private key pasted into TRON_XPUB by mistake must not reach a log. */
const NEVER_ECHOED = new Set([
  'TRON_XPUB',
  'TRON_API_KEY',
  'PYTH_API_KEY',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'METRICS_TOKEN',
]);

/** Shown to administrators only as "set": keys and tokens. URLs are shown without their credentials, path or query. */
const SECRET_SETTINGS = new Set([...NEVER_ECHOED, 'CHAT_SITE_TOKEN']);
const URL_SETTINGS = new Set([
  'DATABASE_URL',
  'NATS_URL',
  'REDIS_URL',
  'SMTP_URL',
  'SMS_WEBHOOK_URL',
]);

/** One environment setting as the operator console shows it (read-only: settings change with a deployment). */
export interface SettingView {
  name: string;
  value: string | null;
  fromEnv: boolean;
  secret: boolean;
}

function redact(name: string, value: string): string {
  if (SECRET_SETTINGS.has(name)) return '••••••';
  if (!URL_SETTINGS.has(name)) return value;
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.username || url.password ? '••••@' : ''}${url.host}${url.pathname !== '/' && name === 'DATABASE_URL' ? url.pathname : ''}`;
  } catch {
    return '••••••';
  }
}

/** Every setting's effective value (set or default), with keys, tokens and credentials hidden. */
function describeSettings(present: Record<string, string | undefined>): SettingView[] {
  const defaults = {
    ...envSchema.parse({}),
    DEMO_MODE: present.DATABASE_URL === undefined,
    TICK_RETENTION_DAYS: tickRetentionDefault(present.DATABASE_URL),
  } as Record<string, unknown>;
  return Object.keys(envSchema.shape)
    .sort()
    .map((name) => {
      const given = present[name];
      const fallback = defaults[name];
      const raw = given ?? (fallback === undefined ? null : String(fallback));
      return {
        name,
        value: raw === null ? null : redact(name, raw),
        fromEnv: given !== undefined,
        secret: SECRET_SETTINGS.has(name),
      };
    });
}

export type Env = z.input<typeof envSchema>;

/** A host name as NODE_NAME's rule allows it (a container's id, a short host name). */
function nodeNameOf(hostname: string): string {
  return hostname.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 40) || 'node';
}

/** What a process's database connections call themselves in pg_stat_activity. */
export function applicationName(config: Pick<Config, 'role' | 'nodeName'>): string {
  return `tradewind-${config.role}-${config.nodeName}`;
}

export interface Config {
  port: number;
  host: string;
  role: 'all' | 'api' | 'worker';
  /** This process in logs and in each database connection's application_name. */
  nodeName: string;
  /** A worker's ops port (health, readiness, metrics). */
  workerPort: number;
  /** Metrics: the ops port of an all/api process (none: not served apart), the bearer token on PORT. */
  metrics: { port: number | undefined; token: string | undefined };
  /** The settlement lag (s) beyond which a settling process is not ready. */
  readyMaxSettlementLagS: number;
  databaseUrl: string | undefined;
  dataDir: string;
  demoMode: boolean;
  logLevel: string;
  imgBaseUrl: string;
  webDist: string;
  /** The operator console's build, served under /admin. */
  adminDist: string;
  /** What administrators see on the console's settings page. */
  settings: SettingView[];
  smtpUrl: string | undefined;
  smtpFrom: string;
  smsWebhookUrl: string | undefined;
  sessionTtlMs: number;
  bodyLimitBytes: number;
  rateLimit: { enabled: boolean; perMinute: number };
  /** Which proxies' X-Forwarded-For is believed: none, a hop count, or their addresses/CIDRs. */
  trustProxy: TrustProxy;
  /** Cross-process events over NATS subjects (under `prefix`); undefined: LISTEN/NOTIFY on PostgreSQL. */
  nats: { url: string; prefix: string } | undefined;
  /** Shared rate-limit counters in Redis (keys under `prefix`); undefined: in each process's memory. */
  redis: { url: string; prefix: string } | undefined;
  shutdownTimeoutMs: number;
  /** How long a node keeps serving, no longer ready, between SIGTERM and closing its listener. */
  drainMs: number;
  /** PostgreSQL connections: the main pool's and the pipelined transactions' most. */
  db: { poolMax: number; pipelinePoolMax: number };
  /** Apply pending migrations at start; false: refuse to start while any is pending. */
  migrateOnStart: boolean;
  /** WebSocket limits: open and new-a-minute sockets per client address; inbound messages a second (also the burst) and channels, per socket. */
  ws: {
    maxPerAddress: number;
    maxNewPerMinute: number;
    maxMessagesPerSecond: number;
    maxSubscriptions: number;
  };
  deposit: DepositConfig;
  /** The bucket uploads are kept in; null: the local folder `DATA_DIR/uploads`. */
  s3: S3Settings | null;
  cardDeposit: CardDepositConfig;
  /**
   * The install-wide settings this process's environment names (their text as given). They
   * only seed the database on an install's first start; every node then reads the database's
   * values (modules/settings), so no node applies a value the others do not.
   */
  sharedSeed: Partial<Record<SharedSettingName, string>>;
  /** The length of a mining day: a real day, shorter only in demo mode (to watch payouts arrive). */
  miningDayMs: number;
  /** Demo mode only: an identity submission is approved at once instead of waiting for an operator's review. */
  kycAutoApprove: boolean;
  market: MarketConfig;
  /** Customer-service chat widget (e.g. a self-hosted Chatwoot); null means off: no script, no request. */
  chat: ChatConfig | null;
  version: string;
}

export interface ChatConfig {
  /** The widget's loader script, e.g. https://chat.example.com/packs/js/sdk.js. */
  scriptUrl: string;
  /** The inbox's website token. */
  siteToken: string;
  /** Where the widget's frame and API live; the script's origin unless CHAT_BASE_URL says otherwise. */
  baseUrl: string;
}

/**
 * Raw ticks kept by default. Every instrument is recorded every second, about 1.5 million
 * ticks a day: a month of them is several GB, more than a laptop's demo should hold, so the
 * embedded database keeps three days (docs/retention.md). PostgreSQL keeps a month. Candles
 * are kept either way.
 */
export function tickRetentionDefault(databaseUrl: string | undefined): number {
  return databaseUrl === undefined ? 3 : 30;
}

/** The real price sources an installation can use (docs/prices.md). */
export const REAL_PRICE_SOURCES = ['binance', 'pyth'] as const;
export type RealPriceSource = (typeof REAL_PRICE_SOURCES)[number];

/** MARKET_SOURCES as a list; unset, MARKET_FEED's older meaning, else none in demo mode and all otherwise. */
function marketSources(
  list: string | undefined,
  feed: 'simulated' | 'binance' | undefined,
  demoMode: boolean,
): RealPriceSource[] {
  if (list !== undefined)
    return REAL_PRICE_SOURCES.filter((source) =>
      list.split(',').some((item) => item.trim() === source),
    );
  if (feed !== undefined) return feed === 'binance' ? ['binance'] : [];
  return demoMode ? [] : [...REAL_PRICE_SOURCES];
}

/** PYTH_FEED_IDS as symbol → lowercase feed id; a symbol that is not an instrument is refused. */
function pythFeedIds(list: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of list?.split(',') ?? []) {
    const [symbol = '', id = ''] = pair.trim().split('=');
    if (!isInstrumentSymbol(symbol))
      throw new ConfigError([`PYTH_FEED_IDS: ${symbol} is not an instrument`]);
    out[symbol] = id.replace(/^0x/, '').toLowerCase();
  }
  return out;
}

export interface MarketConfig {
  /** The real sources recorded; an instrument none of them covers is priced by the demo walk (demo mode) or not at all. */
  sources: RealPriceSource[];
  /** Whether the demo walk prices the instruments no real source covers: demo mode only. */
  simulated: boolean;
  /** Binance's combined-stream endpoint; `?streams=…` is appended. */
  feedUrl: string;
  /** Pyth's Hermes service, and its API key (PYTH_API_KEY) if it asks for one. */
  pythUrl: string;
  pythApiKey?: string;
  /** Feed ids that replace the built-in ones, by instrument (PYTH_FEED_IDS). */
  pythFeedIds: Record<string, string>;
  /** Raw ticks older than this are pruned (unless an order or quote refers to them); candles are kept. */
  tickRetentionDays: number;
  /** Demo mode: days of simulated history written before the first recorded minute (DEMO_HISTORY_DAYS). */
  demoHistoryDays: number;
  /** Days of real history read from the sources' history APIs before the first recorded minute (MARKET_HISTORY_DAYS). */
  historyDays: number;
  /** Binance's REST API (BINANCE_REST_URL) and Pyth's History API with its channel (PYTH_HISTORY_URL). */
  binanceRestUrl: string;
  pythHistoryUrl: string;
}

export interface DepositConfig {
  /** Where incoming transfers are read: the simulated chain (demo mode only) or a TRON HTTP API. */
  chain: 'simulated' | 'tron';
  /** The configured account xpub; unset means the demo key in demo mode, otherwise no crypto deposits. */
  tronXpub: string | undefined;
  tronApiUrl: string;
  tronApiKey: string | undefined;
  /** Smaller transfers are rejected, never credited. */
  minDepositMinor: bigint;
  watchIntervalMs: number;
}

export interface CardPayee {
  bank: string;
  cardNumber: string;
  name: string;
  phone: string;
}

/** Bank-card deposits: available when a payee is configured, or in demo mode with a fake one. */
export interface CardDepositConfig {
  payee: CardPayee | null;
  /** The payee is the built-in fake one (demo mode without CARD_PAYEE_*). */
  demoPayee: boolean;
}

/** Clearly not a real account: shown only in demo mode when no CARD_PAYEE_* is set. */
export const DEMO_CARD_PAYEE: CardPayee = {
  bank: 'Demo Bank (not a real bank)',
  cardNumber: '0000 0000 0000 0000',
  name: 'DEMO PAYEE - DO NOT PAY',
  phone: '+1 555 0100',
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The install-wide settings, parsed: what every node applies (modules/settings reads them). */
export interface SharedSettingValues {
  /** Instant contracts: the most open orders one user may hold at once. */
  contractMaxOpenOrders: number;
  /** Conversion fee in basis points of the USDT side (20 = 0.2 %). */
  convertFeeBps: number;
  /** Demo mode only: rentals start at once instead of waiting for an operator's review. */
  miningAutoApprove: boolean;
  /**
   * Per withdrawal asset, in minor units: a withdrawal whose amount is above this needs a
   * second approval by another operator before it goes to processing.
   */
  withdrawalSecondApprovalMinor: Record<WithdrawalAsset, bigint>;
  /**
   * Per asset, in minor units: a bonus code whose total (amount × max redemptions) is above
   * this waits for a second admin's approval. An asset not listed has 0: every code needs one.
   */
  bonusCodeApprovalThresholdMinor: Partial<Record<AssetCode, bigint>>;
  /** Bank-card deposits: the fee (basis points) and the smallest and largest amount, USDT minor units. */
  cardDeposit: { feeBps: number; minMinor: bigint; maxMinor: bigint };
  /** A source quote further than this from its reference is quarantined (parts per million). */
  quarantineBandPpm: number;
  /** An upload's most bytes, and the longest side (px) an image is stored at. */
  uploads: { maxBytes: number; maxSidePx: number };
  /** Which products take new actions (the PRODUCT_*_ENABLED switches). */
  products: Record<Product, boolean>;
}

const sharedSchema = z.object({
  CONTRACT_MAX_OPEN_ORDERS: envSchema.shape.CONTRACT_MAX_OPEN_ORDERS,
  CONVERT_FEE_BPS: envSchema.shape.CONVERT_FEE_BPS,
  MINING_AUTO_APPROVE: envSchema.shape.MINING_AUTO_APPROVE,
  WITHDRAWAL_SECOND_APPROVAL: envSchema.shape.WITHDRAWAL_SECOND_APPROVAL,
  BONUS_CODE_APPROVAL_THRESHOLD: envSchema.shape.BONUS_CODE_APPROVAL_THRESHOLD,
  CARD_DEPOSIT_FEE_BPS: envSchema.shape.CARD_DEPOSIT_FEE_BPS,
  CARD_DEPOSIT_MIN_USDT: envSchema.shape.CARD_DEPOSIT_MIN_USDT,
  CARD_DEPOSIT_MAX_USDT: envSchema.shape.CARD_DEPOSIT_MAX_USDT,
  MARKET_QUARANTINE_BAND_PPM: envSchema.shape.MARKET_QUARANTINE_BAND_PPM,
  UPLOAD_MAX_BYTES: envSchema.shape.UPLOAD_MAX_BYTES,
  UPLOAD_MAX_SIDE_PX: envSchema.shape.UPLOAD_MAX_SIDE_PX,
  PRODUCT_LOANS_ENABLED: envSchema.shape.PRODUCT_LOANS_ENABLED,
  PRODUCT_MINING_ENABLED: envSchema.shape.PRODUCT_MINING_ENABLED,
  PRODUCT_IEO_ENABLED: envSchema.shape.PRODUCT_IEO_ENABLED,
  PRODUCT_SHOP_ENABLED: envSchema.shape.PRODUCT_SHOP_ENABLED,
});

/**
 * The shared settings from their texts (a name left out takes its default), with the rules
 * the environment has. Throws ConfigError naming what is wrong.
 */
export function parseSharedSettings(
  values: Partial<Record<SharedSettingName, string>>,
): SharedSettingValues {
  const parsed = sharedSchema.safeParse(values);
  if (!parsed.success)
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  const e = parsed.data;
  const limits = cardDepositLimits(e.CARD_DEPOSIT_MIN_USDT, e.CARD_DEPOSIT_MAX_USDT);
  if (limits.problems.length > 0) throw new ConfigError(limits.problems);
  return {
    cardDeposit: {
      feeBps: e.CARD_DEPOSIT_FEE_BPS,
      minMinor: limits.minMinor,
      maxMinor: limits.maxMinor,
    },
    quarantineBandPpm: e.MARKET_QUARANTINE_BAND_PPM,
    uploads: { maxBytes: e.UPLOAD_MAX_BYTES, maxSidePx: e.UPLOAD_MAX_SIDE_PX },
    contractMaxOpenOrders: e.CONTRACT_MAX_OPEN_ORDERS,
    convertFeeBps: e.CONVERT_FEE_BPS,
    miningAutoApprove: e.MINING_AUTO_APPROVE,
    withdrawalSecondApprovalMinor: secondApprovalThresholds(e.WITHDRAWAL_SECOND_APPROVAL),
    bonusCodeApprovalThresholdMinor: bonusCodeApprovalThresholds(e.BONUS_CODE_APPROVAL_THRESHOLD),
    products: {
      loans: e.PRODUCT_LOANS_ENABLED,
      mining: e.PRODUCT_MINING_ENABLED,
      ieo: e.PRODUCT_IEO_ENABLED,
      shop: e.PRODUCT_SHOP_ENABLED,
    },
  };
}

/** A shared setting's default, as its environment variable would spell it. */
export function sharedSettingDefault(name: SharedSettingName): string {
  const value = sharedSchema.shape[name].parse(undefined);
  return String(value);
}

/** Reads the environment (empty strings count as unset). Throws ConfigError listing every bad value. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        const got = NEVER_ECHOED.has(name)
          ? 'a value that is not shown'
          : JSON.stringify(present[name] ?? null);
        return `${issue.path.join('.') || 'environment'}: ${issue.message} (got ${got})`;
      }),
    );
  }
  // Demo mode publishes verification codes and credits made-up deposits: it is the default only
  // where nobody's money can be, the embedded database; on PostgreSQL it must be asked for.
  const e = {
    ...parsed.data,
    DEMO_MODE: parsed.data.DEMO_MODE ?? parsed.data.DATABASE_URL === undefined,
  };
  const chain = e.DEPOSIT_CHAIN ?? (e.DEMO_MODE ? 'simulated' : 'tron');
  // A simulated chain credits transfers nobody made: it must never run where money is real.
  if (chain === 'simulated' && !e.DEMO_MODE) {
    throw new ConfigError([
      'DEPOSIT_CHAIN: the simulated chain exists only in demo mode (got "simulated" with DEMO_MODE=false)',
    ]);
  }
  const sources = marketSources(e.MARKET_SOURCES, e.MARKET_FEED, e.DEMO_MODE);
  // Contracts settle on recorded prices: a made-up price must never settle real money.
  if (sources.length === 0 && !e.DEMO_MODE) {
    throw new ConfigError([
      e.MARKET_FEED === 'simulated'
        ? 'MARKET_FEED: the simulated feed exists only in demo mode (got "simulated" with DEMO_MODE=false)'
        : 'MARKET_SOURCES: outside demo mode at least one real price source is needed (binance, pyth)',
    ]);
  }
  // A shorter day pays a rental's yield sooner than its terms say: a demonstration, never real money.
  if (e.MINING_DAY_SECONDS !== 86_400 && !e.DEMO_MODE) {
    throw new ConfigError([
      `MINING_DAY_SECONDS: a mining day is 86400 seconds outside demo mode (got ${e.MINING_DAY_SECONDS} with DEMO_MODE=false)`,
    ]);
  }
  // Review is how an operator vets a rental; skipping it is for a demo with nobody to review.
  if (e.MINING_AUTO_APPROVE && !e.DEMO_MODE) {
    throw new ConfigError([
      'MINING_AUTO_APPROVE: rentals skip review only in demo mode (got true with DEMO_MODE=false)',
    ]);
  }
  // KYC review is what lets a person trade and withdraw; skipping it is for a demo, never for real money.
  if (e.KYC_AUTO_APPROVE && !e.DEMO_MODE) {
    throw new ConfigError([
      'KYC_AUTO_APPROVE: identity verification skips review only in demo mode (got true with DEMO_MODE=false)',
    ]);
  }
  const cardDeposit = cardDepositConfig(e);
  const chat = chatConfig(e);
  // Checked here too, so a bad seed stops the boot with the other bad values.
  secondApprovalThresholds(e.WITHDRAWAL_SECOND_APPROVAL);
  bonusCodeApprovalThresholds(e.BONUS_CODE_APPROVAL_THRESHOLD);
  return {
    port: e.PORT,
    host: e.HOST,
    role: e.ROLE,
    nodeName: e.NODE_NAME ?? nodeNameOf(os.hostname()),
    workerPort: e.WORKER_PORT,
    metrics: { port: e.METRICS_PORT, token: e.METRICS_TOKEN },
    readyMaxSettlementLagS: e.READY_MAX_SETTLEMENT_LAG_S,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    demoMode: e.DEMO_MODE,
    logLevel: e.LOG_LEVEL,
    imgBaseUrl: e.IMG_BASE_URL.replace(/\/+$/, ''),
    webDist: path.resolve(e.WEB_DIST),
    adminDist: path.resolve(e.ADMIN_DIST),
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    smsWebhookUrl: e.SMS_WEBHOOK_URL,
    sessionTtlMs: e.SESSION_TTL_DAYS * 86_400_000,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    rateLimit: { enabled: e.RATE_LIMIT_ENABLED, perMinute: e.RATE_LIMIT_PER_MINUTE },
    trustProxy: e.TRUST_PROXY,
    nats: e.NATS_URL ? { url: e.NATS_URL, prefix: e.NATS_SUBJECT_PREFIX } : undefined,
    redis: e.REDIS_URL ? { url: e.REDIS_URL, prefix: e.REDIS_KEY_PREFIX } : undefined,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    drainMs: e.DRAIN_MS,
    db: { poolMax: e.DB_POOL_MAX, pipelinePoolMax: e.DB_PIPELINE_POOL_MAX },
    migrateOnStart: e.MIGRATE_ON_START,
    ws: {
      maxPerAddress: e.WS_MAX_PER_ADDRESS,
      maxNewPerMinute: e.WS_MAX_NEW_PER_MINUTE,
      maxMessagesPerSecond: e.WS_MAX_MESSAGES_PER_SECOND,
      maxSubscriptions: e.WS_MAX_SUBSCRIPTIONS,
    },
    deposit: {
      chain,
      tronXpub: e.TRON_XPUB,
      tronApiUrl: e.TRON_API_URL.replace(/\/+$/, ''),
      tronApiKey: e.TRON_API_KEY,
      minDepositMinor: parseAmount(e.DEPOSIT_MIN_USDT, 6) as bigint,
      watchIntervalMs: e.DEPOSIT_WATCH_INTERVAL_MS,
    },
    s3: s3Config(e),
    cardDeposit,
    sharedSeed: Object.fromEntries(
      SHARED_SETTING_NAMES.filter((name) => present[name] !== undefined).map((name) => [
        name,
        String(present[name]).trim(),
      ]),
    ),
    miningDayMs: e.MINING_DAY_SECONDS * 1000,
    kycAutoApprove: e.KYC_AUTO_APPROVE,
    market: {
      sources,
      simulated: e.DEMO_MODE,
      feedUrl: e.MARKET_FEED_URL,
      pythUrl: e.PYTH_HERMES_URL,
      ...(e.PYTH_API_KEY ? { pythApiKey: e.PYTH_API_KEY } : {}),
      pythFeedIds: pythFeedIds(e.PYTH_FEED_IDS),
      tickRetentionDays: e.TICK_RETENTION_DAYS ?? tickRetentionDefault(e.DATABASE_URL),
      demoHistoryDays: e.DEMO_MODE ? e.DEMO_HISTORY_DAYS : 0,
      historyDays: e.MARKET_HISTORY_DAYS,
      binanceRestUrl: e.BINANCE_REST_URL,
      pythHistoryUrl: e.PYTH_HISTORY_URL,
    },
    chat,
    settings: describeSettings(present),
    version: process.env.npm_package_version ?? '0.1.0',
  };
}

/**
 * `USDT:10000,BTC:0.2,ETH:3`: every withdrawal asset exactly once, each a positive amount
 * within the asset's decimals. An asset left out would silently need one approval only,
 * so it is refused rather than defaulted.
 */
export function secondApprovalThresholds(text: string): Record<WithdrawalAsset, bigint> {
  const name = 'WITHDRAWAL_SECOND_APPROVAL';
  const example = `e.g. ${DEFAULT_WITHDRAWAL_SECOND_APPROVAL}`;
  const problems: string[] = [];
  const found = new Map<WithdrawalAsset, bigint>();
  for (const part of text.split(',').map((p) => p.trim())) {
    const match = /^([A-Za-z]+):(\S+)$/.exec(part);
    if (!match?.[1] || !match[2]) {
      problems.push(`${name}: "${part}" is not ASSET:AMOUNT (${example})`);
      continue;
    }
    const asset = match[1].toUpperCase() as WithdrawalAsset;
    if (!WITHDRAWAL_ASSETS.includes(asset)) {
      problems.push(
        `${name}: ${match[1]} is not a withdrawal asset (${WITHDRAWAL_ASSETS.join(', ')})`,
      );
      continue;
    }
    if (found.has(asset)) {
      problems.push(`${name}: ${asset} is listed twice`);
      continue;
    }
    const amount = parseAmount(match[2], ASSETS[asset].scale);
    if (amount === undefined || amount <= 0n) {
      problems.push(
        `${name}: ${asset} needs a positive amount with at most ${ASSETS[asset].scale} decimals (got ${JSON.stringify(match[2])})`,
      );
      continue;
    }
    found.set(asset, amount);
  }
  const missing = WITHDRAWAL_ASSETS.filter((asset) => !found.has(asset));
  if (problems.length === 0 && missing.length > 0)
    problems.push(
      `${name}: give a threshold for every withdrawal asset; missing ${missing.join(', ')} (${example})`,
    );
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.fromEntries(found) as Record<WithdrawalAsset, bigint>;
}

/**
 * `USDT:1000,BTC:0.02`: each asset at most once, a positive amount within its decimals. An
 * asset left out is not an error: its codes all need a second admin (the safe side).
 */
export function bonusCodeApprovalThresholds(text: string): Partial<Record<AssetCode, bigint>> {
  const name = 'BONUS_CODE_APPROVAL_THRESHOLD';
  const problems: string[] = [];
  const found = new Map<AssetCode, bigint>();
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const match = /^([A-Za-z]+):(\S+)$/.exec(part);
    const asset = match?.[1]?.toUpperCase() as AssetCode | undefined;
    if (!match?.[2] || !asset) {
      problems.push(
        `${name}: "${part}" is not ASSET:AMOUNT (e.g. ${DEFAULT_BONUS_CODE_APPROVAL_THRESHOLD})`,
      );
      continue;
    }
    if (!(asset in ASSETS)) {
      problems.push(`${name}: ${match[1]} is not an asset (${Object.keys(ASSETS).join(', ')})`);
      continue;
    }
    const amount = parseAmount(match[2], ASSETS[asset].scale);
    if (found.has(asset)) problems.push(`${name}: ${asset} is listed twice`);
    else if (amount === undefined || amount <= 0n)
      problems.push(
        `${name}: ${asset} needs a positive amount with at most ${ASSETS[asset].scale} decimals (got ${JSON.stringify(match[2])})`,
      );
    else found.set(asset, amount);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.fromEntries(found);
}

/**
 * S3_BUCKET with both keys turns the bucket on; none of S3_* leaves uploads on local disk.
 * Anything in between is refused: half a configuration would write uploads to one node's
 * disk while the operator believes they are shared.
 */
export function s3Config(e: z.output<typeof envSchema>): S3Settings | null {
  const required = {
    S3_BUCKET: e.S3_BUCKET,
    S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY,
  };
  const optional = [e.S3_ENDPOINT, e.S3_REGION, e.S3_FORCE_PATH_STYLE];
  const missing = Object.entries(required)
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  const anySet =
    missing.length < Object.keys(required).length || optional.some((v) => v !== undefined);
  if (!anySet) return null;
  if (missing.length > 0)
    throw new ConfigError([
      `S3_*: object storage needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY; missing ${missing.join(', ')} (unset every S3_* to keep uploads on local disk)`,
    ]);
  return {
    endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
    region: e.S3_REGION ?? 'us-east-1',
    bucket: e.S3_BUCKET as string,
    accessKeyId: e.S3_ACCESS_KEY_ID as string,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY as string,
    // MinIO and most self-hosted servers answer only path-style requests; AWS prefers virtual hosts.
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
  };
}

function chatConfig(e: z.output<typeof envSchema>): ChatConfig | null {
  if (e.CHAT_SCRIPT_URL === undefined && e.CHAT_SITE_TOKEN === undefined) return null;
  // A script without its token (or the reverse) would load a widget that cannot open a conversation.
  if (e.CHAT_SCRIPT_URL === undefined || e.CHAT_SITE_TOKEN === undefined) {
    throw new ConfigError([
      'CHAT_SCRIPT_URL, CHAT_SITE_TOKEN: set both to turn the chat widget on, or neither',
    ]);
  }
  return {
    scriptUrl: e.CHAT_SCRIPT_URL,
    siteToken: e.CHAT_SITE_TOKEN,
    baseUrl: (e.CHAT_BASE_URL ?? new URL(e.CHAT_SCRIPT_URL).origin).replace(/\/+$/, ''),
  };
}

/** The card-deposit limits in USDT minor units, or what is wrong with them. */
function cardDepositLimits(
  min: string,
  max: string,
): { minMinor: bigint; maxMinor: bigint; problems: string[] } {
  const minMinor = parseAmount(min, 6) ?? 0n;
  const maxMinor = parseAmount(max, 6) ?? 0n;
  const problems: string[] = [];
  if (minMinor <= 0n)
    problems.push(`CARD_DEPOSIT_MIN_USDT: must be greater than zero (got ${JSON.stringify(min)})`);
  if (maxMinor < minMinor)
    problems.push(
      `CARD_DEPOSIT_MAX_USDT: must not be below CARD_DEPOSIT_MIN_USDT (got ${JSON.stringify(max)})`,
    );
  return { minMinor, maxMinor, problems };
}

function cardDepositConfig(e: z.output<typeof envSchema>): CardDepositConfig {
  const parts = [e.CARD_PAYEE_BANK, e.CARD_PAYEE_NUMBER, e.CARD_PAYEE_NAME, e.CARD_PAYEE_PHONE];
  const set = parts.filter((part) => part !== undefined).length;
  const problems: string[] = [];
  // Half a payee would send users' money to an account nobody can identify.
  if (set !== 0 && set !== parts.length)
    problems.push(
      'CARD_PAYEE_*: set all four of CARD_PAYEE_BANK, CARD_PAYEE_NUMBER, CARD_PAYEE_NAME and CARD_PAYEE_PHONE, or none',
    );
  const limits = cardDepositLimits(e.CARD_DEPOSIT_MIN_USDT, e.CARD_DEPOSIT_MAX_USDT);
  problems.push(...limits.problems);
  if (problems.length > 0) throw new ConfigError(problems);
  const configured =
    set === parts.length
      ? {
          bank: e.CARD_PAYEE_BANK as string,
          cardNumber: e.CARD_PAYEE_NUMBER as string,
          name: e.CARD_PAYEE_NAME as string,
          phone: e.CARD_PAYEE_PHONE as string,
        }
      : null;
  const payee = configured ?? (e.DEMO_MODE ? DEMO_CARD_PAYEE : null);
  return {
    payee,
    demoPayee: configured === null && payee !== null,
  };
}
