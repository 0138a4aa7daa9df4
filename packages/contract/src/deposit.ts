import * as z from 'zod/mini';
import { amountSchema } from './money.ts';

/**
 * Crypto deposits (spec §5, §9: "USDT on the TRC20 network only"). Each user has one
 * deposit address on TRON, derived from the operator's extended public key; a chain
 * watcher records incoming USDT transfers and credits each one once, after enough blocks.
 */

export const DEPOSIT_ASSET = 'USDT' as const;
export const DEPOSIT_NETWORK = 'TRC20' as const;

/** Spec §4 "Deposit: pending payment, paid, rejected", each with its message key. */
export const DEPOSIT_STATUSES = ['pending_payment', 'paid', 'rejected'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];
export const DEPOSIT_STATUS_KEYS: Record<DepositStatus, string> = {
  pending_payment: 'deposit_status.pending_payment',
  paid: 'deposit_status.paid',
  rejected: 'deposit_status.rejected',
};

/** Why a transfer was not credited; shown to its owner in their language. */
export const DEPOSIT_REJECT_REASONS = ['below_minimum', 'unknown_address'] as const;
export type DepositRejectReason = (typeof DEPOSIT_REJECT_REASONS)[number];
export const DEPOSIT_REJECT_REASON_KEYS: Record<DepositRejectReason, string> = {
  below_minimum: 'deposit_reason.below_minimum',
  unknown_address: 'deposit_reason.unknown_address',
};

/** A TRON address as typed: 34 base58 characters starting with T (the checksum is checked by the server). */
export const TRON_ADDRESS_PATTERN = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

export const tronAddressSchema = z
  .string({ error: 'validation.required' })
  .check(z.trim(), z.regex(TRON_ADDRESS_PATTERN, { error: 'validation.tron_address' }));

/** `GET /api/v1/deposit/address`: the caller's own address, created on the first call. */
export const depositAddressSchema = z.object({
  asset: z.literal(DEPOSIT_ASSET),
  network: z.literal(DEPOSIT_NETWORK),
  address: z.string(),
  /** Smallest transfer that is credited; smaller ones are rejected (decimal string). */
  minDeposit: z.string(),
  /** Blocks a transfer needs before it is credited. */
  confirmations: z.number().check(z.int()),
  /**
   * True when deposits come from the simulated chain of demo mode, and the address
   * belongs to the public demo key: nothing real may be sent to it.
   */
  simulated: z.boolean(),
});
export type DepositAddress = z.infer<typeof depositAddressSchema>;

export const DEPOSIT_PAGE_MAX = 50;

export const depositHistoryQuerySchema = z.strictObject({
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
        z.lte(DEPOSIT_PAGE_MAX, { error: 'validation.too_big' }),
      ),
    20,
  ),
});
export type DepositHistoryQuery = z.infer<typeof depositHistoryQuerySchema>;

export const depositSchema = z.object({
  id: z.string(),
  asset: z.literal(DEPOSIT_ASSET),
  network: z.literal(DEPOSIT_NETWORK),
  amount: z.string(),
  status: z.enum(DEPOSIT_STATUSES),
  /** Set when rejected. */
  reason: z.nullable(z.enum(DEPOSIT_REJECT_REASONS)),
  txid: z.string(),
  /** Blocks seen so far, at most `requiredConfirmations`. */
  confirmations: z.number().check(z.int()),
  requiredConfirmations: z.number().check(z.int()),
  createdAt: z.iso.datetime(),
  creditedAt: z.nullable(z.iso.datetime()),
});
export type Deposit = z.infer<typeof depositSchema>;

export const depositHistorySchema = z.object({
  items: z.array(depositSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type DepositHistory = z.infer<typeof depositHistorySchema>;

/** Demo mode only: `POST /api/v1/dev/chain/transfer` puts a USDT transfer on the simulated chain. */
export const devChainTransferRequestSchema = z.strictObject({
  address: tronAddressSchema,
  amount: amountSchema,
});
export type DevChainTransferRequest = z.infer<typeof devChainTransferRequestSchema>;

export const devChainTransferSchema = z.object({
  txid: z.string(),
  logIndex: z.number().check(z.int()),
  blockNumber: z.number().check(z.int()),
  address: z.string(),
  amount: z.string(),
});

/** Demo mode only: `POST /api/v1/dev/chain/mine` moves the simulated chain forward. */
export const devChainMineRequestSchema = z.strictObject({
  blocks: z
    .number({ error: 'validation.invalid_type' })
    .check(
      z.int({ error: 'validation.invalid_value' }),
      z.gte(1, { error: 'validation.too_small' }),
      z.lte(1000, { error: 'validation.too_big' }),
    ),
});

export const devChainHeightSchema = z.object({ blockNumber: z.number().check(z.int()) });
