import type { Decision, QueueUser } from '@tradewind/contract/operator';
import type {
  DocumentType,
  KycOverview,
  KycStatus,
  KycSubmission,
  KycSubmitRequest,
} from '@tradewind/contract/kyc';
import { and, asc, desc, eq, gt } from 'drizzle-orm';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { requireOwnFile } from '#platform/files.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import { type CreatedMessage, createMessages } from '../messages/service.ts';
import { withQueueUser, withQueueUsers } from '../operator/queue-user.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { recordCreditEvent } from '../credit/service.ts';
import { users } from '../user/tables.ts';
import { type KycSubmissionRow, kycSubmissions } from './tables.ts';

export const KYC_QUEUE_PAGE = 50;

/**
 * The one KYC gate (spec §5: identity verification before withdrawals and other financial
 * actions). Every financial action but receiving deposits and moving money between one's own
 * spot and futures accounts calls it: withdrawals, conversion, contracts, miner rental, IEO
 * and loans. Raises KYC_REQUIRED.
 */
export function requireVerified(user: { verified: boolean } | undefined): void {
  const refusal = kycRefusal(user);
  if (refusal) throw refusal;
}

/** The gate's answer where refusals are results rather than exceptions (the order batcher). */
export function kycRefusal(user: { verified: boolean } | undefined): AppError | null {
  return user?.verified ? null : new AppError('KYC_REQUIRED', {}, 403);
}

/** The gate, reading the user (pass the caller's transaction to read under its lock). */
export async function requireKyc(db: Executor, userId: number): Promise<void> {
  const [user] = await db
    .select({ verified: users.verified })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  requireVerified(user);
}

/** The name the user proved: their latest approved submission's, or null (not verified, or verified without a submission). */
export async function verifiedIdentity(
  db: Executor,
  userId: number,
): Promise<{ firstName: string; lastName: string } | null> {
  const [row] = await db
    .select({ firstName: kycSubmissions.firstName, lastName: kycSubmissions.lastName })
    .from(kycSubmissions)
    .innerJoin(users, eq(users.id, kycSubmissions.userId))
    .where(
      and(
        eq(kycSubmissions.userId, userId),
        eq(kycSubmissions.status, 'approved'),
        eq(users.verified, true),
      ),
    )
    .orderBy(desc(kycSubmissions.id))
    .limit(1);
  return row ?? null;
}

