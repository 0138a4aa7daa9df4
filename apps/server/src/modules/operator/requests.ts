import crypto from 'node:crypto';
import type {
  OperatorRequest,
  OperatorRequestBody,
  OperatorRequestKind,
  OperatorRole,
} from '@tradewind/contract/operator';
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import { hashPassword } from '../auth/passwords.ts';
import { matchTotp, newTotpSecret, otpauthUri } from '../security/totp.ts';
import { assertMayApprove } from './approval-rule.ts';
import {
  type OperatorContext,
  type ShellActor,
  audit,
  createOperator,
  shellActorName,
} from './service.ts';
import { operatorEnrolments, operatorRequests, operators } from './tables.ts';

/** An enrolment code works once, within three days of the approval. */
export const ENROLMENT_TTL_MS = 72 * 3_600_000;
/** The console page that redeems a code; the code rides in the fragment, which no server logs. */
export const ENROLMENT_PATH = '/admin/enrol';
const PAGE_LIMIT = 200;

const hashCode = (code: string) => crypto.createHash('sha256').update(code).digest('hex');

type RequestRow = typeof operatorRequests.$inferSelect;

const requester = alias(operators, 'requester');
const decider = alias(operators, 'decider');

async function views(db: Executor, where: ReturnType<typeof eq> | undefined, limit: number) {
  const rows = await db
    .select({ row: operatorRequests, requestedBy: requester.username, decidedBy: decider.username })
    .from(operatorRequests)
    .innerJoin(requester, eq(requester.id, operatorRequests.requestedBy))
    .leftJoin(decider, eq(decider.id, operatorRequests.decidedBy))
    .where(where)
    .orderBy(desc(operatorRequests.id))
    .limit(limit);
  return rows.map(({ row, requestedBy, decidedBy }): OperatorRequest => ({
    id: row.id,
    kind: row.kind as OperatorRequestKind,
    username: row.username,
    role: row.role as OperatorRole,
    reason: row.reason,
    requestedBy,
    status: row.status as OperatorRequest['status'],
    decidedBy: decidedBy ?? row.decidedActor,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionReason: row.decisionReason,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** Pending requests first, then the latest decided ones. */
export async function listOperatorRequests(db: Executor): Promise<OperatorRequest[]> {
  const pending = await views(db, eq(operatorRequests.status, 'pending'), PAGE_LIMIT);
  const decided = await views(
    db,
    inArray(operatorRequests.status, ['approved', 'rejected']),
    PAGE_LIMIT - pending.length,
  );
  return [...pending, ...decided];
}

async function viewOf(db: Executor, id: number): Promise<OperatorRequest> {
  const [view] = await views(db, eq(operatorRequests.id, id), 1);
  if (!view) throw new AppError('OPERATOR_REQUEST_NOT_FOUND', {}, 404);
  return view;
}

/**
 * One admin asks for a new operator, for a disabled one to be enabled again, or for another
 * role; nothing changes until a second admin approves. Raises OPERATOR_USERNAME_TAKEN,
 * OPERATOR_NOT_FOUND, OPERATOR_SELF (a request about oneself), OPERATOR_REQUEST_NO_CHANGE,
 * OPERATOR_REQUEST_OPEN (one open request per operator name).
 */
export async function requestOperatorChange(
  db: Db,
  now: Date,
  actor: OperatorContext,
  input: OperatorRequestBody,
): Promise<OperatorRequest> {
  const id = await db.transaction(async (tx) => {
    let values: { username: string; role: OperatorRole; targetOperatorId: number | null };
    if (input.kind === 'create') {
      const [taken] = await tx
        .select({ id: operators.id })
        .from(operators)
        .where(eq(operators.username, input.username));
      if (taken) throw new AppError('OPERATOR_USERNAME_TAKEN', {}, 409, 'username');
      values = { username: input.username, role: input.role, targetOperatorId: null };
    } else {
      if (input.id === actor.operatorId) throw new AppError('OPERATOR_SELF', {}, 409);
      const [target] = await tx.select().from(operators).where(eq(operators.id, input.id));
      if (!target) throw new AppError('OPERATOR_NOT_FOUND', {}, 404);
      const role = input.kind === 'role' ? (input.role as OperatorRole) : target.role;
      const unchanged = input.kind === 'enable' ? target.disabledAt === null : role === target.role;
      if (unchanged) throw new AppError('OPERATOR_REQUEST_NO_CHANGE', {}, 409);
      values = {
        username: target.username,
        role: role as OperatorRole,
        targetOperatorId: target.id,
      };
    }
    let row: RequestRow | undefined;
    try {
      [row] = await tx
        .insert(operatorRequests)
        .values({
          kind: input.kind,
          ...values,
          reason: input.reason,
          requestedBy: actor.operatorId,
          status: 'pending',
          createdAt: now,
        })
        .returning();
    } catch (error) {
      if (isUniqueViolation(error, 'operator_requests_pending_username_key'))
        throw new AppError('OPERATOR_REQUEST_OPEN', {}, 409);
      throw error;
    }
    if (!row) throw new Error('operator request insert returned no row');
    await audit(tx, now, actor, {
      action: `operator.request_${input.kind}`,
      targetType: 'operator_request',
      targetId: row.id,
      after: { kind: row.kind, username: row.username, role: row.role },
      reason: input.reason,
    });
    return row.id;
  });
  return viewOf(db, id);
}

/**
 * Whether the shell may give the second approval: only while the install has never had two
 * admins, so the first admin can bring in the second. Disabling an admin does not reopen it.
 */
async function shellMayApprove(tx: Executor): Promise<boolean> {
  const [admins] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(operators)
    .where(eq(operators.role, 'admin'));
  const [promoted] = await tx
    .select({ id: operatorRequests.id })
    .from(operatorRequests)
    .where(and(eq(operatorRequests.status, 'approved'), eq(operatorRequests.role, 'admin')))
    .limit(1);
  return (admins?.n ?? 0) < 2 && !promoted;
}

/**
 * A second admin's decision on an operator request. The row is claimed with a conditional
 * update, so of two concurrent approvals exactly one acts and the other gets
 * OPERATOR_REQUEST_DECIDED. Approving a new operator creates the account without a password
 * or TOTP and returns its enrolment code, once, to the approver (decision 0025). Raises
 * OPERATOR_REQUEST_NOT_FOUND, OPERATOR_REQUEST_DECIDED, APPROVAL_NOT_ALLOWED (the requester,
 * the operator concerned, or someone tied to the requester by an enrolment within 7 days),
 * OPERATOR_USERNAME_TAKEN.
 */
export async function decideOperatorRequest(
  db: Db,
  now: Date,
  actor: OperatorContext | ShellActor,
  input: { id: number; decision: 'approve' | 'reject'; reason: string },
): Promise<{
  request: OperatorRequest;
  enrolment: { code: string; path: string; expiresAt: string } | null;
}> {
  const enrolment = await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(operatorRequests)
      .where(eq(operatorRequests.id, input.id));
    if (!current) throw new AppError('OPERATOR_REQUEST_NOT_FOUND', {}, 404);
    if (current.status !== 'pending') throw new AppError('OPERATOR_REQUEST_DECIDED', {}, 409);
    // Anyone may reject (the requester too, to withdraw it); approving takes a second person.
    if (input.decision === 'approve') {
      if (actor.operatorId === null) {
        if (!(await shellMayApprove(tx))) throw new AppError('APPROVAL_NOT_ALLOWED', {}, 403);
      } else {
        if (current.targetOperatorId === actor.operatorId)
          throw new AppError('APPROVAL_NOT_ALLOWED', {}, 403);
        await assertMayApprove(tx, actor.operatorId, current.requestedBy, now);
      }
    }
    const [claimed] = await tx
      .update(operatorRequests)
      .set({
        status: input.decision === 'approve' ? 'approved' : 'rejected',
        decidedBy: actor.operatorId,
        decidedActor: actor.operatorId === null ? shellActorName(actor.cliUser) : null,
        decidedAt: now,
        decisionReason: input.reason,
      })
      .where(and(eq(operatorRequests.id, current.id), eq(operatorRequests.status, 'pending')))
      .returning();
    if (!claimed) throw new AppError('OPERATOR_REQUEST_DECIDED', {}, 409);
    let issued: { code: string; path: string; expiresAt: string } | null = null;
    let targetId = claimed.targetOperatorId;
    if (input.decision === 'approve') {
      if (claimed.kind === 'create') {
        const created = await insertUnenrolled(tx, now, claimed);
        targetId = created;
        const code = crypto.randomBytes(32).toString('base64url');
        const expiresAt = new Date(now.getTime() + ENROLMENT_TTL_MS);
        await tx.insert(operatorEnrolments).values({
          operatorId: created,
          requestId: claimed.id,
          codeHash: hashCode(code),
          createdAt: now,
          expiresAt,
        });
        await tx
          .update(operatorRequests)
          .set({ targetOperatorId: created })
          .where(eq(operatorRequests.id, claimed.id));
        issued = { code, path: `${ENROLMENT_PATH}#${code}`, expiresAt: expiresAt.toISOString() };
      } else if (claimed.kind === 'enable') {
        await tx
          .update(operators)
          .set({ disabledAt: null })
          .where(eq(operators.id, claimed.targetOperatorId as number));
      } else {
        await tx
          .update(operators)
          .set({ role: claimed.role })
          .where(eq(operators.id, claimed.targetOperatorId as number));
      }
    }
    await audit(tx, now, actor, {
      action: `operator.request_${input.decision}`,
      targetType: 'operator_request',
      targetId: claimed.id,
      before: { status: 'pending' },
      after: {
        status: claimed.status,
        kind: claimed.kind,
        username: claimed.username,
        role: claimed.role,
        ...(targetId ? { operatorId: targetId } : {}),
      },
      reason: input.reason,
    });
    return issued;
  });
  return { request: await viewOf(db, input.id), enrolment };
}

async function insertUnenrolled(tx: Executor, now: Date, request: RequestRow): Promise<number> {
  try {
    const [row] = await tx
      .insert(operators)
      .values({ username: request.username, role: request.role, createdAt: now })
      .returning({ id: operators.id });
    if (!row) throw new Error('operator insert returned no row');
    return row.id;
  } catch (error) {
    if (isUniqueViolation(error, 'operators_username_key'))
      throw new AppError('OPERATOR_USERNAME_TAKEN', {}, 409, 'username');
    throw error;
  }
}

/** The enrolment a code names, if it is unused and unexpired (locked for the caller's transaction). */
async function openEnrolment(tx: Executor, code: string, now: Date) {
  const [row] = await tx
    .select({ enrolment: operatorEnrolments, operator: operators })
    .from(operatorEnrolments)
    .innerJoin(operators, eq(operators.id, operatorEnrolments.operatorId))
    .where(
      and(
        eq(operatorEnrolments.codeHash, hashCode(code)),
        isNull(operatorEnrolments.usedAt),
        gt(operatorEnrolments.expiresAt, now),
      ),
    )
    .for('update');
  if (!row || row.operator.disabledAt) throw new AppError('ENROLMENT_INVALID', {}, 422, 'code');
  return row;
}

/**
 * The first step on the enrolment page: which account the code is for, and the TOTP secret
 * to add to an authenticator (the same secret until the code is redeemed). Raises ENROLMENT_INVALID.
 */
export async function startEnrolment(db: Db, now: Date, code: string) {
  return db.transaction(async (tx) => {
    const { enrolment, operator } = await openEnrolment(tx, code, now);
    const totpSecret = enrolment.totpSecret ?? newTotpSecret();
    if (!enrolment.totpSecret)
      await tx
        .update(operatorEnrolments)
        .set({ totpSecret })
        .where(eq(operatorEnrolments.id, enrolment.id));
    return {
      username: operator.username,
      role: operator.role as OperatorRole,
      totpSecret,
      otpauthUri: otpauthUri(totpSecret, operator.username, 'Tradewind Console'),
    };
  });
}

/**
 * The new operator sets their own password and proves their authenticator with a code; the
 * enrolment code is spent. Raises ENROLMENT_INVALID, TWO_FACTOR_CODE_INVALID (field `totpCode`).
 */
export async function completeEnrolment(
  db: Db,
  now: Date,
  input: { code: string; password: string; totpCode: string },
): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const { enrolment, operator } = await openEnrolment(tx, input.code, now);
    if (!enrolment.totpSecret) throw new AppError('ENROLMENT_INVALID', {}, 422, 'code');
    const step = matchTotp(enrolment.totpSecret, input.totpCode, now.getTime());
    if (step === undefined) throw new AppError('TWO_FACTOR_CODE_INVALID', {}, 422, 'totpCode');
    await tx
      .update(operatorEnrolments)
      .set({ usedAt: now })
      .where(eq(operatorEnrolments.id, enrolment.id));
    await tx
      .update(operators)
      .set({ passwordHash, totpSecret: enrolment.totpSecret, totpLastStep: step })
      .where(eq(operators.id, operator.id));
    await audit(
      tx,
      now,
      {
        operatorId: operator.id,
        username: operator.username,
        role: operator.role as OperatorRole,
        via: 'api',
      },
      {
        action: 'operator.enrol',
        targetType: 'operator',
        targetId: operator.id,
        after: { enrolled: true },
      },
    );
  });
}

/**
 * `npm run ops -- create-operator`: the first admin, while the install has no admin at all.
 * The person at the shell is that admin, so the password and TOTP secret are theirs to see.
 * Audited as `cli:<os user>` with the required reason. Raises FIRST_ADMIN_EXISTS.
 */
export async function createFirstAdmin(
  db: Db,
  now: Date,
  shell: ShellActor,
  input: { username: string },
) {
  return db.transaction(async (tx) => {
    // Serialises two shells creating "the first" admin at once.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('tradewind:first-admin'))`);
    const [existing] = await tx
      .select({ id: operators.id })
      .from(operators)
      .where(eq(operators.role, 'admin'))
      .limit(1);
    if (existing) throw new AppError('FIRST_ADMIN_EXISTS', {}, 409);
    const created = await createOperator(tx, now, { username: input.username, role: 'admin' });
    await audit(tx, now, shell, {
      action: 'operator.create_first_admin',
      targetType: 'operator',
      targetId: created.id,
      after: { username: created.username, role: created.role },
      reason: shell.cliReason,
    });
    return created;
  });
}
