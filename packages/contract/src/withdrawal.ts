import * as z from 'zod/mini';
import { codeSchema } from './auth-basics.ts';
import { idSchema } from './ids.ts';
import { amountSchema } from './money.ts';
import { moneyPasswordInputSchema } from './money-password.ts';
import { queueUserSchema } from './operator.ts';
import { withdrawalLockSchema } from './security.ts';
import {
  ADDRESS_MAX_LENGTH,
  ADDRESS_PROBLEM_MESSAGES,
  WITHDRAWAL_NETWORKS,
  type WithdrawalNetwork,
  checkAddress,
} from './withdrawal-address.ts';

/**
 * Withdrawals (spec §3, §4, §5, §9): crypto to an address, or USDT to a linked bank card.
 * The amount and the fee are locked at request; an operator reviews; the funds leave
 * when the transfer is confirmed, or return at once with the reason.
 */

export { WITHDRAWAL_NETWORKS, type WithdrawalNetwork };

/** What can be withdrawn, and on which network (spec §5: deposits are USDT-TRC20; BTC and ETH leave on their own chains). */
export const WITHDRAWAL_ASSETS = ['USDT', 'BTC', 'ETH'] as const;
export type WithdrawalAsset = (typeof WITHDRAWAL_ASSETS)[number];
export const NETWORKS_BY_ASSET: Record<WithdrawalAsset, readonly WithdrawalNetwork[]> = {
  USDT: ['TRC20'],
  BTC: ['BTC'],
  ETH: ['ETH'],
};

/** Card withdrawals pay out USDT's value in the bank's currency; the ledger side is USDT. */
export const CARD_WITHDRAWAL_ASSET = 'USDT' as const;

/**
 * Statuses (spec §4). A request is `under_review`; an operator approves it (`processing`) or
 * rejects it (`review_failed`, funds released at once); a processing transfer ends in
 * `success` (spec "completed"/"success": one final state, the funds have left) or `failed`
 * (funds released at once).
 */
export const WITHDRAWAL_STATUS = {
  UNDER_REVIEW: 'under_review',
  PROCESSING: 'processing',
  SUCCESS: 'success',
  REVIEW_FAILED: 'review_failed',
  FAILED: 'failed',
} as const;
export const WITHDRAWAL_STATUSES = Object.values(WITHDRAWAL_STATUS) as [
  WithdrawalStatus,
  ...WithdrawalStatus[],
];
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUS)[keyof typeof WITHDRAWAL_STATUS];
/** Statuses whose amount + fee are still locked in the user's account. */
export const OPEN_WITHDRAWAL_STATUSES: readonly WithdrawalStatus[] = [
  WITHDRAWAL_STATUS.UNDER_REVIEW,
  WITHDRAWAL_STATUS.PROCESSING,
];
/** The i18n key that labels a status. */
export const withdrawalStatusKey = (status: WithdrawalStatus) => `withdrawal_status.${status}`;

export const WITHDRAWAL_KINDS = ['crypto', 'card'] as const;
export type WithdrawalKind = (typeof WITHDRAWAL_KINDS)[number];

/** spec §9: "A withdrawal should arrive within 12 hours; otherwise contact customer service." */
export const WITHDRAWAL_ARRIVAL_HOURS = 12;

export const withdrawalAssetSchema = z.enum(WITHDRAWAL_ASSETS, {
  error: 'validation.invalid_value',
});

/** A fee as the options showed it (a plain decimal, 0 allowed). */
const feeShownSchema = z
  .string({ error: 'validation.required' })
  .check(z.regex(/^\d{1,30}(\.\d{1,18})?$/, { error: 'validation.amount_format' }));

export const cryptoWithdrawalRequestSchema = z
  .strictObject({
    asset: withdrawalAssetSchema,
    network: z.enum(WITHDRAWAL_NETWORKS, { error: 'validation.invalid_value' }),
    address: z
      .string({ error: 'validation.required' })
      .check(
        z.trim(),
        z.minLength(1, { error: 'validation.required', abort: true }),
        z.maxLength(ADDRESS_MAX_LENGTH, { error: 'validation.address_invalid', abort: true }),
      ),
    amount: amountSchema,
    /** The fee as the user was shown it: if it changed since, the request is refused and nothing is locked. The app always sends it. */
    fee: z.optional(feeShownSchema),
    /** The withdrawal password. */
    password: moneyPasswordInputSchema,
    /** The authenticator code, required once two-factor is on (security centre). */
    totpCode: z.optional(codeSchema),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (!NETWORKS_BY_ASSET[value.asset].includes(value.network)) {
        ctx.addIssue({
          code: 'custom',
          path: ['network'],
          message: 'validation.network_unsupported',
        });
        return;
      }
      const check = checkAddress(value.network, value.address);
      if (!check.ok)
        ctx.addIssue({
          code: 'custom',
          path: ['address'],
          message: ADDRESS_PROBLEM_MESSAGES[check.problem],
        });
    }),
  );
export type CryptoWithdrawalRequest = z.infer<typeof cryptoWithdrawalRequestSchema>;

export const cardWithdrawalRequestSchema = z.strictObject({
  cardId: idSchema,
  amount: amountSchema,
  fee: z.optional(feeShownSchema),
  password: moneyPasswordInputSchema,
  totpCode: z.optional(codeSchema),
});
export type CardWithdrawalRequest = z.infer<typeof cardWithdrawalRequestSchema>;

