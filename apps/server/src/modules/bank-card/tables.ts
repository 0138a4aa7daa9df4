import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../user/tables.ts';

/**
 * Bank cards users link for card withdrawals. Deleting one only marks it: a withdrawal
 * already made to it still shows where the money went.
 */
export const bankCards = pgTable(
  'bank_cards',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    bankName: text('bank_name').notNull(),
    /** Letters and digits only, upper case (spaces and hyphens dropped). */
    accountNumber: text('account_number').notNull(),
    branchName: text('branch_name').notNull(),
    branchCode: text('branch_code').notNull(),
    holderName: text('holder_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('bank_cards_user_idx').on(t.userId, t.id),
    // The same account once per user among the cards still linked.
    uniqueIndex('bank_cards_user_account_key')
      .on(t.userId, t.accountNumber)
      .where(sql`${t.deletedAt} is null`),
  ],
);

export type BankCardRow = typeof bankCards.$inferSelect;
