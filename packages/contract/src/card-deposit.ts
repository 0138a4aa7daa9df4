import * as z from 'zod/mini';
import { fileIdSchema } from './files.ts';
import { amountSchema, divCeil, formatAmount, parseAmount } from './money.ts';
import { decisionSchema, queueUserSchema } from './operator.ts';
import { ASSETS } from './wallet.ts';

/**
 * Bank-card deposits (spec §3 Card deposit, §4 Deposit statuses). The user pays the payee
 * account shown, then reports the amount with a payment screenshot; nothing moves until an
 * operator confirms the payment (the actual amount is credited, the fee goes to the house)
 * or rejects it with a reason the user sees.
 */

export const CARD_DEPOSIT_ASSET = 'USDT' as const;
const SCALE = ASSETS[CARD_DEPOSIT_ASSET].scale;

export const CARD_DEPOSIT_STATUSES = ['pending', 'paid', 'rejected'] as const;
export type CardDepositStatus = (typeof CARD_DEPOSIT_STATUSES)[number];
export const cardDepositStatusSchema = z.enum(CARD_DEPOSIT_STATUSES);

/** spec §4: pending payment, paid, rejected. */
export const CARD_DEPOSIT_STATUS_LABELS: Record<CardDepositStatus, string> = {
  pending: 'card_deposit.status.pending',
  paid: 'card_deposit.status.paid',
  rejected: 'card_deposit.status.rejected',
};

/** A user may have at most this many deposits waiting for review. */
export const MAX_PENDING_CARD_DEPOSITS = 5;
export const BPS_DENOMINATOR = 10_000n;

/** The fee in minor units, rounded up: the house never gives away a fraction. */
export function cardDepositFee(amountMinor: bigint, feeBps: number): bigint {
  return divCeil(amountMinor * BigInt(feeBps), BPS_DENOMINATOR);
}

export interface CardDepositQuote {
  amountMinor: bigint;
  feeMinor: bigint;
  actualMinor: bigint;
  amount: string;
  fee: string;
  actualAmount: string;
}

/** What the user will receive for an amount typed as text; undefined when the text is not a valid amount. */
export function quoteCardDeposit(amountText: string, feeBps: number): CardDepositQuote | undefined {
  const amountMinor = parseAmount(amountText.trim(), SCALE);
  if (amountMinor === undefined || amountMinor <= 0n) return undefined;
  const feeMinor = cardDepositFee(amountMinor, feeBps);
  const actualMinor = amountMinor - feeMinor;
  return {
    amountMinor,
    feeMinor,
    actualMinor,
    amount: formatAmount(amountMinor, SCALE),
    fee: formatAmount(feeMinor, SCALE),
    actualAmount: formatAmount(actualMinor, SCALE),
  };
}

export const payeeSchema = z.object({
  bank: z.string(),
  cardNumber: z.string(),
  name: z.string(),
  phone: z.string(),
});
export type Payee = z.infer<typeof payeeSchema>;

/** `GET /api/v1/card-deposits/config`: where to pay and the fee rule, or unavailable. */
export const cardDepositConfigSchema = z.object({
  available: z.boolean(),
  /** Demo payee: clearly fake, nobody should send real money to it. */
  demo: z.boolean(),
  asset: z.literal(CARD_DEPOSIT_ASSET),
  payee: z.nullable(payeeSchema),
  feeBps: z.number().check(z.int()),
  minAmount: z.string(),
  maxAmount: z.string(),
});
export type CardDepositConfig = z.infer<typeof cardDepositConfigSchema>;

export const cardDepositRequestSchema = z.strictObject({
  amount: amountSchema,
  screenshotFileId: fileIdSchema,
});
export type CardDepositRequest = z.infer<typeof cardDepositRequestSchema>;

export const cardDepositSchema = z.object({
  id: z.string(),
  status: cardDepositStatusSchema,
  asset: z.literal(CARD_DEPOSIT_ASSET),
  amount: z.string(),
  fee: z.string(),
  actualAmount: z.string(),
  /** The account the user was shown when they reported the payment. */
  payee: payeeSchema,
  screenshotFileId: z.string(),
  /** Why it was rejected; null unless rejected. */
  reason: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
  decidedAt: z.nullable(z.iso.datetime()),
});
export type CardDeposit = z.infer<typeof cardDepositSchema>;

const idSchema = z
  .string({ error: 'validation.required' })
  .check(z.regex(/^\d{1,18}$/, { error: 'validation.invalid_value' }));

export const CARD_DEPOSIT_PAGE_SIZE = 20;

/** Newest first; `cursor` is the `nextCursor` of the previous page. */
export const cardDepositListQuerySchema = z.strictObject({ cursor: z.optional(idSchema) });
export const cardDepositListSchema = z.object({
  items: z.array(cardDepositSchema),
  nextCursor: z.nullable(z.string()),
});

export const cardDepositDecideRequestSchema = z
  .strictObject({ id: idSchema, ...decisionSchema.shape })
  .check(
    z.superRefine((value, ctx) => {
      if (value.decision === 'reject' && !value.reason)
        ctx.addIssue({ code: 'custom', path: ['reason'], message: 'validation.reason_required' });
    }),
  );

export const cardDepositQueueItemSchema = z.extend(cardDepositSchema, {
  uid: z.string(),
  user: queueUserSchema,
});
export const cardDepositQueueSchema = z.object({
  items: z.array(cardDepositQueueItemSchema),
  nextCursor: z.nullable(z.string()),
});
export const cardDepositQueueQuerySchema = z.strictObject({ cursor: z.optional(idSchema) });
