import crypto from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { type AppOptions, buildApp } from '../src/app.ts';
import { type Obligation, checkLedger } from '../src/modules/ledger/invariants.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { type Config, loadConfig } from '../src/platform/config.ts';
import { type Database, openDatabase, queryRows } from '../src/platform/db.ts';
import { withDatabase } from './global-setup.ts';

export const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

/** A fresh, migrated database for one test file: a clone of the template. */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  const template = inject('pgTemplate');
  if (url && template) {
    const name = `tw_t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    await admin.end();
    const database = await openDatabase({ databaseUrl: withDatabase(url, name), poolSize: 10 });
    return {
      ...database,
      close: async () => {
        await database.close();
        const cleanup = new pg.Client({ connectionString: url });
        await cleanup.connect();
        await cleanup.query(`drop database if exists ${name} with (force)`);
        await cleanup.end();
      },
    };
  }
  const dump = new Blob([fs.readFileSync(inject('pgliteDumpPath'))]);
  return openDatabase({ dataDir: 'memory://', pgliteDump: dump });
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    DEMO_MODE: 'true',
    // The simulated history is tested on its own (market-history.test.ts); apps start without it.
    DEMO_HISTORY_DAYS: '0',
    // Nor the sources' history: market-source-history.test.ts serves it from a local server.
    MARKET_HISTORY_DAYS: '0',
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent',
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  clock: ManualClock;
  database: Database;
  close: () => Promise<void>;
}

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    beforeReady?: (app: FastifyInstance) => void;
    onRoute?: (route: RouteOptions) => void;
    /** The ledger check's obligations instead of every module's (a test adds a phantom one). */
    obligations?: readonly Obligation[];
    /** Pino options (e.g. a stream the test reads); silent by default. */
    logger?: AppOptions['logger'];
    /** Run the background workers' registrations too (the test drives or stops them). */
    workers?: boolean;
    /** The clock's time at start (ms); T0 by default. */
    startAt?: number;
  } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const clock = new ManualClock(options.startAt ?? T0);
  const app = await buildApp({
    config: testConfig(options.env),
    database,
    clock,
    logger: options.logger ?? false,
    ...(options.workers ? { workers: true } : {}),
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
    ...(options.obligations ? { obligations: options.obligations } : {}),
  });
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    clock,
    database,
    close: async () => {
      // Every server test file ends with the ledger's invariants holding.
      const violations = await checkLedger(database.db, app.services.obligations);
      await app.close();
      await database.close();
      if (violations.length > 0)
        throw new Error(
          `ledger invariants broken:\n${violations.map((v) => `${v.rule}: ${v.detail}`).join('\n')}`,
        );
    },
  };
}

export interface Reply<T = unknown> {
  status: number;
  body: { code: number; message: string; data: T; errors?: Record<string, string[]> };
  response: LightMyRequestResponse;
}

export async function call<T = unknown>(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  options: {
    body?: unknown;
    token?: string;
    lang?: string;
    headers?: Record<string, string>;
    ip?: string;
  } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.lang) headers['accept-language'] = options.lang;
  const response = await app.inject({
    method,
    url,
    headers,
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
    ...(options.ip ? { remoteAddress: options.ip } : {}),
  });
  return { status: response.statusCode, body: response.json(), response };
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${counter}.${crypto.randomBytes(3).toString('hex')}@example.com`;
}

export function uniquePhone(): string {
  // +1 415 555 01xx numbers are valid in libphonenumber's metadata.
  counter += 1;
  return `+1415555${String(1000 + (counter % 9000)).padStart(4, '0')}`;
}

/** The last code the dev outbox holds for an address. */
export async function lastCode(app: FastifyInstance, to: string): Promise<string> {
  const reply = await call<{ items: { body: string }[] }>(
    app,
    'GET',
    `/api/v1/dev/outbox?to=${encodeURIComponent(to)}`,
  );
  const match = reply.body.data.items[0]?.body.match(/\b(\d{6})\b/);
  if (!match?.[1]) throw new Error(`no code in the outbox for ${to}`);
  return match[1];
}

export const PASSWORD = 'correct-horse-9';

/** Registers by email code and returns the session. */
export async function registerUser(
  app: FastifyInstance,
  account = uniqueEmail(),
  channel: 'email' | 'phone' = 'email',
) {
  const sent = await call(app, 'POST', '/api/v1/auth/codes', {
    body: { channel, account, purpose: 'register' },
  });
  if (sent.body.code !== 0) throw new Error(`send code failed: ${JSON.stringify(sent.body)}`);
  const code = await lastCode(app, account.toLowerCase());
  const reply = await call<{ token: string; uid: string }>(app, 'POST', '/api/v1/auth/register', {
    body: { mode: 'code', channel, account, code, password: PASSWORD, confirmPassword: PASSWORD },
  });
  if (reply.body.code !== 0) throw new Error(`register failed: ${JSON.stringify(reply.body)}`);
  return { account, token: reply.body.data.token, uid: reply.body.data.uid };
}

/** The trading (and withdrawal) password the fixtures set: six digits, as the app asks. */
export const TRADE_PIN = '480316';
let pinHash: Promise<string> | undefined;

/**
 * Marks a user KYC-verified as an operator's approval leaves them: `verified` set and an
 * approved submission in `name` (what a bank card's holder name must match). Written
 * directly, photos as file rows without bytes, because the KYC flow has its own tests.
 */
