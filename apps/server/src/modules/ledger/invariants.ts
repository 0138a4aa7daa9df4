import { sql } from 'drizzle-orm';
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
 * Each module that locks funds registers one; the checker demands locked = their sum.
 */
export type ObligationSource = (db: Executor) => Promise<{ account: string; amount: bigint }[]>;

const obligationSources = new Map<string, ObligationSource>();

/** Registers a module's obligations; returns a function that removes them (tests). */
export function registerObligation(name: string, source: ObligationSource): () => void {
  obligationSources.set(name, source);
  return () => obligationSources.delete(name);
}

export async function checkLedger(db: Executor): Promise<Violation[]> {
  const violations: Violation[] = [];
  const add = (rule: string, rows: unknown[]) => {
    for (const row of rows.slice(0, 20)) violations.push({ rule, detail: JSON.stringify(row) });
  };

  add(
    'every entry balances per asset',
    await queryRows(db, sql`select entry_id, asset, sum(amount)::text as sum from ledger_postings group by entry_id, asset having sum(amount) <> 0`),
  );
  add(
    'every entry has at least two postings',
    await queryRows(db, sql`select e.id from ledger_entries e left join ledger_postings p on p.entry_id = e.id group by e.id having count(p.id) < 2`),
  );
  add(
    'all balances of an asset sum to zero',
    await queryRows(db, sql`select asset, sum(available + locked)::text as sum from ledger_accounts group by asset having sum(available + locked) <> 0`),
  );
  add(
    'cached balances equal their postings',
    await queryRows(
      db,
      sql`select a.name, a.available::text, a.locked::text, coalesce(p.available, 0)::text as posted_available, coalesce(p.locked, 0)::text as posted_locked
          from ledger_accounts a
          left join (
            select account_id,
                   sum(amount) filter (where bucket = 'available') as available,
                   sum(amount) filter (where bucket = 'locked') as locked
            from ledger_postings group by account_id
          ) p on p.account_id = a.id
          where a.available <> coalesce(p.available, 0) or a.locked <> coalesce(p.locked, 0)`,
    ),
  );
  add('no user balance is negative', await queryRows(db, sql`select name from ledger_accounts where kind = 'user' and (available < 0 or locked < 0)`));

  const expected = new Map<string, bigint>();
  for (const source of obligationSources.values()) {
    for (const { account, amount } of await source(db)) expected.set(account, (expected.get(account) ?? 0n) + amount);
  }
  const lockedRows = await queryRows<{ name: string; locked: string }>(db, sql`select name, locked::text from ledger_accounts where kind = 'user' and locked <> 0`);
  const mismatches: unknown[] = [];
  for (const row of lockedRows) {
    const owed = expected.get(row.name) ?? 0n;
    if (BigInt(row.locked) !== owed) mismatches.push({ account: row.name, locked: row.locked, obligations: owed.toString() });
    expected.delete(row.name);
  }
  for (const [account, owed] of expected) if (owed !== 0n) mismatches.push({ account, locked: '0', obligations: owed.toString() });
  add('locked funds equal open obligations', mismatches);

  return violations;
}
