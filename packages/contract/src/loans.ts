import * as z from 'zod/mini';
import { amountSchema } from './money.ts';
import { decisionSchema, queueUserSchema } from './operator.ts';

/**
 * Assisted loans (spec /Loan, /LoansHistory). A verified user applies for a product's
 * amount and period with ID photos; an operator approves (or rejects with a reason), then
 * marks it disbursed, which credits the amount to spot USDT from `house:loans`. Interest
 * accrues on the whole principal from disbursement, by whole days started; the principal
 * and the interest to date are repaid together, at maturity or earlier. After maturity
 * the loan is overdue: each full day adds overdue interest, once, from the clock.
 * One unsettled loan (under review, pending disbursement, disbursed, overdue) per user.
 */

/** spec §4 loan statuses. The i18n key is `loans.status.<name>`. */
export const LOAN_STATUS = {
  under_review: 0,
  pending_disbursement: 1,
  disbursed: 2,
  repaid: 3,
  rejected: 4,
  overdue: 5,
} as const;
export type LoanStatus = keyof typeof LOAN_STATUS;
export const LOAN_STATUSES = Object.keys(LOAN_STATUS) as LoanStatus[];
/** The statuses that block a new application ("current loan unsettled"). */
export const LOAN_UNSETTLED_STATUSES: readonly LoanStatus[] = [
  'under_review',
  'pending_disbursement',
  'disbursed',
  'overdue',
];

export function loanStatusName(code: number): LoanStatus {
  const name = LOAN_STATUSES.find((n) => LOAN_STATUS[n] === code);
  if (!name) throw new Error(`unknown loan status ${code}`);
  return name;
}

/**
 * Repayment methods. Only interest-first exists: interest accrues daily and is paid with
 * the principal, which is due at maturity. Equal instalments are not offered yet.
 */
export const LOAN_METHODS = ['interest_first'] as const;
export type LoanMethod = (typeof LOAN_METHODS)[number];

export const LOAN_ASSET = 'USDT' as const;
export const LOAN_DAY_MS = 86_400_000;
export const LOAN_PAGE_SIZE = 20;
export const LOAN_PRODUCTS_MAX = 50;
/** Daily rates in parts per million: 500 is 0.05 % a day. */
export const LOAN_DAILY_RATE_MAX_PPM = 10_000;
/** A loan overdue longer than this stops accruing (the operator follows it up by hand). */
export const LOAN_OVERDUE_MAX_DAYS = 365;

/** Interest over `days` on `amountMinor` at `ratePpm` a day, rounded up (rounding favours the house). */
export function interestOf(amountMinor: bigint, ratePpm: number, days: number): bigint {
  const numerator = amountMinor * BigInt(ratePpm) * BigInt(days);
  return (numerator + 999_999n) / 1_000_000n;
}

/** A ppm rate as a decimal fraction string: 500 → "0.0005". */
export function loanRateText(ppm: number): string {
  const whole = Math.floor(ppm / 1_000_000);
  const frac = String(ppm % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

const idSchema = z
  .string({ error: 'validation.required' })
  .check(z.regex(/^[1-9]\d{0,17}$/, { error: 'validation.invalid_value' }));

export const loanProductSchema = z.object({
  id: z.string(),
  name: z.string(),
  institution: z.string(),
  asset: z.literal(LOAN_ASSET),
  minAmount: z.string(),
  maxAmount: z.string(),
  periods: z.array(z.number().check(z.int(), z.positive())),
  dailyRate: z.string(),
  overdueDailyRate: z.string(),
  method: z.enum(LOAN_METHODS),
  description: z.string(),
});
export type LoanProduct = z.infer<typeof loanProductSchema>;
export const loanProductListSchema = z.object({ items: z.array(loanProductSchema) });

export const loanApplyRequestSchema = z.strictObject({
  productId: idSchema,
  amount: amountSchema,
  periodDays: z.coerce
    .number({ error: 'validation.invalid_value' })
    .check(
      z.int({ error: 'validation.invalid_value' }),
      z.gte(1, { error: 'validation.too_small' }),
      z.lte(3650, { error: 'validation.too_big' }),
    ),
  frontFileId: idSchema,
  backFileId: idSchema,
  holdingFileId: idSchema,
});
export type LoanApplyRequest = z.infer<typeof loanApplyRequestSchema>;

export const loanSchema = z.object({
  id: z.string(),
  productId: z.string(),
  productName: z.string(),
  institution: z.string(),
  status: z.enum(LOAN_STATUSES as [LoanStatus, ...LoanStatus[]]),
  asset: z.literal(LOAN_ASSET),
  amount: z.string(),
  /** The amount disbursed (null until approved). */
  approvedAmount: z.nullable(z.string()),
  periodDays: z.number().check(z.int(), z.positive()),
  dailyRate: z.string(),
  overdueDailyRate: z.string(),
  method: z.enum(LOAN_METHODS),
  /** Interest over the whole period. */
  interest: z.string(),
  /** Interest owed now (days started since disbursement, at most the period). */
  interestToDate: z.string(),
  overdueDays: z.number().check(z.int(), z.nonnegative()),
  overdueInterest: z.string(),
  /** What a repayment now would debit: principal + interest to date + overdue interest (0 unless disbursed or overdue). */
  dueNow: z.string(),
  repaidAmount: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
  disbursedAt: z.nullable(z.iso.datetime()),
  dueAt: z.nullable(z.iso.datetime()),
  repaidAt: z.nullable(z.iso.datetime()),
});
export type Loan = z.infer<typeof loanSchema>;
export const loanListSchema = z.object({
  items: z.array(loanSchema),
  nextCursor: z.nullable(z.string()),
});
export type LoanList = z.infer<typeof loanListSchema>;
export const loanListQuerySchema = z.strictObject({ cursor: z.optional(idSchema) });
export const loanQuerySchema = z.strictObject({ id: idSchema });
export const loanRepayRequestSchema = z.strictObject({ id: idSchema });

// Operator side.

export const loanDecideRequestSchema = z
  .strictObject({ id: idSchema, ...decisionSchema.shape })
  .check(
    z.superRefine((value, ctx) => {
      if (value.decision === 'reject' && !value.reason)
        ctx.addIssue({ code: 'custom', path: ['reason'], message: 'validation.reason_required' });
    }),
  );
export type LoanDecideRequest = z.infer<typeof loanDecideRequestSchema>;
export const loanDisburseRequestSchema = z.strictObject({ id: idSchema });
export const loanQueueItemSchema = z.extend(loanSchema, {
  uid: z.string(),
  user: queueUserSchema,
  frontFileId: z.string(),
  backFileId: z.string(),
  holdingFileId: z.string(),
});
export const loanQueueSchema = z.object({
  items: z.array(loanQueueItemSchema),
  nextCursor: z.nullable(z.string()),
});
export const loanQueueQuerySchema = z.strictObject({ cursor: z.optional(idSchema) });
