import crypto from 'node:crypto';
import type { DeviceSession, SessionResponse } from '@tradewind/contract/auth';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import { type Db, type Executor, type NamedStatement, runNamed } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import type { AuthContext } from '#platform/http.ts';
import { sessions } from './tables.ts';

/** 32 random bytes (256 bits), base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** last_used_at is refreshed at most once a minute, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;
const MAX_LISTED_SESSIONS = 100;

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

interface SessionRow {
  id: string;
  user_id: string;
  token_hash: string;
  expires_ms: number;
  revoked: boolean;
  last_used_ms: number;
}

const SESSIONS_BY_TOKEN: NamedStatement = {
  name: 'auth_sessions_by_token',
  text: `select id::text, user_id::text, token_hash, (extract(epoch from expires_at) * 1000)::float8 as expires_ms, revoked_at is not null as revoked,
                (extract(epoch from last_used_at) * 1000)::float8 as last_used_ms
         from sessions where token_hash = any($1::text[])`,
};

/** The most token lookups one query answers. */
const MAX_LOOKUPS_PER_QUERY = 256;

/**
 * Every signed-in request looks up its session. Under load, the lookups that arrive in the
 * same turn of the event loop go to the database as one named statement, not one query
 * each: the answer is the same, with far fewer round trips.
 */
class SessionLookups {
  private waiting = new Map<string, ((row: SessionRow | undefined) => void)[]>();
  private failures = new Map<string, ((error: unknown) => void)[]>();
  private scheduled = false;

  constructor(private readonly db: Db) {}

  find(tokenHash: string): Promise<SessionRow | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.set(tokenHash, [...(this.waiting.get(tokenHash) ?? []), resolve]);
      this.failures.set(tokenHash, [...(this.failures.get(tokenHash) ?? []), reject]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const waiting = this.waiting;
    const failures = this.failures;
    this.waiting = new Map();
    this.failures = new Map();
    const hashes = [...waiting.keys()];
    for (let i = 0; i < hashes.length; i += MAX_LOOKUPS_PER_QUERY) {
      const chunk = hashes.slice(i, i + MAX_LOOKUPS_PER_QUERY);
      runNamed<SessionRow>(this.db, SESSIONS_BY_TOKEN, [chunk]).then(
        (rows) => {
          const byHash = new Map(rows.map((row) => [row.token_hash, row]));
          for (const hash of chunk)
            for (const resolve of waiting.get(hash) ?? []) resolve(byHash.get(hash));
        },
        (error: unknown) => {
          for (const hash of chunk) for (const reject of failures.get(hash) ?? []) reject(error);
        },
      );
    }
  }
}

const lookups = new WeakMap<Db, SessionLookups>();

function lookupSession(db: Db, tokenHash: string): Promise<SessionRow | undefined> {
  let lookup = lookups.get(db);
  if (!lookup) lookups.set(db, (lookup = new SessionLookups(db)));
  return lookup.find(tokenHash);
}

export interface SessionMeta {
  ip: string;
  device: string;
}

export async function createSession(
  tx: Executor,
  input: { userId: number; now: Date; ttlMs: number; meta: SessionMeta },
): Promise<SessionResponse> {
  const token = crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(input.now.getTime() + input.ttlMs);
  await tx.insert(sessions).values({
    userId: input.userId,
    tokenHash: hashToken(token),
    device: input.meta.device.slice(0, 200) || 'unknown',
    ip: input.meta.ip.slice(0, 64),
    createdAt: input.now,
    lastUsedAt: input.now,
    expiresAt,
  });
  return { token, uid: String(input.userId), expiresAt: expiresAt.toISOString() };
}

/**
 * Resolves a bearer token. UNAUTHORIZED (401) when there is none or it is unknown;
 * SESSION_EXPIRED (411) when it expired or was revoked (signed out, password changed).
 */
export async function authenticateToken(
  deps: { db: Db; clock: Clock },
  header: string | undefined,
): Promise<AuthContext> {
  const match = header?.match(/^Bearer ([^\s]+)$/i);
  const token = match?.[1];
  if (!token || !TOKEN_PATTERN.test(token)) throw new AppError('UNAUTHORIZED');
  const row = await lookupSession(deps.db, hashToken(token));
  if (!row) throw new AppError('UNAUTHORIZED');
  const now = deps.clock.now();
  if (row.revoked || row.expires_ms <= now.getTime()) throw new AppError('SESSION_EXPIRED');
  if (now.getTime() - row.last_used_ms > TOUCH_INTERVAL_MS) {
    await deps.db
      .update(sessions)
      .set({ lastUsedAt: now })
      .where(eq(sessions.id, Number(row.id)));
  }
  return { userId: Number(row.user_id), sessionId: Number(row.id) };
}

export async function revokeSessions(
  tx: Executor,
  input: {
    userId: number;
    now: Date;
    reason: string;
    exceptSessionId?: number;
    onlySessionId?: number;
  },
): Promise<number> {
  const conditions = [eq(sessions.userId, input.userId), isNull(sessions.revokedAt)];
  if (input.exceptSessionId !== undefined) conditions.push(ne(sessions.id, input.exceptSessionId));
  if (input.onlySessionId !== undefined) conditions.push(eq(sessions.id, input.onlySessionId));
  const revoked = await tx
    .update(sessions)
    .set({ revokedAt: input.now, revokedReason: input.reason })
    .where(and(...conditions))
    .returning({ id: sessions.id });
  return revoked.length;
}

const LIVE_SESSIONS: NamedStatement = {
  name: 'auth_live_sessions',
  text: 'select id::text from sessions where id = any($1::bigint[]) and revoked_at is null and expires_at > $2::timestamptz',
};

/** Of the given session ids, those still signed in at `now`. */
export async function liveSessions(
  db: Executor,
  sessionIds: number[],
  now: Date,
): Promise<Set<number>> {
  const rows = await runNamed<{ id: string }>(db, LIVE_SESSIONS, [sessionIds.map(String), now]);
  return new Set(rows.map((row) => Number(row.id)));
}

export async function listSessions(
  deps: { db: Db; clock: Clock },
  auth: AuthContext,
): Promise<DeviceSession[]> {
  const rows = await deps.db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, auth.userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, deps.clock.now()),
      ),
    )
    .orderBy(desc(sessions.lastUsedAt))
    .limit(MAX_LISTED_SESSIONS);
  return rows.map((row) => ({
    id: String(row.id),
    device: row.device,
    ip: row.ip,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    current: row.id === auth.sessionId,
  }));
}
