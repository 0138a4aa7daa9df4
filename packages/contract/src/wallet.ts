import * as z from 'zod/mini';
import { amountSchema } from './money.ts';

/**
 * Assets with their fixed scale (minor units per unit = 10^scale). The scale of an asset
 * never changes once it holds money.
 */
export const ASSETS = {
  USDT: { name: 'Tether USD', scale: 6 },
  BTC: { name: 'Bitcoin', scale: 8 },
  ETH: { name: 'Ethereum', scale: 8 },
  BNB: { name: 'BNB', scale: 8 },
  SOL: { name: 'Solana', scale: 8 },
  XRP: { name: 'XRP', scale: 6 },
  DOGE: { name: 'Dogecoin', scale: 8 },
  TRX: { name: 'TRON', scale: 6 },
  LTC: { name: 'Litecoin', scale: 8 },
} as const;
export type AssetCode = keyof typeof ASSETS;
export const ASSET_CODES = Object.keys(ASSETS) as AssetCode[];
export const QUOTE_ASSET: AssetCode = 'USDT';

export function isAssetCode(value: unknown): value is AssetCode {
  return typeof value === 'string' && value in ASSETS;
}

export const assetSchema = z.enum(ASSET_CODES as [AssetCode, ...AssetCode[]], {
  error: 'validation.invalid_value',
});

export const WALLETS = ['spot', 'futures'] as const;
export type Wallet = (typeof WALLETS)[number];
export const walletSchema = z.enum(WALLETS, { error: 'validation.invalid_value' });

/**
 * What a posting is, as the user's funds detail labels it: spec §4's thirteen wallet
 * transaction types, then the reward, mining and loan types.
 */
export const ENTRY_TYPES = [
  'withdraw',
  'deposit',
  'transfer_in',
  'transfer_out',
  'posting_order',
  'execution',
  'withdraw_refund',
  'position_margin',
  'position_close',
  'position_fee',
  'system',
  'order_refund',
  'ieo',
  'conversion',
  'conversion_fee',
  'withdraw_fee',
  'deposit_fee',
  'reward',
  'mining_rent',
  'mining_payout',
  'mining_refund',
  'mining_principal',
  'loan_disbursement',
  'loan_repayment',
  'loan_interest',
  'loan_overdue_interest',
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

export const spotBalanceSchema = z.object({
  asset: z.string(),
  available: z.string(),
  locked: z.string(),
  /** Null when no recent price is recorded for the asset. */
  valueUsdt: z.nullable(z.string()),
});
export type SpotBalance = z.infer<typeof spotBalanceSchema>;

export const balancesSchema = z.object({
  spot: z.array(spotBalanceSchema),
  futures: z.object({
    asset: z.literal('USDT'),
    total: z.string(),
    available: z.string(),
    locked: z.string(),
    /** Stakes in open contracts (the locked part that trades). */
    tradingAssets: z.string(),
    floatingPnl: z.string(),
  }),
  /** Sum of the valued balances in USDT; assets without a price are left out and listed. */
  totalUsdt: z.string(),
  unpricedAssets: z.array(z.string()),
});
export type Balances = z.infer<typeof balancesSchema>;

export const transferRequestSchema = z
  .strictObject({
    from: walletSchema,
    to: walletSchema,
    asset: z.literal('USDT', { error: 'validation.transfer_asset' }),
    amount: amountSchema,
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.from === value.to)
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.transfer_same_account' });
    }),
  );
export type TransferRequest = z.infer<typeof transferRequestSchema>;

export const transferResponseSchema = z.object({
  entryId: z.string(),
  balances: balancesSchema,
});
