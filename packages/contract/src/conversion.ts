import * as z from 'zod/mini';
import { amountSchema } from './money.ts';
import { QUOTE_ASSET, assetSchema, balancesSchema } from './wallet.ts';

/** A quote holds for ten seconds; after that it can only be refreshed, never executed. */
export const QUOTE_TTL_MS = 10_000;

/** Quote ids are 22 random base64url characters (128 bits): not guessable, not enumerable. */
export const quoteIdSchema = z
  .string({ error: 'validation.required' })
  .check(z.regex(/^[A-Za-z0-9_-]{22}$/, { error: 'validation.invalid_value' }));

/**
 * What to convert: `amount` of `from` (what the user pays). Spec §5: only between a coin
 * and USDT, never directly between two coins.
 */
export const quoteRequestSchema = z
  .strictObject({
    from: assetSchema,
    to: assetSchema,
    amount: amountSchema,
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.from === value.to)
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.convert_same_asset' });
      else if (value.from !== QUOTE_ASSET && value.to !== QUOTE_ASSET)
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.convert_via_usdt' });
    }),
  );
export type QuoteRequest = z.infer<typeof quoteRequestSchema>;

export const quoteSchema = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  /** What the user pays, in `from`. */
  amount: z.string(),
  /** USDT per one coin: the recorded tick's price, unchanged. */
  rate: z.string(),
  /** The fee, always in USDT, rounded up. */
  fee: z.string(),
  feeAsset: z.literal('USDT'),
  feeBps: z.number().check(z.int()),
  /** What the user receives, in `to`, rounded down. */
  receive: z.string(),
  expiresAt: z.iso.datetime(),
  /** The tick the rate comes from: its time and source. */
  priceTime: z.iso.datetime(),
  source: z.string(),
  sourceLabel: z.string(),
});
export type Quote = z.infer<typeof quoteSchema>;

export const convertRequestSchema = z.strictObject({ quoteId: quoteIdSchema });
export type ConvertRequest = z.infer<typeof convertRequestSchema>;

export const convertResponseSchema = z.object({
  entryId: z.string(),
  quote: quoteSchema,
  balances: balancesSchema,
});
export type ConvertResponse = z.infer<typeof convertResponseSchema>;
