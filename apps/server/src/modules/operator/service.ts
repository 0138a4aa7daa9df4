import crypto from 'node:crypto';
import { verify } from '@node-rs/argon2';
import type { OperatorRole } from '@tradewind/contract/operator';
import { and, asc, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import type { OperatorAuth } from '#platform/http.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import { hashPassword } from '../auth/passwords.ts';
import { matchTotp, newTotpSecret, otpauthUri } from '../security/totp.ts';
import { auditLog, operatorSessions, operators } from './tables.ts';
import { admitAttempt, clearAttempts, operatorSubject } from '../auth/sign-in-throttle.ts';

/** Operator sessions end after 30 minutes without use (issue: sessions expire after inactivity). */
export const OPERATOR_IDLE_MS = 30 * 60_000;
const OPERATOR_SESSION_MAX_MS = 12 * 3_600_000;

/**
 * The same shape the platform puts on operator requests. From the shell (`npm run ops`) it also
 * names the OS user who ran the command and the `--reason` they gave, for the audit log.
 */
export type OperatorContext = OperatorAuth & { cliUser?: string; cliReason?: string };

/** Someone at the server's shell acting without an operator account: the CLI's first admin. */
export interface ShellActor {
  operatorId: null;
  via: 'cli';
  cliUser: string;
  cliReason: string;
}

export const shellActorName = (cliUser: string) => `cli:${cliUser}`;

export interface AuditInput {
  action: string;
  targetType: string;
  targetId: string | number;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

/**
 * Records an operator action; call it inside the transaction that performs the action. From
 * the shell the entry also names the OS user, and the command's `--reason` stands in when the
 * action has no reason of its own.
 */
export async function audit(
  tx: Executor,
  now: Date,
  operator: OperatorContext | ShellActor,
  input: AuditInput,
): Promise<void> {
  const text = (value: unknown) =>
    value === undefined || value === null
      ? null
      : JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  await tx.insert(auditLog).values({
    operatorId: operator.operatorId,
    actor: operator.cliUser !== undefined ? shellActorName(operator.cliUser) : null,
    action: input.action,
    targetType: input.targetType,
    targetId: String(input.targetId),
    before: text(input.before),
    after: text(input.after),
    reason: input.reason ?? operator.cliReason ?? null,
    via: operator.via,
    createdAt: now,
  });
}

/**
 * Seeds an operator with a generated password (unless one is given) and a TOTP secret, both
 * returned: for the demo seed, tests, and the CLI's first admin (which the person at the shell
 * is). No route calls it: through the API an operator is requested, approved by a second admin
 * and enrols with their own password (requests.ts). Raises OPERATOR_USERNAME_TAKEN.
 */
export async function createOperator(
  db: Executor,
  now: Date,
  input: { username: string; role: OperatorRole; password?: string },
) {
  const password = input.password ?? crypto.randomBytes(12).toString('base64url');
  const totpSecret = newTotpSecret();
  try {
    const [row] = await db
      .insert(operators)
      .values({
        username: input.username,
        passwordHash: await hashPassword(password),
        role: input.role,
        totpSecret,
        createdAt: now,
      })
      .returning({ id: operators.id });
    if (!row) throw new Error('operator insert returned no row');
    return {
      id: row.id,
      username: input.username,
      role: input.role,
      password,
      totpSecret,
      otpauthUri: otpauthUri(totpSecret, input.username, 'Tradewind Console'),
    };
  } catch (error) {
    if (isUniqueViolation(error, 'operators_username_key'))
      throw new AppError('OPERATOR_USERNAME_TAKEN', {}, 409, 'username');
    throw error;
  }
}

export async function listOperators(db: Executor) {
  const rows = await db.select().from(operators).orderBy(asc(operators.id));
  return rows.map((row) => ({
    id: row.id,
    username: row.username,
    role: row.role as OperatorRole,
    createdAt: row.createdAt.toISOString(),
    disabledAt: row.disabledAt?.toISOString() ?? null,
    enrolled: row.passwordHash !== null,
  }));
}

/**
 * Disables (or enables again) another operator; disabling ends their sessions at once, since
 * every request checks `disabled_at`. Raises OPERATOR_NOT_FOUND, OPERATOR_SELF.
 */
export async function setOperatorDisabled(
  db: Db,
  now: Date,
  actor: OperatorContext,
  input: { id: number; disabled: boolean; reason: string },
): Promise<void> {
  if (input.id === actor.operatorId) throw new AppError('OPERATOR_SELF', {}, 409);
  // Disabling is one person's call; enabling again gives access back, so it is a request.
  if (!input.disabled) throw new AppError('OPERATOR_ENABLE_NEEDS_APPROVAL', {}, 409);
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(operators).where(eq(operators.id, input.id)).for('update');
    if (!row) throw new AppError('OPERATOR_NOT_FOUND', {}, 404);
    const disabledAt = input.disabled ? (row.disabledAt ?? now) : null;
    await tx.update(operators).set({ disabledAt }).where(eq(operators.id, row.id));
    await audit(tx, now, actor, {
      action: input.disabled ? 'operator.disable' : 'operator.enable',
      targetType: 'operator',
      targetId: row.id,
      before: { disabledAt: row.disabledAt },
      after: { disabledAt },
      reason: input.reason,
    });
  });
}

