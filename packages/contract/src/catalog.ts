import * as z from 'zod/mini';
import { INSTRUMENT_KINDS, instrumentSymbolSchema } from './market.ts';
import { localizedSchema } from './mining.ts';
import { LOAN_DAILY_RATE_MAX_PPM, LOAN_METHODS } from './loans.ts';
import { parseAmount } from './money.ts';
import { assetSchema } from './wallet.ts';

/**
 * The operator console's catalog (issue 7, "Catalog and content"): instruments, contract
 * periods, assets, card-deposit payee accounts and loan products (miner products are in
 * `mining.ts`). Every save is checked here, refused whole on any bad field, and
 * audit-logged with before and after. Nothing here can write a price: an instrument's
 * marks and name are editable, its prices only come from the feed recorder.
 */

const int = (min: number, max: number) =>
  z
    .number({ error: 'validation.invalid_value' })
    .check(
      z.int({ error: 'validation.invalid_value' }),
      z.gte(min, { error: 'validation.too_small' }),
      z.lte(max, { error: 'validation.too_big' }),
    );
const bool = () => z.boolean({ error: 'validation.invalid_value' });
const sortSchema = int(0, 10_000);
const idSchema = z
  .string({ error: 'validation.required' })
  .check(z.regex(/^[1-9]\d{0,17}$/, { error: 'validation.invalid_value' }));
const plainText = (max: number) =>
  z.string({ error: 'validation.required' }).check(
    z.trim(),
    z.minLength(1, { error: 'validation.required' }),
    z.maxLength(max, { error: 'validation.too_long' }),
    z.refine((value) => !/[<>]/.test(value), { error: 'validation.plain_text' }),
  );
/** A non-negative decimal amount (a fee or a minimum may be 0); the asset's decimals are checked by the server. */
const amountOrZeroSchema = z
  .string({ error: 'validation.required' })
  .check(z.trim(), z.regex(/^\d{1,30}(\.\d{1,18})?$/, { error: 'validation.amount_format' }));
/** Compares two decimal strings exactly (no float). */
export function compareDecimal(a: string, b: string): number {
  const scale = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const x = parseAmount(a, scale) ?? 0n;
  const y = parseAmount(b, scale) ?? 0n;
  return x < y ? -1 : x > y ? 1 : 0;
}
const minNotAboveMax =
  (min: string, max: string) => (value: Record<string, unknown>, ctx: z.core.$RefinementCtx) => {
    const lo = value[min];
    const hi = value[max];
    if (typeof lo === 'string' && typeof hi === 'string' && compareDecimal(lo, hi) > 0) {
      ctx.addIssue({ code: 'custom', path: [min], message: 'validation.min_above_max' });
    }
  };

// ---------------------------------------------------------------------------------------
// Instruments: marks, display name and order. The price scale and kind are fixed by the contract.

export const adminInstrumentSchema = z.object({
  symbol: z.string(),
  kind: z.enum(INSTRUMENT_KINDS),
  base: z.string(),
  quote: z.string(),
  priceScale: z.number().check(z.int()),
  /** The name in the catalogues, in the request's language: shown when no display name is set. */
  defaultName: z.string(),
  displayName: z.nullable(z.string()),
  tradable: z.boolean(),
  recommended: z.boolean(),
  popular: z.boolean(),
  sort: z.number().check(z.int()),
});
export type AdminInstrument = z.infer<typeof adminInstrumentSchema>;
export const adminInstrumentListSchema = z.object({ items: z.array(adminInstrumentSchema) });

