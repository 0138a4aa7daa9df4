import * as z from 'zod/mini';
import { DIRECTIONS, OUTCOMES } from './instant.ts';
import { INSTRUMENTS } from './market.ts';
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

/*
 * The funds detail by event (issue 32): one row per ledger entry as it touches the user, its
 * description made from the entry's kind and what its reference names (the order's
 * instrument, direction and outcome; the IEO project's token), never the raw reference.
 */

/** What an event was. Entry kinds the server does not know (yet) arrive as `other`. */
export const FUNDS_EVENT_KINDS = [
  'contract_open',
  'contract_settle',
  'deposit',
  'card_deposit',
  'withdrawal_request',
  'withdrawal_complete',
  'withdrawal_refund',
  'transfer',
  'conversion',
  'bonus_code',
  'reward',
  'mining_rent',
  'mining_refund',
  'mining_payout',
  'mining_principal',
  'loan_disbursement',
  'loan_repayment',
  'ieo_subscribe',
  'ieo_allocation',
  'ieo_listing',
  'ieo_cancel',
  'adjustment',
  'demo_funding',
  'other',
] as const;
export type FundsEventKind = (typeof FUNDS_EVENT_KINDS)[number];

export const fundsEventPostingSchema = z.object({
  id: z.string(),
  type: entryTypeSchema,
  asset: z.string(),
  wallet: walletSchema,
  bucket: z.enum(['available', 'locked']),
  /** Signed decimal string. */
  amount: z.string(),
});
export type FundsEventPosting = z.infer<typeof fundsEventPostingSchema>;

/** The event's net effect on one of the user's accounts (a wallet and an asset). */
export const fundsEventChangeSchema = z.object({
  asset: z.string(),
  wallet: walletSchema,
  /** Available and locked summed: what the account's total moved by (signed decimal). */
  amount: z.string(),
  /** What the locked part moved by: positive when funds were frozen, negative when released. */
  locked: z.string(),
});
export type FundsEventChange = z.infer<typeof fundsEventChangeSchema>;

export const fundsEventSchema = z.object({
  /** The ledger entry's id. */
  id: z.string(),
  time: z.iso.datetime(),
  kind: z.enum(FUNDS_EVENT_KINDS),
  /** For an instant contract's entries: which order. */
  order: z.nullable(
    z.object({
      instrument: z.string(),
      direction: z.enum(DIRECTIONS),
      /** Null until settled. */
      outcome: z.nullable(z.enum(OUTCOMES)),
    }),
  ),
  /** For an IEO entry: the project's token. */
  token: z.nullable(z.string()),
  /** One per account the event moved; none when its legs cancel out within each account. */
  changes: z.array(fundsEventChangeSchema),
  /** The user's own postings of the entry, in the order they were written. */
  postings: z.array(fundsEventPostingSchema),
  memo: z.nullable(z.string()),
  reference: z.string(),
});
export type FundsEvent = z.infer<typeof fundsEventSchema>;

export const fundsEventsPageSchema = z.object({
  items: z.array(fundsEventSchema),
  /** Pass as `cursor` for the next page; null at the end ("no more data"). */
  nextCursor: z.nullable(z.string()),
});
export type FundsEventsPage = z.infer<typeof fundsEventsPageSchema>;

/** A pair as people write it: BTCUSDT → BTC/USDT. */
export function pairLabel(instrument: string): string {
  const known = (INSTRUMENTS as Record<string, { base: string; quote: string } | undefined>)[
    instrument
  ];
  return known ? `${known.base}/${known.quote}` : instrument;
}

type Translate = (key: string, params?: Record<string, string>) => string;

const distinct = <T>(values: T[]) => [...new Set(values)];

/**
 * The event's one-line description in the language `t` speaks: the web list and the export
 * both say it with this, from the shared catalogue's `funds_events` keys.
 */
export function describeFundsEvent(
  event: Pick<FundsEvent, 'kind' | 'order' | 'token' | 'postings'>,
  t: Translate,
): string {
  const e = (key: string, params?: Record<string, string>) => t(`funds_events.${key}`, params);
  const { order } = event;
  if ((event.kind === 'contract_open' || event.kind === 'contract_settle') && order) {
    const what = e('order', {
      pair: pairLabel(order.instrument),
      direction: e(`direction_${order.direction}`),
    });
    const step =
      event.kind === 'contract_open' || !order.outcome ? 'placed' : `outcome_${order.outcome}`;
    return e('with_step', { what, step: e(step) });
  }
  if (event.kind.startsWith('ieo_')) {
    const what = event.token ? `IEO ${event.token}` : 'IEO';
    return e('with_step', { what, step: e(event.kind) });
  }
  if (event.kind === 'transfer') {
    const from = event.postings.find((p) => p.amount.startsWith('-'))?.wallet;
    const to = event.postings.find((p) => !p.amount.startsWith('-'))?.wallet;
    if (from && to && from !== to)
      return e('transfer_between', { from: e(`wallet_${from}`), to: e(`wallet_${to}`) });
  }
  if (event.kind === 'conversion') {
    const [from] = distinct(
      event.postings
        .filter((p) => p.type === 'conversion' && p.amount.startsWith('-'))
        .map((p) => p.asset),
    );
    const [to] = distinct(
      event.postings
        .filter((p) => p.type === 'conversion' && !p.amount.startsWith('-'))
        .map((p) => p.asset),
    );
    if (from && to) return e('conversion_between', { from, to });
  }
  if (event.kind === 'other') {
    const types = distinct(event.postings.map((p) => p.type));
    return types.map((type) => t(`entry_types.${type}`)).join(' · ') || e('other');
  }
  return e(event.kind);
}
