import { FUNDS_EXPORT_MAX_ROWS, type FundsFilter, type FundsPage, type FundsQuery, XLSX_CONTENT_TYPE } from '@tradewind/contract/funds';
import type { Language } from '@tradewind/contract/languages';
import { formatAmount } from '@tradewind/contract/money';
import { ASSETS, type AssetCode } from '@tradewind/contract/wallet';
import type { Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import type { FileReply } from '#platform/http.ts';
import { translate } from '#platform/i18n.ts';
import { type PostingFilter, type UserPosting, listUserPostings } from '../ledger/postings.ts';
import { writeXlsx } from './xlsx.ts';

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

const amountText = (posting: UserPosting) => formatAmount(posting.amount, ASSETS[posting.asset]?.scale ?? 0);

/** One page; `nextCursor` is null when there is no more data (spec §8). */
export async function listFunds(db: Executor, userId: number, query: FundsQuery): Promise<FundsPage> {
  const rows = await listUserPostings(db, userId, postingFilter(query, query.cursor ? Number(query.cursor) : undefined), query.limit + 1);
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

/**
 * The same postings as an .xlsx file, one row each: time (UTC), type, asset, account,
 * amount, memo, reference, labelled in the request's language. Raises EXPORT_TOO_LARGE
 * beyond 10,000 rows (then a shorter date range exports).
 */
export async function exportFunds(db: Executor, userId: number, filter: FundsFilter, language: Language, now: Date): Promise<FileReply> {
  const rows = await listUserPostings(db, userId, postingFilter(filter), FUNDS_EXPORT_MAX_ROWS + 1);
  if (rows.length > FUNDS_EXPORT_MAX_ROWS) throw new AppError('EXPORT_TOO_LARGE', { max: FUNDS_EXPORT_MAX_ROWS }, 422);
  const t = (key: string) => translate(language, key);
  const body = writeXlsx(
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
      ],
      rows: rows.map((p) => [
        utcText(p.createdAt),
        t(`entry_types.${p.type}`),
        p.asset,
        t(`funds_export.wallet_${p.wallet}${p.bucket === 'locked' ? '_locked' : ''}`),
        { decimal: amountText(p) },
        p.memo ?? '',
        p.reference,
      ]),
    },
    now,
  );
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return { filename: `tradewind-funds-${stamp}.xlsx`, contentType: XLSX_CONTENT_TYPE, body };
}
