import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../user/tables.ts';

/**
 * The ledger (ARCHITECTURE §5). Only this module writes these tables. The database itself
 * enforces the rules (migrations 0002 and 0013): entries and postings are append-only, every
 * entry balances per asset in the statement that inserts its postings, balances change
 * only by inserting postings, and user balances never go negative.
 */

const minor = (name: string) => numeric(name, { precision: 38, scale: 0, mode: 'bigint' });

export const assets = pgTable('assets', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  scale: integer('scale').notNull(),
  withdrawMinMinor: minor('withdraw_min_minor').notNull(),
  withdrawFeeMinor: minor('withdraw_fee_minor').notNull(),
  confirmations: integer('confirmations').notNull(),
  depositEnabled: boolean('deposit_enabled').notNull().default(false),
  withdrawEnabled: boolean('withdraw_enabled').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
  /** A deposit below this is not credited. Null until `ensureAssets` seeds it (USDT from DEPOSIT_MIN_USDT, others 0). */
  depositMinMinor: minor('deposit_min_minor'),
});

export const accounts = pgTable(
  'ledger_accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** `user:<uid>:spot:USDT`, `house:fees:USDT`, `external:chain:USDT`. */
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    wallet: text('wallet'),
    asset: text('asset')
      .notNull()
      .references(() => assets.code),
    available: minor('available')
      .notNull()
      .default(sql`0`),
    locked: minor('locked')
      .notNull()
      .default(sql`0`),
  },
  (t) => [
    uniqueIndex('ledger_accounts_name_key').on(t.name),
    index('ledger_accounts_user_idx').on(t.userId),
    check('ledger_accounts_kind', sql`${t.kind} in ('user', 'house', 'external')`),
    check(
      'ledger_accounts_user_fields',
      sql`(${t.kind} = 'user') = (${t.userId} is not null and ${t.wallet} is not null)`,
    ),
    // A user's balance can never go negative; house and external accounts may.
    check(
      'ledger_accounts_user_nonnegative',
      sql`${t.kind} <> 'user' or (${t.available} >= 0 and ${t.locked} >= 0)`,
    ),
  ],
);

export const entries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** What caused it: transfer, deposit, withdrawal, order, … */
    kind: text('kind').notNull(),
    /** Unique per cause (e.g. `withdrawal:42:refund`): the same cause can never post twice. */
    reference: text('reference').notNull(),
    userId: bigint('user_id', { mode: 'number' }),
    /** Shown to the user (a system adjustment's reason, a rejection's reason). */
    memo: text('memo'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('ledger_entries_reference_key').on(t.reference)],
);

export const postings = pgTable(
  'ledger_postings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /**
     * References ledger_entries and ledger_accounts, checked once per statement by the
     * posting triggers (0018) instead of by foreign keys: a foreign key checks and
     * key-share-locks the referenced row once per posting, which was most of the cost of
     * writing a batch, and neither table's rows can ever be deleted or re-keyed.
     */
    entryId: bigint('entry_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    /** Copied from the account so a user's funds detail is one index scan. */
    userId: bigint('user_id', { mode: 'number' }),
    wallet: text('wallet'),
    asset: text('asset').notNull(),
    bucket: text('bucket').notNull(),
    /** The funds-detail label (spec §4 types). */
    type: text('type').notNull(),
    amount: minor('amount').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('ledger_postings_user_idx').on(t.userId, t.id),
    // By account and time: an account's postings over a date range (the operator dashboard's
    // daily deposits, withdrawals and house result read external and house accounts by day).
    // It replaces the index on account_id alone, so writing a posting still updates one index here.
    index('ledger_postings_account_time_idx').on(t.accountId, t.createdAt),
    index('ledger_postings_entry_idx').on(t.entryId),
    // A user's postings by entry: the funds detail by event pages through a user's entries
    // newest first (issue 32). Only user postings: house and external legs never list so.
    index('ledger_postings_user_entry_idx')
      .on(t.userId, t.entryId)
      .where(sql`${t.userId} is not null`),
    check('ledger_postings_bucket', sql`${t.bucket} in ('available', 'locked')`),
    check('ledger_postings_nonzero', sql`${t.amount} <> 0`),
  ],
);
