import {
  FUNDS_EVENT_KINDS,
  type FundsEvent,
  type FundsEventChange,
  type FundsEventKind,
  type FundsEventsPage,
  type FundsFilter,
  type FundsQuery,
} from '@tradewind/contract/funds';
import type { Direction, Outcome } from '@tradewind/contract/instant';
import { formatAmount } from '@tradewind/contract/money';
import { ASSETS, type EntryType, type Wallet } from '@tradewind/contract/wallet';
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '#platform/db.ts';

/**
 * The funds detail by event (issue 32): the user's ledger entries, each with the user's own
 * postings of it, newest first. An entry matches the filter when any of the user's postings
 * of it does (type, asset, wallet, date). One statement per page: the entries, their
 * postings and what their references name (the contract order, the IEO project) come
 * together, read by the partial index on (user_id, entry_id). Reading the ledger's tables
 * here is a read, as the dashboard's is; only modules/ledger writes them.
 */

interface EventRow {
  id: string;
  kind: string;
  reference: string;
  memo: string | null;
  created_at: Date | string;
  postings: string | RawPosting[] | null;
  instrument: string | null;
  direction: string | null;
  outcome: string | null;
  token: string | null;
  /** For an export's page: which of its postings belong to this entry (ids, comma-separated). */
  page_postings: string | null;
}

interface RawPosting {
  id: string;
  type: string;
  asset: string;
  wallet: string;
  bucket: string;
  amount: string;
}

export interface EventFilter extends FundsFilter {
  /** Only entries with a smaller id (the previous page's last). */
  beforeId?: number | undefined;
}

function matching(userId: number, filter: EventFilter): SQL {
  const conditions: SQL[] = [sql`p.user_id = ${userId}`];
  if (filter.type && filter.type.length > 0)
    conditions.push(
      sql`p.type in (${sql.join(
        filter.type.map((type) => sql`${type}`),
        sql`, `,
      )})`,
    );
  if (filter.asset) conditions.push(sql`p.asset = ${filter.asset}`);
  if (filter.wallet) conditions.push(sql`p.wallet = ${filter.wallet}`);
  if (filter.from) conditions.push(sql`p.created_at >= ${new Date(filter.from)}`);
  if (filter.to) conditions.push(sql`p.created_at < ${new Date(filter.to)}`);
  if (filter.beforeId !== undefined) conditions.push(sql`p.entry_id < ${filter.beforeId}`);
  return sql.join(conditions, sql` and `);
}

/** The entry kind as the list names it; a withdrawal's three entries differ by their reference's last part. */
function eventKind(kind: string, reference: string): FundsEventKind {
  if (kind === 'withdrawal') {
    const step = reference.split(':').at(-1);
    return step === 'request' || step === 'complete' || step === 'refund'
      ? `withdrawal_${step}`
      : 'other';
  }
  return (FUNDS_EVENT_KINDS as readonly string[]).includes(kind)
    ? (kind as FundsEventKind)
    : 'other';
}

/** Entry kinds described from the kind and the reference alone. */
const WORDED_WITHOUT_LEGS: readonly string[] = [
  ...FUNDS_EVENT_KINDS.filter(
    (kind) =>
      kind !== 'transfer' &&
      kind !== 'conversion' &&
      kind !== 'other' &&
      !kind.startsWith('withdrawal_'),
  ),
  'withdrawal',
];

const scaleOf = (asset: string) => ASSETS[asset as keyof typeof ASSETS]?.scale;

/** As the postings list writes amounts: a listed (IEO) token, not in ASSETS, in whole units. */
const amountText = (asset: string, amount: bigint) => formatAmount(amount, scaleOf(asset) ?? 0);

function changesOf(postings: RawPosting[]): FundsEventChange[] {
  const sums = new Map<string, { asset: string; wallet: string; total: bigint; locked: bigint }>();
  for (const p of postings) {
    const key = `${p.wallet}\u0000${p.asset}`;
    const sum = sums.get(key) ?? { asset: p.asset, wallet: p.wallet, total: 0n, locked: 0n };
    sums.set(key, sum);
    const amount = BigInt(p.amount);
    sum.total += amount;
    if (p.bucket === 'locked') sum.locked += amount;
  }
  return [...sums.values()]
    .filter((s) => s.total !== 0n || s.locked !== 0n)
    .map((s) => ({
      asset: s.asset,
      wallet: s.wallet as Wallet,
      amount: amountText(s.asset, s.total),
      locked: amountText(s.asset, s.locked),
    }));
}

