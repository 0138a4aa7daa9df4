import { sql } from 'drizzle-orm';
import {
  bigint,
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

const minor = (name: string) => numeric(name, { precision: 38, scale: 0, mode: 'bigint' });

/**
 * One TRON deposit address per user: m/44'/195'/0'/0/<derivation_index>, derived from the
 * configured account xpub. The index is given out once, gapless, and never reused.
 */
export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    network: text('network').notNull(),
    address: text('address').notNull(),
    derivationIndex: integer('derivation_index').notNull(),
    /** BIP32 fingerprint of the xpub it came from, so a changed key is visible. */
    keyFingerprint: text('key_fingerprint').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('deposit_addresses_user_key').on(t.userId),
    uniqueIndex('deposit_addresses_address_key').on(t.address),
    uniqueIndex('deposit_addresses_index_key').on(t.derivationIndex),
    check('deposit_addresses_index_range', sql`${t.derivationIndex} >= 0`),
  ],
);

/**
 * Every incoming transfer the watcher saw, once per (txid, log index). A row is credited
 * at most once: its ledger entry's reference is `deposit:<txid>:<log index>`.
 */
export const deposits = pgTable(
  'deposits',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Null when the transfer went to an address no user owns (rejected). */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    asset: text('asset').notNull(),
    network: text('network').notNull(),
    txid: text('txid').notNull(),
    logIndex: integer('log_index').notNull(),
    toAddress: text('to_address').notNull(),
    fromAddress: text('from_address'),
    amountMinor: minor('amount_minor').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    status: text('status').notNull(),
    reason: text('reason'),
    /** Confirmations counted when the row was credited (pending rows are counted from the chain head). */
    confirmations: integer('confirmations').notNull().default(0),
    requiredConfirmations: integer('required_confirmations').notNull(),
    entryId: bigint('entry_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    creditedAt: timestamp('credited_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('deposits_transfer_key').on(t.txid, t.logIndex),
    index('deposits_user_idx').on(t.userId, t.id),
    index('deposits_pending_idx')
      .on(t.id)
      .where(sql`${t.status} = 'pending_payment'`),
    check('deposits_status', sql`${t.status} in ('pending_payment', 'paid', 'rejected')`),
    check('deposits_amount_nonnegative', sql`${t.amountMinor} >= 0`),
    // Paid means credited by exactly one ledger entry; rejected always says why.
    check('deposits_paid_has_entry', sql`(${t.status} = 'paid') = (${t.entryId} is not null)`),
    check(
      'deposits_rejected_has_reason',
      sql`(${t.status} = 'rejected') = (${t.reason} is not null)`,
    ),
    check('deposits_owner', sql`${t.userId} is not null or ${t.status} = 'rejected'`),
  ],
);

/** Per chain adapter: how far the watcher has read, and the last chain head it saw. */
export const depositWatchState = pgTable('deposit_watch_state', {
  chain: text('chain').primaryKey(),
  cursor: text('cursor'),
  headBlock: bigint('head_block', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * The simulated chain of demo mode and tests: USDT transfers someone "sent" (the dev
 * endpoint, `npm run chain`), each in a block of the simulated height.
 */
export const simulatedTransfers = pgTable(
  'deposit_sim_transfers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    txid: text('txid').notNull(),
    logIndex: integer('log_index').notNull(),
    fromAddress: text('from_address'),
    toAddress: text('to_address').notNull(),
    amountMinor: minor('amount_minor').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('deposit_sim_transfers_key').on(t.txid, t.logIndex),
    index('deposit_sim_transfers_block_idx').on(t.blockNumber),
    check('deposit_sim_transfers_amount', sql`${t.amountMinor} > 0`),
  ],
);

/** Blocks "mined" ahead of the clock on the simulated chain (one row). */
export const simulatedChain = pgTable('deposit_sim_chain', {
  id: integer('id').primaryKey(),
  extraBlocks: bigint('extra_blocks', { mode: 'number' }).notNull(),
});
