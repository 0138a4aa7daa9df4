import * as z from 'zod/mini';
import { amountSchema } from './money.ts';
import { decisionSchema, queueUserSchema } from './operator.ts';

/**
 * Cloud-miner rental (spec /Mining, /MiningInfo, /MiningHis, /MiningDetail). A rental is
 * paid from the spot USDT account when it is made; under review it can be rejected (the
 * payment comes back) or approved (it becomes active). Each day of its period the fixed
 * daily yield is credited once; at the end the principal is returned and it completes.
 */

/** spec §4 miner statuses, by their codes 0–3. The i18n key is `mining.status.<name>`. */
export const MINING_RENTAL_STATUS = {
  under_review: 0,
  active: 1,
  completed: 2,
  rejected: 3,
} as const;
export type MiningRentalStatus = keyof typeof MINING_RENTAL_STATUS;
export const MINING_RENTAL_STATUSES = Object.keys(MINING_RENTAL_STATUS) as MiningRentalStatus[];
export type MiningRentalStatusCode = (typeof MINING_RENTAL_STATUS)[MiningRentalStatus];

export function miningStatusName(code: number): MiningRentalStatus {
  const name = MINING_RENTAL_STATUSES.find((n) => MINING_RENTAL_STATUS[n] === code);
  if (!name) throw new Error(`unknown mining rental status ${code}`);
  return name;
}

/** Rentals are paid, paid out and returned in USDT; a product's output coin is what its miners mine. */
export const MINING_ASSET = 'USDT' as const;
/** A rental's period is counted in whole days of this length (MINING_DAY_SECONDS may shorten it in demo mode only). */
export const MINING_DAY_MS = 86_400_000;
/** Rentals under review or active one user may hold at once. */
export const MINING_MAX_OPEN_RENTALS = 20;
export const MINING_PAGE_SIZE = 20;
export const MINING_PRODUCTS_MAX = 100;
export const MINING_PERIOD_MAX_DAYS = 3_650;
/** The daily rate in parts per million: 3000 is 0.3 % a day. */
export const MINING_DAILY_RATE_MAX_PPM = 100_000;

const idSchema = z
  .string({ error: 'validation.required' })
  .check(z.regex(/^[1-9]\d{0,17}$/, { error: 'validation.invalid_value' }));

export const miningProductSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The coin the miners mine (display): payouts are in USDT at the fixed daily rate. */
  output: z.string(),
  hashrate: z.string(),
  power: z.string(),
  periodDays: z.number().check(z.int(), z.positive()),
  asset: z.literal(MINING_ASSET),
  unitPrice: z.string(),
  minInvestment: z.string(),
  maxQuantity: z.number().check(z.int(), z.positive()),
  /** Fraction per day as a decimal string ("0.003" is 0.3 %). */
  dailyRate: z.string(),
  /** What one unit earns a day, rounded down. */
  dailyYieldPerUnit: z.string(),
  /** Plain text in the request's language: terms, costs and risks (paragraphs split by blank lines). */
  description: z.string(),
  enabled: z.boolean(),
});
export type MiningProduct = z.infer<typeof miningProductSchema>;
export const miningProductListSchema = z.object({
  items: z.array(miningProductSchema),
  /** Rentals start at once, without review (MINING_AUTO_APPROVE): what the rent sheet tells the user. */
  autoApprove: z.boolean(),
});
export type MiningProductList = z.infer<typeof miningProductListSchema>;
export const miningProductQuerySchema = z.strictObject({ id: idSchema });

export const rentRequestSchema = z.strictObject({
  productId: idSchema,
  quantity: z.coerce
    .number({ error: 'validation.invalid_value' })
    .check(
      z.int({ error: 'validation.invalid_value' }),
      z.gte(1, { error: 'validation.too_small' }),
      z.lte(1_000_000, { error: 'validation.too_big' }),
    ),
  /** What the user agreed to pay (quantity × unit price as shown); a different price is refused. */
  amount: amountSchema,
});
export type RentRequest = z.infer<typeof rentRequestSchema>;

export const miningPayoutSchema = z.object({
  day: z.number().check(z.int(), z.positive()),
  amount: z.string(),
  paidAt: z.iso.datetime(),
});
export type MiningPayout = z.infer<typeof miningPayoutSchema>;

export const miningRentalSchema = z.object({
  id: z.string(),
  productId: z.string(),
  productName: z.string(),
  output: z.string(),
  status: z.enum(MINING_RENTAL_STATUSES as [MiningRentalStatus, ...MiningRentalStatus[]]),
  statusCode: z.number().check(z.int(), z.gte(0), z.lte(3)),
  asset: z.literal(MINING_ASSET),
  quantity: z.number().check(z.int(), z.positive()),
  unitPrice: z.string(),
  amount: z.string(),
  dailyRate: z.string(),
  dailyYield: z.string(),
  periodDays: z.number().check(z.int(), z.positive()),
  /** The yield over the whole period (daily yield × days), the principal not included. */
  totalProfit: z.string(),
  paidOut: z.string(),
  paidDays: z.number().check(z.int(), z.nonnegative()),
  /** Returned at completion; true once it was. */
  principalReturned: z.boolean(),
  reason: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
  startedAt: z.nullable(z.iso.datetime()),
  endsAt: z.nullable(z.iso.datetime()),
  nextPayoutAt: z.nullable(z.iso.datetime()),
  completedAt: z.nullable(z.iso.datetime()),
});
export type MiningRental = z.infer<typeof miningRentalSchema>;

