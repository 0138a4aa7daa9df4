import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** What the notifier sent, kept only in demo mode so codes can be read at /api/v1/dev/outbox. */
export const devOutbox = pgTable('dev_outbox', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  channel: text('channel').notNull(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
});
