import * as z from 'zod/mini';
import { decisionReason, idText, needsReasonToReject, requestReason } from './decision.ts';
import { amountSchema } from './money.ts';
import { ASSET_CODES, type AssetCode, assetSchema } from './wallet.ts';

/**
 * Invitation codes and bonus codes (spec §1, /Invite). A user's invitation code is fixed at
 * registration; the share link is the register page with the code prefilled. A bonus code,
 * created by an operator, credits a reward through the ledger (entry type `reward`, from
 * `house:rewards`), within its limits: total redemptions, per user, a time window and,
 * optionally, verified (KYC passed) users only.
 */

/** The register page reads the inviter's code from this query parameter. */
export const INVITE_QUERY_PARAM = 'invite';

/** The link a user shares: `origin` is where the app is served. */
export function inviteLink(origin: string, inviteCode: string): string {
  return `${origin.replace(/\/+$/, '')}/Register?${INVITE_QUERY_PARAM}=${encodeURIComponent(inviteCode)}`;
}

/** The invitee list is a page of at most this many, newest first. */
export const INVITEES_PAGE_MAX = 50;

/**
 * How an invitee's contact is shown to the inviter: enough to recognise a friend, not
 * enough to reach them. `ab***@example.com`, `+1415***0123`.
 */
export function maskContact(contact: string): string {
  const at = contact.lastIndexOf('@');
  if (at > 0) return `${contact.slice(0, Math.min(2, at))}***${contact.slice(at)}`;
  if (contact.length <= 6) return `***${contact.slice(-2)}`;
  return `${contact.slice(0, 5)}***${contact.slice(-4)}`;
}

export const inviteSummarySchema = z.object({
  inviteCode: z.string(),
  /** People who registered with this user's code. */
  invitedCount: z.number().check(z.int(), z.nonnegative()),
  /** Of those, how many passed identity verification. */
  verifiedCount: z.number().check(z.int(), z.nonnegative()),
});
export type InviteSummary = z.infer<typeof inviteSummarySchema>;

export const inviteesQuerySchema = z.strictObject({
  /** The `nextCursor` of the previous page. */
  cursor: z.optional(
    z.string().check(z.regex(/^\d{1,18}$/, { error: 'validation.invalid_value' })),
  ),
  limit: z._default(
    z.coerce
      .number({ error: 'validation.invalid_type' })
      .check(
        z.int({ error: 'validation.invalid_value' }),
        z.gte(1, { error: 'validation.too_small' }),
        z.lte(INVITEES_PAGE_MAX, { error: 'validation.too_big' }),
      ),
    20,
  ),
});
export type InviteesQuery = z.infer<typeof inviteesQuerySchema>;

export const inviteeSchema = z.object({
  /** Masked email or phone (`maskContact`). */
  contact: z.string(),
  joinedAt: z.iso.datetime(),
  verified: z.boolean(),
});
export type Invitee = z.infer<typeof inviteeSchema>;

