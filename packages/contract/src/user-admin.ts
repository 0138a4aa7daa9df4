import * as z from 'zod/mini';
import { fundsPostingSchema } from './funds.ts';
import { LANGUAGES } from './languages.ts';
import { ASSETS, type AssetCode, assetSchema, walletSchema } from './wallet.ts';

/**
 * The operator console's Users section (issue 7): search, a read-only view of one user,
 * freeze/unfreeze with a reason, and manual adjustments that a second admin approves.
 * There is no way to edit a balance: an approved adjustment is one `system` ledger entry
 * whose memo (the reason) the user sees in their funds detail.
 */

export const USER_SEARCH_PAGE_SIZE = 20;
export const USER_DETAIL_PAGE_SIZE_MAX = 50;
export const USER_DETAIL_PAGE_SIZE_DEFAULT = 20;
export const ADMIN_REASON_MAX_LENGTH = 500;

const idText = z
  .string({ error: 'validation.required' })
  .check(z.regex(/^\d{1,18}$/, { error: 'validation.invalid_value' }));
const cursor = z.optional(idText);
const limit = z._default(
  z.coerce
    .number()
    .check(
      z.int({ error: 'validation.invalid_value' }),
      z.gte(1),
      z.lte(USER_DETAIL_PAGE_SIZE_MAX),
    ),
  USER_DETAIL_PAGE_SIZE_DEFAULT,
);

/** A reason an operator writes: required, trimmed, at most 500 characters. */
export const adminReasonSchema = z
  .string({ error: 'validation.required' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'validation.reason_required' }),
    z.maxLength(ADMIN_REASON_MAX_LENGTH, { error: 'validation.too_long' }),
  );

/** `q` matches a uid exactly, or an email, phone or nickname by substring (case-insensitive). */
export const userSearchQuerySchema = z.strictObject({
  q: z
    .string({ error: 'validation.required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.required' }),
      z.maxLength(100, { error: 'validation.too_long' }),
    ),
  /** The last uid of the previous page (results are newest first). */
  cursor,
});
export type UserSearchQuery = z.infer<typeof userSearchQuerySchema>;

