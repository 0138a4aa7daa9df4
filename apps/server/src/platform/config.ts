import path from 'node:path';
import { z } from 'zod';

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const positiveInt = z.coerce.number({ error: 'must be a number' }).int('must be a whole number').positive('must be positive');

/**
 * Every setting the server reads, with its default. The README's configuration table
 * lists the same names; `loadConfig` fails at boot with one readable line per bad value.
 */
const envSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DEMO_MODE: flag.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  IMG_BASE_URL: z.string().min(1).default('/files'),
  WEB_DIST: z.string().min(1).default('apps/web/dist'),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  SMTP_FROM: z.string().min(3).default('Tradewind <no-reply@tradewind.local>'),
  SMS_WEBHOOK_URL: z.url({ error: 'must be a URL' }).optional(),
  SESSION_TTL_DAYS: positiveInt.max(365).default(30),
  BODY_LIMIT_BYTES: positiveInt.default(1_048_576),
  RATE_LIMIT_ENABLED: flag.default(true),
  RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
  TRUST_PROXY: flag.default(false),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  CONVERT_FEE_BPS: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 or more').max(1000, 'must be at most 1000').default(20),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  role: 'all' | 'api' | 'worker';
  databaseUrl: string | undefined;
  dataDir: string;
  demoMode: boolean;
  logLevel: string;
  imgBaseUrl: string;
  webDist: string;
  smtpUrl: string | undefined;
  smtpFrom: string;
  smsWebhookUrl: string | undefined;
  sessionTtlMs: number;
  bodyLimitBytes: number;
  rateLimit: { enabled: boolean; perMinute: number };
  trustProxy: boolean;
  shutdownTimeoutMs: number;
  /** Conversion fee in basis points of the USDT side (20 = 0.2 %). */
  convertFeeBps: number;
  version: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the environment (empty strings count as unset). Throws ConfigError listing every bad value. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message} (got ${JSON.stringify(present[String(issue.path[0])] ?? null)})`),
    );
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    role: e.ROLE,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    demoMode: e.DEMO_MODE,
    logLevel: e.LOG_LEVEL,
    imgBaseUrl: e.IMG_BASE_URL.replace(/\/+$/, ''),
    webDist: path.resolve(e.WEB_DIST),
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    smsWebhookUrl: e.SMS_WEBHOOK_URL,
    sessionTtlMs: e.SESSION_TTL_DAYS * 86_400_000,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    rateLimit: { enabled: e.RATE_LIMIT_ENABLED, perMinute: e.RATE_LIMIT_PER_MINUTE },
    trustProxy: e.TRUST_PROXY,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    convertFeeBps: e.CONVERT_FEE_BPS,
    version: process.env.npm_package_version ?? '0.1.0',
  };
}
