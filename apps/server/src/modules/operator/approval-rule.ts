import { and, eq, gte, inArray, isNotNull, or } from 'drizzle-orm';
import type { Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { operatorRequests } from './tables.ts';

/** How long an operator stays tied to whoever brought them in (requested or approved their enrolment). */
export const ENROLMENT_TIE_MS = 7 * 24 * 3_600_000;

/**
 * The two-person rule's second person must be a different person (ARCHITECTURE §8): nobody
 * approves what they requested, nor what an operator they brought in requested, within
 * `ENROLMENT_TIE_MS` of that operator's approval. The tie holds both ways: whoever requested or
 * approved an operator's creation cannot approve that operator's requests, and that operator
 * cannot approve theirs, so an admin who enrolled a second account themselves (the approver
 * is handed the enrolment code) gains nothing from it. Raises APPROVAL_NOT_ALLOWED (403).
 */
export async function assertMayApprove(
  db: Executor,
  approverId: number,
  requesterId: number,
  now: Date,
): Promise<void> {
  if (approverId === requesterId) throw new AppError('APPROVAL_NOT_ALLOWED', {}, 403);
  const since = new Date(now.getTime() - ENROLMENT_TIE_MS);
  const broughtIn = (newcomer: number, sponsor: number) =>
    and(
      eq(operatorRequests.targetOperatorId, newcomer),
      or(eq(operatorRequests.requestedBy, sponsor), eq(operatorRequests.decidedBy, sponsor)),
    );
  const [tie] = await db
    .select({ id: operatorRequests.id })
    .from(operatorRequests)
    .where(
      and(
        eq(operatorRequests.status, 'approved'),
        inArray(operatorRequests.kind, ['create', 'enable', 'role']),
        isNotNull(operatorRequests.decidedAt),
        // The shell's bootstrap approval of the second admin ties nobody: otherwise a fresh
        // install's two admins could not approve each other's requests for a week.
        isNotNull(operatorRequests.decidedBy),
        gte(operatorRequests.decidedAt, since),
        or(broughtIn(requesterId, approverId), broughtIn(approverId, requesterId)),
      ),
    )
    .limit(1);
  if (tie) throw new AppError('APPROVAL_NOT_ALLOWED', {}, 403);
}
