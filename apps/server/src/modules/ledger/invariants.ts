import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '#platform/db.ts';

/**
 * The ledger's invariants (ARCHITECTURE §5), checked after every server test file and by
 * `npm run check:ledger`. Each returns what breaks it; an empty list means it holds.
 */

export interface Violation {
  rule: string;
  detail: string;
}

/**
 * What a module holds locked, per user account name: pending withdrawals, open orders…
 * Each module that locks funds exports one as a plain value; the server's list of them
 * (src/obligations.ts) is handed to every check, which demands locked = their sum.
 */
export interface Obligation {
  /** What holds the funds (a table, usually); two obligations of one name would count it twice. */
  name: string;
  locked: (db: Executor) => Promise<{ account: string; amount: bigint }[]>;
}

/** Rows of ledger entries (and accounts) one statement of the check covers: a few milliseconds each. */
export const LEDGER_CHECK_CHUNK = 5_000;

export interface CheckLedgerOptions {
  /** Entries (or accounts) per statement; tests make it small to cross chunk borders. */
  chunk?: number;
  /**
   * Awaited after each statement with the time it took: the scheduled check waits a multiple
   * of it, so on a big ledger its work is spread out instead of holding a core for seconds.
   */
  pause?: (statementMs: number) => Promise<void>;
}

/** [lo, hi] id ranges of `chunk` ids covering a table's ids (none when it is empty). */
async function idRanges(
  db: Executor,
  table: 'ledger_entries' | 'ledger_accounts',
  chunk: number,
): Promise<[number, number][]> {
  const [row] = await queryRows<{ lo: string | null; hi: string | null }>(
    db,
    sql`select min(id)::text as lo, max(id)::text as hi from ${sql.raw(table)}`,
  );
  if (!row?.lo || !row.hi) return [];
  const ranges: [number, number][] = [];
  for (let lo = Number(row.lo); lo <= Number(row.hi); lo += chunk)
    ranges.push([lo, Math.min(lo + chunk - 1, Number(row.hi))]);
  return ranges;
}

/** Every invariant; `obligations` are every module's that locks user funds (a missing one reads as unexplained locks). */
export async function checkLedger(
  db: Executor,
  obligations: readonly Obligation[],
  options: CheckLedgerOptions = {},
): Promise<Violation[]> {
  const chunk = options.chunk ?? LEDGER_CHECK_CHUNK;
  const found = new Map<string, unknown[]>();
  const paced = async <T>(work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    await options.pause?.(performance.now() - started);
    return result;
  };
  const query = <T>(statement: SQL) => paced(() => queryRows<T>(db, statement));
  const add = (rule: string, rows: unknown[]) => {
    const kept = found.get(rule) ?? [];
    found.set(rule, kept);
    for (const row of rows) if (kept.length < 20) kept.push(row);
  };

  // The rules over every posting, an id range at a time (each range one short statement).
  for (const [lo, hi] of await idRanges(db, 'ledger_entries', chunk)) {
    add(
      'every entry balances per asset',
      await query(
        sql`select entry_id, asset, sum(amount)::text as sum from ledger_postings where entry_id between ${lo} and ${hi} group by entry_id, asset having sum(amount) <> 0`,
      ),
    );
    add(
      'every entry has at least two postings',
      await query(
        sql`select e.id from ledger_entries e left join ledger_postings p on p.entry_id = e.id and p.entry_id between ${lo} and ${hi}
            where e.id between ${lo} and ${hi} group by e.id having count(p.id) < 2`,
      ),
    );
  }
  add(
    'all balances of an asset sum to zero',
    await query(
      sql`select asset, sum(available + locked)::text as sum from ledger_accounts group by asset having sum(available + locked) <> 0`,
    ),
  );
  for (const [lo, hi] of await idRanges(db, 'ledger_accounts', chunk)) {
    add(
      'cached balances equal their postings',
      await query(
        sql`select a.name, a.available::text, a.locked::text, coalesce(p.available, 0)::text as posted_available, coalesce(p.locked, 0)::text as posted_locked
            from ledger_accounts a
            left join (
              select account_id,
                     sum(amount) filter (where bucket = 'available') as available,
                     sum(amount) filter (where bucket = 'locked') as locked
              from ledger_postings where account_id between ${lo} and ${hi} group by account_id
            ) p on p.account_id = a.id
            where a.id between ${lo} and ${hi} and (a.available <> coalesce(p.available, 0) or a.locked <> coalesce(p.locked, 0))`,
      ),
    );
  }
  add(
    'no user balance is negative',
    await query(
      sql`select name from ledger_accounts where kind = 'user' and (available < 0 or locked < 0)`,
    ),
  );
  // Two admins approve every reward budget (issue 29): what house:rewards paid out may never
  // exceed the approved changes, nor differ from what the budget counts as granted.
  add(
    'house rewards stay within the approved budget',
    await query(
      sql`select a.asset, (-(a.available + a.locked))::text as paid,
                 coalesce(r.approved, 0)::text as approved, coalesce(b.granted_minor, 0)::text as granted
          from ledger_accounts a
          left join (select asset, sum(delta_minor) as approved from reward_budget_requests
                     where status = 'approved' group by asset) r on r.asset = a.asset
          left join reward_budgets b on b.asset = a.asset
          where a.name like 'house:rewards:%'
            and (-(a.available + a.locked) > coalesce(r.approved, 0)
                 or -(a.available + a.locked) <> coalesce(b.granted_minor, 0))`,
    ),
  );

  const expected = new Map<string, bigint>();
  for (const obligation of obligations) {
    for (const { account, amount } of await paced(() => obligation.locked(db)))
      expected.set(account, (expected.get(account) ?? 0n) + amount);
  }
  const lockedRows = await query<{ name: string; locked: string }>(
    sql`select name, locked::text from ledger_accounts where kind = 'user' and locked <> 0`,
  );
  const mismatches: unknown[] = [];
  for (const row of lockedRows) {
    const owed = expected.get(row.name) ?? 0n;
    if (BigInt(row.locked) !== owed)
      mismatches.push({ account: row.name, locked: row.locked, obligations: owed.toString() });
    expected.delete(row.name);
  }
  for (const [account, owed] of expected)
    if (owed !== 0n) mismatches.push({ account, locked: '0', obligations: owed.toString() });
  add('locked funds equal open obligations', mismatches);

  return [...found].flatMap(([rule, rows]) =>
    rows.map((row) => ({ rule, detail: JSON.stringify(row) })),
  );
}
