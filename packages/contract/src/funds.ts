import * as z from 'zod/mini';
import { ENTRY_TYPES, assetSchema, walletSchema } from './wallet.ts';

/**
 * The user's funds detail is their ledger postings (ARCHITECTURE §5), filtered by type,
 * asset, wallet and a date range of at most 90 days (spec §5's calendar prompt).
 */
export const FUNDS_MAX_RANGE_DAYS = 90;
export const FUNDS_PAGE_SIZE_MAX = 50;
export const FUNDS_PAGE_SIZE_DEFAULT = 20;
/** Largest export; a longer history is exported a date range at a time. */
export const FUNDS_EXPORT_MAX_ROWS = 10_000;

const DAY_MS = 86_400_000;
/** A range of 90 calendar days crosses at most one daylight-saving change: allow its hour. */
const DST_SLACK_MS = 3_600_000;
export const FUNDS_MAX_RANGE_MS = FUNDS_MAX_RANGE_DAYS * DAY_MS + DST_SLACK_MS;

export const XLSX_CONTENT_TYPE =
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const entryTypeSchema = z.enum(ENTRY_TYPES, { error: 'validation.invalid_value' });

const instant = z.iso.datetime({ offset: true, error: 'validation.invalid_format' });

const filterShape = {
  /** Repeated `type` keys (`type=deposit&type=withdraw`) or one. */
  type: z.pipe(
    z.optional(
      z.union([
        entryTypeSchema,
        z
          .array(entryTypeSchema)
          .check(z.maxLength(ENTRY_TYPES.length, { error: 'validation.invalid_value' })),
      ]),
    ),
    z.transform((value) =>
      value === undefined ? undefined : Array.isArray(value) ? value : [value],
    ),
  ),
  asset: z.optional(assetSchema),
  wallet: z.optional(walletSchema),
  /** Inclusive start (ISO 8601). */
  from: z.optional(instant),
  /** Exclusive end (ISO 8601). */
  to: z.optional(instant),
};

function checkRange(
  value: { from?: string | undefined; to?: string | undefined },
  ctx: z.core.$RefinementCtx,
): void {
  if ((value.from === undefined) !== (value.to === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [value.from === undefined ? 'from' : 'to'],
      message: 'validation.range_incomplete',
    });
    return;
  }
  if (value.from === undefined || value.to === undefined) return;
  const span = Date.parse(value.to) - Date.parse(value.from);
  if (!(span > 0))
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.range_order' });
  else if (span > FUNDS_MAX_RANGE_MS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.range_max_days' });
}

export const fundsFilterSchema = z.strictObject(filterShape).check(z.superRefine(checkRange));
export type FundsFilter = z.infer<typeof fundsFilterSchema>;

export const fundsQuerySchema = z
  .strictObject({
    ...filterShape,
    /** The last id of the previous page. */
    cursor: z.optional(
      z.string().check(z.regex(/^\d{1,18}$/, { error: 'validation.invalid_value' })),
    ),
    limit: z._default(
      z.coerce
        .number()
        .check(z.int({ error: 'validation.invalid_value' }), z.gte(1), z.lte(FUNDS_PAGE_SIZE_MAX)),
      FUNDS_PAGE_SIZE_DEFAULT,
    ),
  })
  .check(z.superRefine(checkRange));
export type FundsQuery = z.infer<typeof fundsQuerySchema>;

export const fundsPostingSchema = z.object({
  id: z.string(),
  time: z.iso.datetime(),
  type: entryTypeSchema,
  asset: z.string(),
  wallet: walletSchema,
  /** `locked` postings are funds frozen (or released) inside the same account. */
  bucket: z.enum(['available', 'locked']),
  /** Signed decimal string: negative when funds leave this account and bucket. */
  amount: z.string(),
  /** The entry's memo: a system adjustment's reason, a rejection's reason. */
  memo: z.nullable(z.string()),
  reference: z.string(),
});
export type FundsPosting = z.infer<typeof fundsPostingSchema>;

export const fundsPageSchema = z.object({
  items: z.array(fundsPostingSchema),
  /** Pass as `cursor` for the next page; null at the end ("no more data"). */
  nextCursor: z.nullable(z.string()),
});
export type FundsPage = z.infer<typeof fundsPageSchema>;