export async function verifyUser(
  t: TestApp,
  userId: number,
  name: { firstName: string; lastName: string } = { firstName: 'Mei', lastName: 'Lin' },
): Promise<void> {
  const { sql } = await import('drizzle-orm');
  const now = t.clock.now();
  await t.database.db.transaction(async (tx) => {
    const photo = async () => {
      const [row] = await queryRows<{ id: string }>(
        tx,
        sql`insert into files (owner_id, purpose, visibility, storage_key, mime, size, width, height, sha256, created_at)
            values (${userId}, 'kyc', 'private', ${`test-kyc-${crypto.randomUUID()}`}, 'image/png', 1, 1, 1, ${'0'.repeat(64)}, ${now})
            returning id::text`,
      );
      return Number(row?.id);
    };
    const front = await photo();
    const face = await photo();
    await tx.execute(
      sql`insert into kyc_submissions (user_id, status, country, last_name, first_name, document_type, document_number, front_file_id, face_file_id, decided_at, created_at)
          values (${userId}, 'approved', 'SG', ${name.lastName}, ${name.firstName}, 'passport', 'E1234567', ${front}, ${face}, ${now}, ${now})`,
    );
    await tx.execute(sql`update users set verified = true where id = ${userId}`);
  });
}

/** Sets the user's trading password (TRADE_PIN) directly, as the money-password flow would. */
export async function setTradePassword(t: TestApp, userId: number): Promise<void> {
  const { sql } = await import('drizzle-orm');
  const { hashPassword } = await import('../src/modules/auth/passwords.ts');
  pinHash ??= hashPassword(TRADE_PIN);
  const now = t.clock.now();
  await t.database.db.execute(
    sql`insert into money_passwords (user_id, kind, password_hash, created_at, updated_at)
        values (${userId}, 'trade', ${await pinHash}, ${now}, ${now})
        on conflict (user_id, kind) do update set password_hash = excluded.password_hash`,
  );
}

/**
 * A user who may take every financial action (spec §5): registered, KYC-verified, with a
 * trading password. Orders then carry TRADE_PIN.
 */
export async function registerReadyUser(t: TestApp, account = uniqueEmail()) {
  const user = await registerUser(t.app, account);
  await verifyUser(t, Number(user.uid));
  await setTradePassword(t, Number(user.uid));
  return user;
}

/** Credits a user through the ledger, as a deposit from outside (tests only). */
export async function fund(
  t: TestApp,
  userId: number,
  amountMinor: bigint,
  wallet: 'spot' | 'futures' = 'spot',
  asset: 'USDT' | 'BTC' | 'ETH' = 'USDT',
) {
  const { externalAccount, userAccount } = await import('../src/modules/ledger/service.ts');
  await t.database.db.transaction((tx) =>
    t.app.services.ledger.post(tx, t.clock.now(), {
      kind: 'test_funding',
      reference: `test:fund:${crypto.randomUUID()}`,
      userId,
      postings: [
        { account: externalAccount('chain', asset), amount: -amountMinor, type: 'deposit' },
        { account: userAccount(userId, wallet, asset), amount: amountMinor, type: 'deposit' },
      ],
    }),
  );
}

let keyCounter = 0;
export function idempotencyKey(): string {
  keyCounter += 1;
  return `test-key-${keyCounter}-${crypto.randomBytes(6).toString('hex')}`;
}

/** Creates an operator and signs it in through the API, with a code from its TOTP secret. */
export async function operatorToken(
  t: TestApp,
  role: 'reviewer' | 'catalog' | 'admin',
  username = `op-${role}-${crypto.randomBytes(3).toString('hex')}`,
) {
  const { createOperator } = await import('../src/modules/operator/service.ts');
  const { totp } = await import('../src/modules/security/totp.ts');
  const { password, totpSecret } = await createOperator(t.database.db, t.clock.now(), {
    username,
    role,
  });
  const code = totp(totpSecret, t.clock.now().getTime());
  const reply = await call<{ token: string }>(t.app, 'POST', '/api/admin/v1/auth/login', {
    body: { username, password, code },
  });
  if (reply.body.code !== 0)
    throw new Error(`operator login failed: ${JSON.stringify(reply.body)}`);
  return { token: reply.body.data.token, username, password, totpSecret };
}

/**
 * A session for an existing operator, written straight to the table: for tests that act as one
 * named operator many times (a TOTP code signs in only once per 30 s step of the test clock).
 */
export async function operatorSession(t: TestApp, username: string): Promise<string> {
  const { operatorSessions, operators } = await import('../src/modules/operator/tables.ts');
  const { eq } = await import('drizzle-orm');
  const [operator] = await t.database.db
    .select({ id: operators.id })
    .from(operators)
    .where(eq(operators.username, username));
  if (!operator) throw new Error(`no operator ${username}`);
  const token = crypto.randomBytes(32).toString('base64url');
  const now = t.clock.now();
  await t.database.db.insert(operatorSessions).values({
    operatorId: operator.id,
    tokenHash: crypto.createHash('sha256').update(token).digest('hex'),
    createdAt: now,
    lastUsedAt: now,
    expiresAt: new Date(now.getTime() + 3_600_000),
  });
  return token;
}