function toSubmission(row: KycSubmissionRow): KycSubmission {
  return {
    id: String(row.id),
    status: row.status as KycStatus,
    country: row.country,
    lastName: row.lastName,
    firstName: row.firstName,
    documentType: row.documentType as DocumentType,
    documentNumber: row.documentNumber,
    frontFileId: String(row.frontFileId),
    backFileId: row.backFileId === null ? null : String(row.backFileId),
    faceFileId: String(row.faceFileId),
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/** The user's standing and latest submission (read through the owner). */
export async function getKycOverview(db: Executor, userId: number): Promise<KycOverview> {
  const [user] = await db
    .select({ verified: users.verified })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw new AppError('UNAUTHORIZED');
  const [latest] = await db
    .select()
    .from(kycSubmissions)
    .where(eq(kycSubmissions.userId, userId))
    .orderBy(desc(kycSubmissions.id))
    .limit(1);
  return {
    verified: user.verified,
    state: user.verified ? 'approved' : ((latest?.status as KycStatus | undefined) ?? 'none'),
    submission: latest ? toSubmission(latest) : null,
  };
}

/**
 * Sends a submission for review. Raises KYC_ALREADY_VERIFIED, KYC_PENDING_EXISTS, and
 * FILE_NOT_FOUND / FILE_WRONG_PURPOSE on the photo fields (another user's file is "not
 * found"). The user row is locked first, so a submission and a decision on the same user
 * take turns; the partial unique index is the last word on "one pending at a time".
 * With `autoApprove` (KYC_AUTO_APPROVE, demo mode only) it is approved at once, decided by
 * nobody, so no audit entry.
 */
export async function submitKyc(
  db: Db,
  now: Date,
  userId: number,
  request: KycSubmitRequest,
  options: { autoApprove?: boolean } = {},
): Promise<KycOverview> {
  await db.transaction(async (tx) => {
    const [user] = await tx
      .select({ verified: users.verified })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!user) throw new AppError('UNAUTHORIZED');
    if (user.verified) throw new AppError('KYC_ALREADY_VERIFIED', {}, 409);
    const [pending] = await tx
      .select({ id: kycSubmissions.id })
      .from(kycSubmissions)
      .where(and(eq(kycSubmissions.userId, userId), eq(kycSubmissions.status, 'pending')))
      .limit(1);
    if (pending) throw new AppError('KYC_PENDING_EXISTS', {}, 409);
    const photo = (id: string, field: string) =>
      requireOwnFile(tx, { ownerId: userId, id, purpose: 'kyc', field });
    const front = await photo(request.frontFileId, 'frontFileId');
    const back = request.backFileId ? await photo(request.backFileId, 'backFileId') : null;
    const face = await photo(request.faceFileId, 'faceFileId');
    const approved = options.autoApprove === true;
    try {
      const [row] = await tx
        .insert(kycSubmissions)
        .values({
          userId,
          status: approved ? 'approved' : 'pending',
          country: request.country,
          lastName: request.lastName,
          firstName: request.firstName,
          documentType: request.documentType,
          documentNumber: request.documentNumber,
          frontFileId: front.id,
          backFileId: back?.id ?? null,
          faceFileId: face.id,
          ...(approved ? { decidedAt: now } : {}),
          createdAt: now,
        })
        .returning({ id: kycSubmissions.id });
      if (approved && row) {
        await tx.update(users).set({ verified: true, updatedAt: now }).where(eq(users.id, userId));
        await recordCreditEvent(tx, now, {
          userId,
          kind: 'kyc_approved',
          ref: `kyc_submission:${row.id}`,
        });
      }
    } catch (error) {
      if (isUniqueViolation(error, 'kyc_submissions_one_pending'))
        throw new AppError('KYC_PENDING_EXISTS', {}, 409);
      throw error;
    }
  });
  return getKycOverview(db, userId);
}

export type KycQueueItem = KycSubmission & { uid: string; user: QueueUser };

/** Pending submissions, oldest first, after `cursor`. */
export async function listKycQueue(
  db: Executor,
  cursor?: string,
  limit = KYC_QUEUE_PAGE,
): Promise<{ items: KycQueueItem[]; nextCursor: string | null }> {
  const rows = await db
    .select()
    .from(kycSubmissions)
    .where(
      and(
        eq(kycSubmissions.status, 'pending'),
        cursor ? gt(kycSubmissions.id, Number(cursor)) : undefined,
      ),
    )
    .orderBy(asc(kycSubmissions.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: await withQueueUsers(
      db,
      page.map((row) => ({ ...toSubmission(row), uid: String(row.userId) })),
    ),
    nextCursor: rows.length > limit ? String(page[page.length - 1]?.id) : null,
  };
}

/**
 * An operator approves or rejects a pending submission: the status, the user's
 * `verified` flag and credit event (on approval) and the audit entry are written in one transaction.
 * Raises NOT_FOUND, INVALID_STATE (already decided, also when two decide at once). The
 * user's result message is written in the same transaction and added to `created`.
 */
export async function decideKyc(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: Decision & { id: string },
  created: CreatedMessage[] = [],
): Promise<KycQueueItem> {
  return db.transaction(async (tx) => {
    const id = Number(input.id);
    const [before] = await tx
      .select()
      .from(kycSubmissions)
      .where(eq(kycSubmissions.id, id))
      .for('update');
    if (!before) throw new AppError('NOT_FOUND');
    if (before.status !== 'pending') throw new AppError('INVALID_STATE', {}, 409);
    const approve = input.decision === 'approve';
    const status: KycStatus = approve ? 'approved' : 'rejected';
    const [after] = await tx
      .update(kycSubmissions)
      .set({
        status,
        reason: approve ? null : (input.reason ?? null),
        decidedBy: operator.operatorId,
        decidedAt: now,
      })
      .where(and(eq(kycSubmissions.id, id), eq(kycSubmissions.status, 'pending')))
      .returning();
    if (!after) throw new AppError('INVALID_STATE', {}, 409);
    if (approve) {
      await tx
        .update(users)
        .set({ verified: true, updatedAt: now })
        .where(eq(users.id, before.userId));
      await recordCreditEvent(tx, now, {
        userId: before.userId,
        kind: 'kyc_approved',
        ref: `kyc_submission:${id}`,
      });
    }
    await audit(tx, now, operator, {
      action: `kyc.${input.decision}`,
      targetType: 'kyc_submission',
      targetId: id,
      before: { status: before.status, userId: before.userId },
      after: { status, ...(approve ? { verified: true } : {}) },
      reason: input.reason ?? null,
    });
    created.push(
      ...(await createMessages(tx, now, [
        {
          userId: before.userId,
          kind: approve ? 'kyc.approved' : 'kyc.rejected',
          ref: `kyc:${id}`,
          ...(input.reason
            ? { params: { reason: input.reason } }
            : { keyParams: { reason: 'messages.no_reason' } }),
          link: '/RealName',
        },
      ])),
    );
    return withQueueUser(tx, { ...toSubmission(after), uid: String(after.userId) });
  });
}
