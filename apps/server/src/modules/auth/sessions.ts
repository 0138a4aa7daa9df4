import crypto from 'node:crypto';
import type { DeviceSession, SessionResponse } from '@tradewind/contract/auth';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import type { Db, Executor } from '#platform/db.ts';
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

export interface SessionMeta {
  ip: string;
  device: string;
}

export async function createSession(tx: Executor, input: { userId: number; now: Date; ttlMs: number; meta: SessionMeta }): Promise<SessionResponse> {
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
export async function authenticateToken(deps: { db: Db; clock: Clock }, header: string | undefined): Promise<AuthContext> {
  const match = header?.match(/^Bearer ([^\s]+)$/i);
  const token = match?.[1];
  if (!token || !TOKEN_PATTERN.test(token)) throw new AppError('UNAUTHORIZED');
  const [row] = await deps.db
    .select({ id: sessions.id, userId: sessions.userId, expiresAt: sessions.expiresAt, revokedAt: sessions.revokedAt, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .where(eq(sessions.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) throw new AppError('UNAUTHORIZED');
  const now = deps.clock.now();
  if (row.revokedAt || row.expiresAt.getTime() <= now.getTime()) throw new AppError('SESSION_EXPIRED');
  if (now.getTime() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await deps.db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, row.id));
  }
  return { userId: row.userId, sessionId: row.id };
}

export async function revokeSessions(
  tx: Executor,
  input: { userId: number; now: Date; reason: string; exceptSessionId?: number; onlySessionId?: number },
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

export async function listSessions(deps: { db: Db; clock: Clock }, auth: AuthContext): Promise<DeviceSession[]> {
  const rows = await deps.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, auth.userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, deps.clock.now())))
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