export const userSummarySchema = z.object({
  uid: z.string(),
  nickname: z.string(),
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  verified: z.boolean(),
  frozen: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

export const userSearchSchema = z.object({
  items: z.array(userSummarySchema),
  nextCursor: z.nullable(z.string()),
});
export type UserSearch = z.infer<typeof userSearchSchema>;

export const adminUserQuerySchema = z.strictObject({ uid: idText });

export const adminUserProfileSchema = z.object({
  uid: z.string(),
  nickname: z.string(),
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  emailVerified: z.boolean(),
  phoneVerified: z.boolean(),
  language: z.enum(LANGUAGES),
  /** KYC passed. */
  verified: z.boolean(),
  createdAt: z.iso.datetime(),
  frozenAt: z.nullable(z.iso.datetime()),
  frozenReason: z.nullable(z.string()),
  creditScore: z.number().check(z.int()),
  points: z.number().check(z.int()),
  inviteCode: z.string(),
  inviterUid: z.nullable(z.string()),
});
export type AdminUserProfile = z.infer<typeof adminUserProfileSchema>;

export const adminKycRecordSchema = z.object({
  id: z.string(),
  status: z.string(),
  country: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  documentType: z.string(),
  documentNumber: z.string(),
  reason: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
  decidedAt: z.nullable(z.iso.datetime()),
});

export const adminBalanceSchema = z.object({
  wallet: walletSchema,
  asset: z.string(),
  available: z.string(),
  locked: z.string(),
});

export const MONEY_FLOW_KINDS = ['deposit', 'withdrawal', 'card_deposit'] as const;
/** Deposits, withdrawals and card deposits, counted and summed per kind, status and asset. */
export const moneyFlowSummarySchema = z.object({
  kind: z.enum(MONEY_FLOW_KINDS),
  status: z.string(),
  asset: z.string(),
  count: z.number().check(z.int()),
  amount: z.string(),
});

export const adminUserDetailSchema = z.object({
  profile: adminUserProfileSchema,
  kyc: z.array(adminKycRecordSchema),
  balances: z.array(adminBalanceSchema),
  moneyFlows: z.array(moneyFlowSummarySchema),
  activeSessions: z.number().check(z.int()),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const adminUserPageQuerySchema = z.strictObject({ uid: idText, cursor, limit });

export const adminPostingsSchema = z.object({
  items: z.array(fundsPostingSchema),
  nextCursor: z.nullable(z.string()),
});

export const adminOrderSchema = z.object({
  id: z.string(),
  instrument: z.string(),
  direction: z.string(),
  periodSeconds: z.number().check(z.int()),
  stake: z.string(),
  fee: z.string(),
  state: z.string(),
  outcome: z.nullable(z.string()),
  payout: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
  deliverAt: z.iso.datetime(),
});
export const adminOrdersSchema = z.object({
  items: z.array(adminOrderSchema),
  nextCursor: z.nullable(z.string()),
});

export const freezeRequestSchema = z.strictObject({ uid: idText, reason: adminReasonSchema });
export type FreezeRequest = z.infer<typeof freezeRequestSchema>;

export const freezeResultSchema = z.object({
  uid: z.string(),
  frozenAt: z.nullable(z.iso.datetime()),
  frozenReason: z.nullable(z.string()),
  /** Sessions signed out by a freeze (0 on unfreeze). */
  sessionsRevoked: z.number().check(z.int()),
});

/** A signed decimal: "+12.5", "12.5" or "-3"; never zero. The asset's scale is checked by the service. */
export const signedAmountSchema = z.string({ error: 'validation.required' }).check(
  z.trim(),
  z.regex(/^[+-]?\d{1,30}(\.\d{1,18})?$/, { error: 'validation.amount_format', abort: true }),
  z.refine((value) => /[1-9]/.test(value), { error: 'validation.amount_positive' }),
);

export const adjustmentRequestSchema = z
  .strictObject({
    uid: idText,
    wallet: walletSchema,
    asset: assetSchema,
    amount: signedAmountSchema,
    /** Shown to the user in their funds detail. */
    reason: adminReasonSchema,
  })
  .check(
    z.superRefine((value, ctx) => {
      // The futures wallet holds USDT only (contract margin).
      if (value.wallet === 'futures' && value.asset !== 'USDT')
        ctx.addIssue({ code: 'custom', path: ['asset'], message: 'validation.invalid_value' });
    }),
  );
export type AdjustmentRequest = z.infer<typeof adjustmentRequestSchema>;

export const ADJUSTMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type AdjustmentStatus = (typeof ADJUSTMENT_STATUSES)[number];

export const adjustmentSchema = z.object({
  id: z.string(),
  uid: z.string(),
  wallet: walletSchema,
  asset: z.string(),
  /** Signed decimal string. */
  amount: z.string(),
  reason: z.string(),
  status: z.enum(ADJUSTMENT_STATUSES),
  requestedBy: z.string(),
  requestedAt: z.iso.datetime(),
  decidedBy: z.nullable(z.string()),
  decidedAt: z.nullable(z.iso.datetime()),
  decisionReason: z.nullable(z.string()),
  /** The ledger entry an approval posted. */
  entryId: z.nullable(z.string()),
});
export type Adjustment = z.infer<typeof adjustmentSchema>;

export const adjustmentListQuerySchema = z.strictObject({
  status: z.optional(z.enum(ADJUSTMENT_STATUSES, { error: 'validation.invalid_value' })),
  uid: z.optional(idText),
  cursor,
});
export const adjustmentListSchema = z.object({
  items: z.array(adjustmentSchema),
  nextCursor: z.nullable(z.string()),
});

/** Approve, or reject with a reason; the approver must not be the requester. */
export const adjustmentDecisionSchema = z
  .strictObject({
    id: idText,
    decision: z.enum(['approve', 'reject'], { error: 'validation.invalid_value' }),
    reason: z.optional(
      z
        .string()
        .check(z.trim(), z.maxLength(ADMIN_REASON_MAX_LENGTH, { error: 'validation.too_long' })),
    ),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.decision === 'reject' && !value.reason)
        ctx.addIssue({ code: 'custom', path: ['reason'], message: 'validation.reason_required' });
    }),
  );
export type AdjustmentDecision = z.infer<typeof adjustmentDecisionSchema>;

export const isAdjustableAsset = (asset: string): asset is AssetCode => asset in ASSETS;