/** The operator a shell command names (`--operator`), acting `via: 'cli'` as `shell.user`. */
export async function findOperator(
  db: Executor,
  username: string,
  shell: { user?: string | undefined; reason?: string | undefined } = {},
): Promise<OperatorContext | undefined> {
  const [row] = await db.select().from(operators).where(eq(operators.username, username)).limit(1);
  if (!row || row.disabledAt || row.passwordHash === null) return undefined;
  return {
    operatorId: row.id,
    username: row.username,
    role: row.role as OperatorRole,
    via: 'cli',
    ...(shell.user ? { cliUser: shell.user } : {}),
    ...(shell.reason ? { cliReason: shell.reason } : {}),
  };
}

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * Password and authenticator code; each code signs in once. Raises INVALID_CREDENTIALS (unknown
 * name, wrong password, disabled, or no TOTP secret), TWO_FACTOR_CODE_INVALID and
 * TWO_FACTOR_CODE_REUSED (field `code`). The outcome is audit-logged either way for a known name.
 */
export async function operatorLogin(
  deps: { db: Db; clock: Clock },
  input: { username: string; password: string; code: string },
) {
  // Per account, like users' sign-in: a wrong password or a wrong code counts; only both right clear it.
  const subject = operatorSubject(input.username);
  await admitAttempt(deps.db, subject, deps.clock.now());
  const [row] = await deps.db
    .select()
    .from(operators)
    .where(eq(operators.username, input.username))
    .limit(1);
  const valid = row?.passwordHash ? await verify(row.passwordHash, input.password) : false;
  if (!row || !valid || row.disabledAt || !row.totpSecret)
    throw new AppError('INVALID_CREDENTIALS');
  const now = deps.clock.now();
  const step = matchTotp(row.totpSecret, input.code, now.getTime());
  if (step === undefined) throw new AppError('TWO_FACTOR_CODE_INVALID', {}, 422, 'code');
  const token = crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + OPERATOR_SESSION_MAX_MS);
  const operator: OperatorContext = {
    operatorId: row.id,
    username: row.username,
    role: row.role as OperatorRole,
    via: 'api',
  };
  await deps.db.transaction(async (tx) => {
    // The step moves forward only: a code seen once (or an older one) is refused, also under a race.
    const claimed = await tx
      .update(operators)
      .set({ totpLastStep: step })
      .where(
        and(
          eq(operators.id, row.id),
          or(isNull(operators.totpLastStep), lt(operators.totpLastStep, step)),
        ),
      )
      .returning({ id: operators.id });
    if (claimed.length === 0) throw new AppError('TWO_FACTOR_CODE_REUSED', {}, 422, 'code');
    await tx.insert(operatorSessions).values({
      operatorId: row.id,
      tokenHash: hashToken(token),
      createdAt: now,
      lastUsedAt: now,
      expiresAt,
    });
    await audit(tx, now, operator, {
      action: 'operator.sign_in',
      targetType: 'operator',
      targetId: row.id,
    });
  });
  await clearAttempts(deps.db, subject);
  return { token, role: operator.role, expiresAt: expiresAt.toISOString() };
}

/** 401 without a valid operator token; 411 after 30 minutes idle, 12 hours in all, or sign-out. */
export async function authenticateOperator(
  deps: { db: Db; clock: Clock },
  header: string | undefined,
): Promise<OperatorContext> {
  const token = header?.match(/^Bearer ([A-Za-z0-9_-]{43})$/)?.[1];
  if (!token) throw new AppError('UNAUTHORIZED');
  const [row] = await deps.db
    .select({ session: operatorSessions, operator: operators })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(eq(operatorSessions.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) throw new AppError('UNAUTHORIZED');
  const now = deps.clock.now().getTime();
  const { session, operator } = row;
  if (
    session.revokedAt ||
    operator.disabledAt ||
    session.expiresAt.getTime() <= now ||
    now - session.lastUsedAt.getTime() > OPERATOR_IDLE_MS
  ) {
    throw new AppError('SESSION_EXPIRED');
  }
  await deps.db
    .update(operatorSessions)
    .set({ lastUsedAt: new Date(now) })
    .where(eq(operatorSessions.id, session.id));
  return {
    operatorId: operator.id,
    username: operator.username,
    role: operator.role as OperatorRole,
    via: 'api',
  };
}

export async function operatorLogout(
  deps: { db: Db; clock: Clock },
  header: string | undefined,
): Promise<void> {
  const token = header?.match(/^Bearer ([A-Za-z0-9_-]{43})$/)?.[1];
  if (token)
    await deps.db
      .update(operatorSessions)
      .set({ revokedAt: deps.clock.now() })
      .where(eq(operatorSessions.tokenHash, hashToken(token)));
}

export interface AuditFilter {
  action?: string;
  operator?: string;
  targetType?: string;
  targetId?: string;
  beforeId?: string;
}

export async function listAudit(db: Executor, filter: AuditFilter, limit = 100) {
  const conditions = [];
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.operator)
    conditions.push(
      or(eq(operators.username, filter.operator), eq(auditLog.actor, filter.operator)),
    );
  if (filter.targetType) conditions.push(eq(auditLog.targetType, filter.targetType));
  if (filter.targetId) conditions.push(eq(auditLog.targetId, filter.targetId));
  if (filter.beforeId) conditions.push(lt(auditLog.id, Number(filter.beforeId)));
  const rows = await db
    .select({ entry: auditLog, operatorName: operators.username })
    .from(auditLog)
    .leftJoin(operators, eq(operators.id, auditLog.operatorId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(limit);
  return rows.map(({ entry, operatorName }) => ({
    id: String(entry.id),
    // From the shell: `alice (cli:root)`, or `cli:root` alone when no operator account acted.
    operator: [operatorName, entry.actor && (operatorName ? `(${entry.actor})` : entry.actor)]
      .filter(Boolean)
      .join(' '),
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    before: entry.before,
    after: entry.after,
    reason: entry.reason,
    createdAt: entry.createdAt.toISOString(),
  }));
}
