import { bigint, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** What the notifier sent, kept only in demo mode so codes can be read at /api/v1/dev/outbox. */
export const devOutbox = pgTable('dev_outbox', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  channel: text('channel').notNull(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Idempotency-Key of money-moving POSTs: the first request's hash and reply. The row is
 * inserted first in the request's transaction, so a concurrent duplicate waits for it.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** The reply's data as JSON text (not jsonb, which reorders keys): replays are byte-identical. */
    response: text('response'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