export const inviteesSchema = z.object({
  items: z.array(inviteeSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type Invitees = z.infer<typeof inviteesSchema>;

/** Letters, digits and dashes; stored upper-case, so users may type it in any case. */
export const bonusCodeSchema = z
  .string({ error: 'validation.required' })
  .check(
    z.trim(),
    z.toUpperCase(),
    z.regex(/^[A-Z0-9][A-Z0-9-]{2,30}[A-Z0-9]$/, { error: 'validation.bonus_code_format' }),
  );

export const redeemBonusCodeRequestSchema = z.strictObject({ code: bonusCodeSchema });
export type RedeemBonusCodeRequest = z.infer<typeof redeemBonusCodeRequestSchema>;

export const redeemBonusCodeResultSchema = z.object({
  code: z.string(),
  asset: z.string(),
  /** The reward credited to the spot account. */
  amount: z.string(),
  /** "Congratulations on receiving a reward", in the request's language. */
  message: z.string(),
});
export type RedeemBonusCodeResult = z.infer<typeof redeemBonusCodeResultSchema>;

/** Limits an operator may set; bigger values are typos. */
export const BONUS_CODE_MAX_REDEMPTIONS = 1_000_000;
export const BONUS_CODE_MAX_PER_USER = 100;
export const BONUS_CODE_LIST_MAX = 100;

export const createBonusCodeRequestSchema = z
  .strictObject({
    code: bonusCodeSchema,
    asset: assetSchema,
    /** Credited per redemption, a decimal string in the asset's scale. */
    amount: amountSchema,
    maxRedemptions: z.coerce
      .number({ error: 'validation.invalid_type' })
      .check(
        z.int({ error: 'validation.invalid_value' }),
        z.gte(1, { error: 'validation.too_small' }),
        z.lte(BONUS_CODE_MAX_REDEMPTIONS, { error: 'validation.too_big' }),
      ),
    perUserLimit: z._default(
      z.coerce
        .number({ error: 'validation.invalid_type' })
        .check(
          z.int({ error: 'validation.invalid_value' }),
          z.gte(1, { error: 'validation.too_small' }),
          z.lte(BONUS_CODE_MAX_PER_USER, { error: 'validation.too_big' }),
        ),
      1,
    ),
    /** Defaults to now. */
    startsAt: z.optional(z.iso.datetime({ error: 'validation.invalid_value' })),
    expiresAt: z.iso.datetime({ error: 'validation.invalid_value' }),
    /** Rewards are for verified (KYC passed) accounts unless the code says otherwise. */
    verifiedOnly: z._default(z.boolean({ error: 'validation.invalid_type' }), true),
    /** At most one redemption per verified identity (KYC document), over all accounts. */
    onePerIdentity: z._default(z.boolean({ error: 'validation.invalid_type' }), false),
    reason: z.optional(
      z.string().check(z.trim(), z.maxLength(500, { error: 'validation.too_long' })),
    ),
  })
  .check(
    z.refine(
      (value) => !value.startsAt || Date.parse(value.expiresAt) > Date.parse(value.startsAt),
      { path: ['expiresAt'], error: 'validation.invalid_value' },
    ),
  );
export type CreateBonusCodeRequest = z.infer<typeof createBonusCodeRequestSchema>;

/**
 * A code whose total (amount × max redemptions) is above the asset's threshold
 * (BONUS_CODE_APPROVAL_THRESHOLD) is `pending` until a second admin approves it; only an
 * `approved` code can be redeemed.
 */
export const BONUS_CODE_APPROVAL_STATUSES = ['approved', 'pending', 'rejected'] as const;
export type BonusCodeApprovalStatus = (typeof BONUS_CODE_APPROVAL_STATUSES)[number];

export const bonusCodeViewSchema = z.object({
  id: z.string(),
  code: z.string(),
  asset: z.enum(ASSET_CODES as [AssetCode, ...AssetCode[]]),
  amount: z.string(),
  maxRedemptions: z.number().check(z.int()),
  perUserLimit: z.number().check(z.int()),
  redeemedCount: z.number().check(z.int()),
  startsAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  verifiedOnly: z.boolean(),
  onePerIdentity: z.boolean(),
  /** amount × maxRedemptions: the most the code can ever pay. */
  total: z.string(),
  approvalStatus: z.enum(BONUS_CODE_APPROVAL_STATUSES),
  createdBy: z.nullable(z.string()),
  approvedBy: z.nullable(z.string()),
  approvedAt: z.nullable(z.iso.datetime()),
  decisionReason: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
});
export type BonusCodeView = z.infer<typeof bonusCodeViewSchema>;

export const bonusCodeListSchema = z.object({ items: z.array(bonusCodeViewSchema) });

/** A second admin's decision on a bonus code waiting for approval; rejecting needs a reason. */
export const bonusCodeDecisionSchema = z
  .strictObject({
    id: idText,
    decision: z.enum(['approve', 'reject'], { error: 'validation.invalid_value' }),
    reason: decisionReason,
  })
  .check(needsReasonToReject);
export type BonusCodeDecision = z.infer<typeof bonusCodeDecisionSchema>;

/**
 * Reward budgets (issue 29): every reward the house gives (bonus codes today) draws on its
 * asset's budget. One admin requests a change (a signed amount), a different admin approves.
 */
export const REWARD_BUDGET_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type RewardBudgetStatus = (typeof REWARD_BUDGET_STATUSES)[number];

export const rewardBudgetRequestSchema = z.strictObject({
  asset: assetSchema,
  /** Signed decimal string: "+1000" raises the budget, "-500" lowers it. */
  amount: z.string({ error: 'validation.required' }).check(
    z.trim(),
    z.regex(/^[+-]?\d{1,30}(\.\d{1,18})?$/, { error: 'validation.amount_format', abort: true }),
    z.refine((value) => /[1-9]/.test(value), { error: 'validation.amount_positive' }),
  ),
  reason: requestReason,
});
export type RewardBudgetRequest = z.infer<typeof rewardBudgetRequestSchema>;

export const rewardBudgetDecisionSchema = z
  .strictObject({
    id: idText,
    decision: z.enum(['approve', 'reject'], { error: 'validation.invalid_value' }),
    reason: decisionReason,
  })
  .check(needsReasonToReject);
export type RewardBudgetDecision = z.infer<typeof rewardBudgetDecisionSchema>;

export const rewardBudgetChangeSchema = z.object({
  id: z.string(),
  asset: z.string(),
  /** Signed decimal string. */
  amount: z.string(),
  reason: z.string(),
  status: z.enum(REWARD_BUDGET_STATUSES),
  /** Null for the demo seed's budget and rewards paid before budgets existed. */
  requestedBy: z.nullable(z.string()),
  requestedAt: z.iso.datetime(),
  decidedBy: z.nullable(z.string()),
  decidedAt: z.nullable(z.iso.datetime()),
  decisionReason: z.nullable(z.string()),
});
export type RewardBudgetChange = z.infer<typeof rewardBudgetChangeSchema>;

export const rewardBudgetSchema = z.object({
  asset: z.string(),
  /** The sum of approved changes. */
  approved: z.string(),
  /** Paid out as rewards so far. */
  granted: z.string(),
  remaining: z.string(),
  /** A code whose total is above this waits for a second admin (BONUS_CODE_APPROVAL_THRESHOLD). */
  codeApprovalThreshold: z.string(),
});
export type RewardBudget = z.infer<typeof rewardBudgetSchema>;

export const rewardBudgetsSchema = z.object({
  budgets: z.array(rewardBudgetSchema),
  /** Newest first, pending ones included (at most REWARD_BUDGET_CHANGES_MAX). */
  changes: z.array(rewardBudgetChangeSchema),
});
export type RewardBudgets = z.infer<typeof rewardBudgetsSchema>;
export const REWARD_BUDGET_CHANGES_MAX = 100;