export const withdrawalSchema = z.object({
  id: z.string(),
  kind: z.enum(WITHDRAWAL_KINDS),
  asset: z.string(),
  network: z.nullable(z.string()),
  address: z.nullable(z.string()),
  /** For card withdrawals: the card as it was linked. */
  card: z.nullable(
    z.object({ bankName: z.string(), accountMasked: z.string(), holderName: z.string() }),
  ),
  /** What arrives. */
  amount: z.string(),
  fee: z.string(),
  /** amount + fee: what left the available balance. */
  total: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  /** The operator's reason for a rejection or a failure. */
  reason: z.nullable(z.string()),
  /** The chain transaction id (or bank reference) once sent. */
  txid: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

export const withdrawalListQuerySchema = z.strictObject({
  kind: z.optional(z.enum(WITHDRAWAL_KINDS, { error: 'validation.invalid_value' })),
  /** Paging: items older than this id. */
  beforeId: z.optional(idSchema),
});
export const WITHDRAWAL_PAGE_SIZE = 20;
export const withdrawalListSchema = z.object({
  items: z.array(withdrawalSchema),
  hasMore: z.boolean(),
});

export const withdrawalDetailQuerySchema = z.strictObject({ id: idSchema });

/** Everything the withdrawal screens need before the user types. */
export const withdrawalOptionsSchema = z.object({
  assets: z.array(
    z.object({
      asset: withdrawalAssetSchema,
      networks: z.array(z.enum(WITHDRAWAL_NETWORKS)),
      /** Decimal places accepted. */
      decimals: z.number().check(z.int()),
      minAmount: z.string(),
      fee: z.string(),
      /** The spot balance available to withdraw (amount + fee must fit). */
      available: z.string(),
      enabled: z.boolean(),
    }),
  ),
  /** KYC passed (spec §5: needed before any withdrawal). */
  verified: z.boolean(),
  withdrawPasswordSet: z.boolean(),
  cards: z.array(
    z.object({
      id: z.string(),
      bankName: z.string(),
      accountMasked: z.string(),
      holderName: z.string(),
    }),
  ),
  arrivalHours: z.number().check(z.int()),
  /** Two-factor is on: every request carries `totpCode`. */
  twoFactorEnabled: z.boolean(),
  /** Set for 24 h after the password or two-factor changed: requests are refused until `until`. */
  withdrawalLock: withdrawalLockSchema,
});
export type WithdrawalOptions = z.infer<typeof withdrawalOptionsSchema>;

/* Operators */

export const withdrawalReviewRequestSchema = z
  .strictObject({
    id: idSchema,
    decision: z.enum(['approve', 'reject'], { error: 'validation.invalid_value' }),
    reason: z.optional(
      z.string().check(z.trim(), z.maxLength(500, { error: 'validation.too_long' })),
    ),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.decision === 'reject' && !value.reason)
        ctx.addIssue({ code: 'custom', path: ['reason'], message: 'validation.reason_required' });
    }),
  );
export type WithdrawalReviewRequest = z.infer<typeof withdrawalReviewRequestSchema>;

export const withdrawalCompleteRequestSchema = z.strictObject({
  id: idSchema,
  /** Chain transaction id (64 hex digits, "0x" allowed on ETH) or, for a card, the bank's reference. */
  txid: z
    .string({ error: 'validation.required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.required', abort: true }),
      z.maxLength(128, { error: 'validation.too_long', abort: true }),
      z.regex(/^[A-Za-z0-9._:/-]+$/, { error: 'validation.txid_format' }),
    ),
});
export type WithdrawalCompleteRequest = z.infer<typeof withdrawalCompleteRequestSchema>;

export const withdrawalFailRequestSchema = z.strictObject({
  id: idSchema,
  reason: z
    .string({ error: 'validation.reason_required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.reason_required' }),
      z.maxLength(500, { error: 'validation.too_long' }),
    ),
});
export type WithdrawalFailRequest = z.infer<typeof withdrawalFailRequestSchema>;

export const withdrawalQueueQuerySchema = z.strictObject({
  status: z.optional(
    z.enum([WITHDRAWAL_STATUS.UNDER_REVIEW, WITHDRAWAL_STATUS.PROCESSING], {
      error: 'validation.invalid_value',
    }),
  ),
  /** Paging, oldest first: items after this id. */
  afterId: z.optional(idSchema),
});

export const adminWithdrawalSchema = z.extend(withdrawalSchema, {
  uid: z.string(),
  user: queueUserSchema,
  /** The full card for the operator who pays it out. */
  cardAccountNumber: z.nullable(z.string()),
  cardBranch: z.nullable(z.string()),
  /** The approver who moved it to processing, or the operator who rejected it. */
  reviewedBy: z.nullable(z.string()),
  /**
   * The amount is above the asset's second-approval threshold (WITHDRAWAL_SECOND_APPROVAL):
   * it goes to processing only once a second, different operator approves it too.
   */
  secondApprovalRequired: z.boolean(),
  /** Under review with one approval given: waiting for a different operator's. */
  awaitingSecondApproval: z.boolean(),
  /** The operator who approved first (null until someone has). */
  firstApprovedBy: z.nullable(z.string()),
  firstApprovedAt: z.nullable(z.iso.datetime()),
  secondApprovedBy: z.nullable(z.string()),
  /** The threshold in force for this asset, in its units ("10000"). */
  secondApprovalThreshold: z.string(),
});
export type AdminWithdrawal = z.infer<typeof adminWithdrawalSchema>;
export const withdrawalQueueSchema = z.object({ items: z.array(adminWithdrawalSchema) });