/** An instrument's editable settings; there is no price field, and an unknown field is refused. */
export const instrumentSaveSchema = z.strictObject({
  symbol: instrumentSymbolSchema,
  /** Null or empty: the catalogues' name in each language. */
  displayName: z.pipe(
    z.nullable(
      z.string({ error: 'validation.invalid_value' }).check(
        z.trim(),
        z.maxLength(40, { error: 'validation.too_long' }),
        z.refine((value) => !/[<>]/.test(value), { error: 'validation.plain_text' }),
      ),
    ),
    z.transform((value) => (value ? value : null)),
  ),
  tradable: bool(),
  recommended: bool(),
  popular: bool(),
  sort: sortSchema,
});
export type InstrumentSave = z.infer<typeof instrumentSaveSchema>;

// ---------------------------------------------------------------------------------------
// Contract periods. Rates are integers in parts per million, as the contracts module stores
// them (0.85 = 850 000); stakes are USDT decimal strings.

export const PERIOD_MAX_SECONDS = 86_400;
/** A win pays at most stake × (1 + 10): the database allows no more. */
export const PERIOD_PAYOUT_MAX_PPM = 10_000_000;
/** A fee below 100 %. */
export const PERIOD_FEE_MAX_PPM = 999_999;

export const adminPeriodSchema = z.object({
  id: z.string(),
  seconds: z.number().check(z.int()),
  payoutRatePpm: z.number().check(z.int()),
  feeRatePpm: z.number().check(z.int()),
  minStake: z.string(),
  maxStake: z.string(),
  enabled: z.boolean(),
  sort: z.number().check(z.int()),
});
export type AdminPeriod = z.infer<typeof adminPeriodSchema>;
export const adminPeriodListSchema = z.object({ items: z.array(adminPeriodSchema) });

/** Create (no `id`) or edit a period. Orders already placed keep the terms they were placed with. */
export const periodSaveSchema = z
  .strictObject({
    id: z.optional(idSchema),
    seconds: int(1, PERIOD_MAX_SECONDS),
    payoutRatePpm: int(1, PERIOD_PAYOUT_MAX_PPM),
    feeRatePpm: int(0, PERIOD_FEE_MAX_PPM),
    minStake: amountOrZeroSchema.check(
      z.refine((value) => /[1-9]/.test(value), { error: 'validation.amount_positive' }),
    ),
    maxStake: amountOrZeroSchema.check(
      z.refine((value) => /[1-9]/.test(value), { error: 'validation.amount_positive' }),
    ),
    enabled: bool(),
    sort: sortSchema,
  })
  .check(z.superRefine(minNotAboveMax('minStake', 'maxStake')));
export type PeriodSave = z.infer<typeof periodSaveSchema>;

// ---------------------------------------------------------------------------------------
// Assets: deposit and withdrawal switches, the withdrawal fee and minimum, the deposit
// minimum and the confirmations a deposit waits for. Amounts are decimals of the asset.

export const ASSET_MAX_CONFIRMATIONS = 1_000;

export const adminAssetSchema = z.object({
  code: z.string(),
  name: z.string(),
  scale: z.number().check(z.int()),
  depositEnabled: z.boolean(),
  withdrawEnabled: z.boolean(),
  withdrawFee: z.string(),
  withdrawMin: z.string(),
  depositMin: z.string(),
  confirmations: z.number().check(z.int()),
});
export type AdminAsset = z.infer<typeof adminAssetSchema>;
export const adminAssetListSchema = z.object({ items: z.array(adminAssetSchema) });

export const assetSaveSchema = z.strictObject({
  code: assetSchema,
  depositEnabled: bool(),
  withdrawEnabled: bool(),
  withdrawFee: amountOrZeroSchema,
  withdrawMin: amountOrZeroSchema,
  depositMin: amountOrZeroSchema,
  confirmations: int(0, ASSET_MAX_CONFIRMATIONS),
});
export type AssetSave = z.infer<typeof assetSaveSchema>;

// ---------------------------------------------------------------------------------------
// Card-deposit payee accounts: the first enabled one (by sort) is shown to depositing users.