export const miningRentalDetailSchema = z.extend(miningRentalSchema, {
  payouts: z.array(miningPayoutSchema),
});
export type MiningRentalDetail = z.infer<typeof miningRentalDetailSchema>;

/** /MiningHis tabs. */
export const MINING_HISTORY_TABS = ['active', 'completed', 'all'] as const;
export type MiningHistoryTab = (typeof MINING_HISTORY_TABS)[number];
export const miningRentalListQuerySchema = z.strictObject({
  tab: z._default(z.enum(MINING_HISTORY_TABS, { error: 'validation.invalid_value' }), 'all'),
  cursor: z.optional(idSchema),
});
export const miningRentalListSchema = z.object({
  items: z.array(miningRentalSchema),
  nextCursor: z.nullable(z.string()),
});
export type MiningRentalList = z.infer<typeof miningRentalListSchema>;
export const miningRentalQuerySchema = z.strictObject({ id: idSchema });

// Operator side.

export const miningDecideRequestSchema = z
  .strictObject({ id: idSchema, ...decisionSchema.shape })
  .check(
    z.superRefine((value, ctx) => {
      if (value.decision === 'reject' && !value.reason)
        ctx.addIssue({ code: 'custom', path: ['reason'], message: 'validation.reason_required' });
    }),
  );
export type MiningDecideRequest = z.infer<typeof miningDecideRequestSchema>;

export const miningQueueItemSchema = z.extend(miningRentalSchema, {
  uid: z.string(),
  user: queueUserSchema,
});
export const miningQueueSchema = z.object({
  items: z.array(miningQueueItemSchema),
  nextCursor: z.nullable(z.string()),
});
export const miningQueueQuerySchema = z.strictObject({ cursor: z.optional(idSchema) });

const text = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.required' }),
      z.maxLength(max, { error: 'validation.too_long' }),
    );
/** Plain text (tags are refused rather than stored, so nothing is ever rendered as HTML). */
const plain = (max: number) =>
  text(max).check(z.refine((value) => !/[<>]/.test(value), { error: 'validation.plain_text' }));
/** Plain text per language; `en` is required and stands in for a missing one. */
export const localizedSchema = (max: number) =>
  z.strictObject({
    en: plain(max),
    zh_CN: z.optional(plain(max)),
    zh_TW: z.optional(plain(max)),
    de: z.optional(plain(max)),
    fr: z.optional(plain(max)),
    es: z.optional(plain(max)),
    it: z.optional(plain(max)),
  });

/** Create (no `id`) or edit (with `id`) a product; an edit never changes existing rentals, which keep the terms they were rented at. */
export const miningProductInputSchema = z.strictObject({
  id: z.optional(idSchema),
  slug: z
    .string({ error: 'validation.required' })
    .check(z.regex(/^[a-z0-9-]{1,64}$/, { error: 'validation.invalid_value' })),
  name: localizedSchema(80),
  description: localizedSchema(4000),
  output: z
    .string({ error: 'validation.required' })
    .check(z.regex(/^[A-Z0-9]{2,10}$/, { error: 'validation.invalid_value' })),
  hashrate: plain(40),
  power: plain(40),
  periodDays: z
    .number({ error: 'validation.invalid_value' })
    .check(
      z.int({ error: 'validation.invalid_value' }),
      z.gte(1, { error: 'validation.too_small' }),
      z.lte(MINING_PERIOD_MAX_DAYS, { error: 'validation.too_big' }),
    ),
  unitPrice: amountSchema,
  minInvestment: amountSchema,
  maxQuantity: z
    .number({ error: 'validation.invalid_value' })
    .check(
      z.int({ error: 'validation.invalid_value' }),
      z.gte(1, { error: 'validation.too_small' }),
      z.lte(1_000_000, { error: 'validation.too_big' }),
    ),
  dailyRatePpm: z
    .number({ error: 'validation.invalid_value' })
    .check(
      z.int({ error: 'validation.invalid_value' }),
      z.gte(1, { error: 'validation.too_small' }),
      z.lte(MINING_DAILY_RATE_MAX_PPM, { error: 'validation.too_big' }),
    ),
  enabled: z._default(z.boolean({ error: 'validation.invalid_value' }), true),
  sort: z._default(
    z.number({ error: 'validation.invalid_value' }).check(z.int(), z.gte(0), z.lte(10_000)),
    0,
  ),
});
export type MiningProductInput = z.infer<typeof miningProductInputSchema>;
const localizedTextSchema = z.catchall(z.object({ en: z.string() }), z.optional(z.string()));
/** The console's view: the terms plus the texts in every language, so an edit starts from what is stored. */
export const miningAdminProductSchema = z.extend(miningProductSchema, {
  slug: z.string(),
  dailyRatePpm: z.number().check(z.int()),
  sort: z.number().check(z.int()),
  texts: z.object({ name: localizedTextSchema, description: localizedTextSchema }),
});
export const miningAdminProductListSchema = z.object({ items: z.array(miningAdminProductSchema) });

/** The yield one day pays: amount × rate, rounded down (the house's side). */
export function dailyYieldOf(amountMinor: bigint, dailyRatePpm: number): bigint {
  return (amountMinor * BigInt(dailyRatePpm)) / 1_000_000n;
}

/** "0.003" from 3000 ppm. */
export function rateText(ppm: number): string {
  const digits = String(ppm).padStart(7, '0');
  const fraction = digits.slice(-6).replace(/0+$/, '');
  const whole = digits.slice(0, -6).replace(/^0+(?=\d)/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
