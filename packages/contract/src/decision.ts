import * as z from 'zod/mini';

/** Why someone asks for a change another person decides: required, kept in the audit log. */
export const requestReason = z
  .string({ error: 'validation.required' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'validation.required' }),
    z.maxLength(500, { error: 'validation.too_long' }),
  );

/** A second person's decision on a request (an id as text); rejecting needs a reason. */
export const idText = z
  .string({ error: 'validation.required' })
  .check(z.trim(), z.regex(/^\d{1,18}$/, { error: 'validation.invalid_value' }));
export const decisionReason = z.optional(
  z.string().check(z.trim(), z.maxLength(500, { error: 'validation.too_long' })),
);
export const needsReasonToReject = z.refine<{ decision: string; reason?: string | undefined }>(
  (value) => value.decision !== 'reject' || !!value.reason,
  { path: ['reason'], error: 'validation.reason_required' },
);
export const idDecisionSchema = z
  .strictObject({
    id: idText,
    decision: z.enum(['approve', 'reject'], { error: 'validation.invalid_value' }),
    reason: decisionReason,
  })
  .check(needsReasonToReject);
export type IdDecision = z.infer<typeof idDecisionSchema>;