export const adminPayeeAccountSchema = z.object({
  id: z.string(),
  bankName: z.string(),
  accountName: z.string(),
  accountNumber: z.string(),
  phone: z.string(),
  enabled: z.boolean(),
  sort: z.number().check(z.int()),
});
export type AdminPayeeAccount = z.infer<typeof adminPayeeAccountSchema>;
export const adminPayeeAccountListSchema = z.object({ items: z.array(adminPayeeAccountSchema) });

export const payeeAccountSaveSchema = z.strictObject({
  id: z.optional(idSchema),
  bankName: plainText(80),
  accountName: plainText(80),
  /** Digits, spaces and dashes as printed on the card or statement. */
  accountNumber: z
    .string({ error: 'validation.required' })
    .check(z.trim(), z.regex(/^\d[\d -]{5,38}\d$/, { error: 'validation.account_number' })),
  phone: z._default(
    z
      .string({ error: 'validation.invalid_value' })
      .check(z.trim(), z.regex(/^(\+?[\d -]{5,24})?$/, { error: 'validation.phone_invalid' })),
    '',
  ),
  enabled: bool(),
  sort: sortSchema,
});
export type PayeeAccountSave = z.infer<typeof payeeAccountSaveSchema>;

// ---------------------------------------------------------------------------------------
// Loan products. Rates are integers in parts per million a day, as the loans module stores them.

export const LOAN_PERIOD_MAX_DAYS = 3_650;
export const LOAN_OVERDUE_RATE_MAX_PPM = 100_000;

const loanLocalized = z.object({
  en: z.string(),
  zh_CN: z.optional(z.string()),
  zh_TW: z.optional(z.string()),
  de: z.optional(z.string()),
  fr: z.optional(z.string()),
  es: z.optional(z.string()),
  it: z.optional(z.string()),
});

export const adminLoanProductSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: loanLocalized,
  institution: loanLocalized,
  description: loanLocalized,
  minAmount: z.string(),
  maxAmount: z.string(),
  periods: z.array(z.number().check(z.int())),
  dailyRatePpm: z.number().check(z.int()),
  overdueRatePpm: z.number().check(z.int()),
  method: z.enum(LOAN_METHODS),
  enabled: z.boolean(),
  sort: z.number().check(z.int()),
});
export type AdminLoanProduct = z.infer<typeof adminLoanProductSchema>;
export const adminLoanProductListSchema = z.object({ items: z.array(adminLoanProductSchema) });

/** Create (no `id`) or edit a loan product. Loans already applied for keep their terms. */
export const loanProductSaveSchema = z
  .strictObject({
    id: z.optional(idSchema),
    slug: z
      .string({ error: 'validation.required' })
      .check(z.regex(/^[a-z0-9-]{1,64}$/, { error: 'validation.invalid_value' })),
    name: localizedSchema(80),
    institution: localizedSchema(80),
    description: localizedSchema(4000),
    minAmount: amountOrZeroSchema.check(
      z.refine((value) => /[1-9]/.test(value), { error: 'validation.amount_positive' }),
    ),
    maxAmount: amountOrZeroSchema.check(
      z.refine((value) => /[1-9]/.test(value), { error: 'validation.amount_positive' }),
    ),
    periods: z.array(int(1, LOAN_PERIOD_MAX_DAYS), { error: 'validation.invalid_value' }).check(
      z.minLength(1, { error: 'validation.required' }),
      z.maxLength(12, { error: 'validation.too_big' }),
      z.refine((values) => new Set(values).size === values.length, {
        error: 'validation.duplicate_values',
      }),
    ),
    dailyRatePpm: int(1, LOAN_DAILY_RATE_MAX_PPM),
    overdueRatePpm: int(1, LOAN_OVERDUE_RATE_MAX_PPM),
    method: z.enum(LOAN_METHODS, { error: 'validation.invalid_value' }),
    enabled: bool(),
    sort: sortSchema,
  })
  .check(z.superRefine(minNotAboveMax('minAmount', 'maxAmount')));
export type LoanProductSave = z.infer<typeof loanProductSaveSchema>;