function toEvent(row: EventRow): FundsEvent {
  const raw: RawPosting[] =
    typeof row.postings === 'string' ? JSON.parse(row.postings) : (row.postings ?? []);
  const kind = eventKind(row.kind, row.reference);
  return {
    id: String(row.id),
    time: new Date(row.created_at).toISOString(),
    kind,
    order:
      row.instrument && row.direction
        ? {
            instrument: row.instrument,
            direction: row.direction as Direction,
            outcome: (row.outcome as Outcome | null) ?? null,
          }
        : null,
    token: row.token,
    changes: changesOf(raw),
    postings: raw.map((p) => ({
      id: String(p.id),
      type: p.type as EntryType,
      asset: p.asset,
      wallet: p.wallet as Wallet,
      bucket: p.bucket === 'locked' ? 'locked' : 'available',
      amount: amountText(p.asset, BigInt(p.amount)),
    })),
    memo: row.memo,
    reference: row.reference,
  };
}

/**
 * The events of the entries `page` selects (a statement returning `id`, the entry ids, for
 * this user only), newest first, with the user's postings of each and what their
 * references name: one statement.
 */
async function eventsOf(
  db: Executor,
  userId: number,
  page: SQL,
  legs: 'all' | 'described' = 'all',
): Promise<{ event: FundsEvent; pagePostings: string | null }[]> {
  // An export only describes its events: it needs the legs only of those whose words name
  // them (a transfer's wallets, a conversion's assets, an unknown kind's posting types).
  const needsLegs =
    legs === 'all'
      ? sql`true`
      : sql`e.kind not in (${sql.join(
          WORDED_WITHOUT_LEGS.map((kind) => sql`${kind}`),
          sql`, `,
        )})`;
  const rows = await queryRows<EventRow>(
    db,
    sql`with page as (${page})
        select e.id::text as id, e.kind, e.reference, e.memo, e.created_at, legs.postings,
               page.page_postings,
               o.instrument, o.direction, o.outcome, pr.token
        from page
        join ledger_entries e on e.id = page.id
        cross join lateral (
          -- By the entry's index alone, the user's legs picked in the aggregate: an entry has
          -- a handful of postings, and a condition on user_id here would let the planner
          -- intersect with every posting of the user's, once per entry.
          select json_agg(json_build_object(
                   'id', p.id::text, 'type', p.type, 'asset', p.asset, 'wallet', p.wallet,
                   'bucket', p.bucket, 'amount', p.amount::text) order by p.id)
                   filter (where p.user_id = ${userId}) as postings
          from ledger_postings p
          where p.entry_id = e.id and ${needsLegs}
        ) legs
        left join contract_orders o
          on e.kind in ('contract_open', 'contract_settle')
          and o.id = (case when e.reference ~ '^contract:[0-9]{1,18}:'
                           then split_part(e.reference, ':', 2)::bigint end)
          and o.user_id = ${userId}
        left join ieo_applications a
          on e.kind in ('ieo_subscribe', 'ieo_allocation', 'ieo_listing', 'ieo_cancel')
          and a.id = (case when e.reference ~ '^ieo:application:[0-9]{1,18}:'
                           then split_part(e.reference, ':', 3)::bigint end)
          and a.user_id = ${userId}
        left join ieo_projects pr on pr.id = a.project_id
        order by e.id desc`,
  );
  return rows.map((row) => ({ event: toEvent(row), pagePostings: row.page_postings }));
}

/** The user's events matching the filter, newest first (by entry id: no ties, so pages neither overlap nor skip). */
export async function listUserEvents(
  db: Executor,
  userId: number,
  filter: EventFilter,
  limit: number,
): Promise<FundsEvent[]> {
  const found = await eventsOf(
    db,
    userId,
    sql`select p.entry_id as id, null::text as page_postings
        from ledger_postings p
        where ${matching(userId, filter)}
        group by p.entry_id
        order by p.entry_id desc
        limit ${limit}`,
  );
  return found.map(({ event }) => event);
}

/** The events the user's postings `postingIds` belong to (an export's page of postings), by posting id. */
export async function eventsOfPostings(
  db: Executor,
  userId: number,
  postingIds: readonly number[],
): Promise<Map<number, FundsEvent>> {
  const byPosting = new Map<number, FundsEvent>();
  if (postingIds.length === 0) return byPosting;
  const events = await eventsOf(
    db,
    userId,
    sql`select p.entry_id as id, string_agg(p.id::text, ',') as page_postings
        from ledger_postings p
        where p.user_id = ${userId} and p.id = any(${`{${postingIds.join(',')}}`}::bigint[])
        group by p.entry_id`,
    'described',
  );
  for (const { pagePostings, event } of events)
    for (const id of pagePostings?.split(',') ?? []) byPosting.set(Number(id), event);
  return byPosting;
}

/** One page; `nextCursor` is null when there is no more data (spec §8). */
export async function listFundsEvents(
  db: Executor,
  userId: number,
  query: FundsQuery,
): Promise<FundsEventsPage> {
  const events = await listUserEvents(
    db,
    userId,
    { ...query, beforeId: query.cursor ? Number(query.cursor) : undefined },
    query.limit + 1,
  );
  const page = events.slice(0, query.limit);
  return {
    items: page,
    nextCursor: events.length > query.limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}
