import {
  FUNDS_EXPORT_MAX_ROWS,
  type FundsEvent,
  type FundsFilter,
  type FundsPage,
  type FundsQuery,
  XLSX_CONTENT_TYPE,
  describeFundsEvent,
} from '@tradewind/contract/funds';
import type { Language } from '@tradewind/contract/languages';
import { formatAmount } from '@tradewind/contract/money';
import { ASSETS, type AssetCode } from '@tradewind/contract/wallet';
import type { Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import type { FileReply } from '#platform/http.ts';
import { translate } from '#platform/i18n.ts';
import {
  type PostingFilter,
  type UserPosting,
  countUserPostings,
  listUserPostings,
} from '../ledger/postings.ts';
import { eventsOfPostings } from './events.ts';
import { type Cell, streamXlsx } from './xlsx.ts';

/**
 * The funds detail: the user's own ledger postings (ARCHITECTURE §5), never anyone
 * else's, newest first, with each entry's memo (a system adjustment shows its reason).
 */

function postingFilter(filter: FundsFilter, beforeId?: number): PostingFilter {
  return {
    types: filter.type,
    asset: filter.asset as AssetCode | undefined,
    wallet: filter.wallet,
    from: filter.from ? new Date(filter.from) : undefined,
    to: filter.to ? new Date(filter.to) : undefined,
    beforeId,
  };
}

const amountText = (posting: UserPosting) =>
  formatAmount(posting.amount, ASSETS[posting.asset]?.scale ?? 0);

/** One page; `nextCursor` is null when there is no more data (spec §8). */
export async function listFunds(
  db: Executor,
  userId: number,
  query: FundsQuery,
): Promise<FundsPage> {
  const rows = await listUserPostings(
    db,
    userId,
    postingFilter(query, query.cursor ? Number(query.cursor) : undefined),
    query.limit + 1,
  );
  const page = rows.slice(0, query.limit);
  return {
    items: page.map((p) => ({
      id: String(p.id),
      time: p.createdAt.toISOString(),
      type: p.type,
      asset: p.asset,
      wallet: p.wallet,
      bucket: p.bucket,
      amount: amountText(p),
      memo: p.memo,
      reference: p.reference,
    })),
    nextCursor: rows.length > query.limit ? String(page[page.length - 1]?.id) : null,
  };
}

const utcText = (date: Date) => date.toISOString().replace('T', ' ').slice(0, 19);

/** Rows read per query while an export streams. */
const EXPORT_PAGE_ROWS = 1_000;

/**
 * The user's postings matching the filter, newest first, a page at a time, from the newest
 * id counted before the file started: postings made while it downloads stay out of it.
 */
async function* postingPages(
  db: Executor,
  userId: number,
  filter: FundsFilter,
  newestId: number,
): AsyncGenerator<UserPosting[]> {
  for (let beforeId = newestId + 1; ;) {
    const page = await listUserPostings(
      db,
      userId,
      postingFilter(filter, beforeId),
      EXPORT_PAGE_ROWS,
    );
    if (page.length > 0) yield page;
    const last = page[page.length - 1];
    if (!last || page.length < EXPORT_PAGE_ROWS) return;
    beforeId = last.id;
  }
}

/**
 * The same postings as an .xlsx file, one row each: time (UTC), type, asset, account,
 * amount, memo, reference and the event it belongs to (its description and entry id, as
 * the list by event shows it), labelled in the request's language. Raises EXPORT_TOO_LARGE
 * beyond `maxRows` (10,000: then a shorter date range exports), before any byte is sent.
 * The file streams: rows are read a page at a time while it is written.
 */
export async function exportFunds(
  db: Executor,
  userId: number,
  filter: FundsFilter,
  language: Language,
  now: Date,
  maxRows = FUNDS_EXPORT_MAX_ROWS,
): Promise<FileReply> {
  const { count, newestId } = await countUserPostings(db, userId, postingFilter(filter), maxRows);
  if (count > maxRows) throw new AppError('EXPORT_TOO_LARGE', { max: maxRows }, 422);
  const t = (key: string, params?: Record<string, string>) => translate(language, key, params);
  const eventText = (event: FundsEvent | undefined) =>
    event ? `${describeFundsEvent(event, t)} · #${event.id}` : '';
  const row = (p: UserPosting, event: FundsEvent | undefined): Cell[] => [
    utcText(p.createdAt),
    t(`entry_types.${p.type}`),
    p.asset,
    t(`funds_export.wallet_${p.wallet}${p.bucket === 'locked' ? '_locked' : ''}`),
    { decimal: amountText(p) },
    p.memo ?? '',
    p.reference,
    eventText(event),
  ];
  async function* rows(): AsyncGenerator<Cell[][]> {
    if (newestId === null) return;
    for await (const page of postingPages(db, userId, filter, newestId)) {
      // One statement a page for the page's events, not one per posting.
      const events = await eventsOfPostings(
        db,
        userId,
        page.map((p) => p.id),
      );
      yield page.map((p) => row(p, events.get(p.id)));
    }
  }
  const body = streamXlsx(
    {
      name: t('funds_export.sheet'),
      columns: [
        { header: t('funds_export.time'), width: 20 },
        { header: t('funds_export.type'), width: 18 },
        { header: t('funds_export.asset'), width: 10 },
        { header: t('funds_export.wallet'), width: 22 },
        { header: t('funds_export.amount'), width: 18 },
        { header: t('funds_export.memo'), width: 40 },
        { header: t('funds_export.reference'), width: 36 },
        { header: t('funds_export.event'), width: 40 },
      ],
      createdAt: now,
    },
    rows(),
  );
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return { filename: `tradewind-funds-${stamp}.xlsx`, contentType: XLSX_CONTENT_TYPE, body };
}
