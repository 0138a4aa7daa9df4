import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

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
 * inserted first in the request's transaction, so a concurrent duplicate waits for it. A key
 * expires a day after `created_at` (platform/idempotency.ts), and is then pruned.
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
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    // The prune finds the expired keys by this, not by reading the day of live ones on every pass.
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);

/**
 * Uploaded files (platform/files.ts). The bytes live in the file store under `storage_key`
 * (random, 192 bits); this row says whose they are and what they are for. `owner_id` is a
 * user id (the platform does not reference module tables).
 */
export const files = pgTable(
  'files',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    purpose: text('purpose').notNull(),
    visibility: text('visibility').notNull(),
    storageKey: text('storage_key').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** SHA-256 of the stored bytes. */
    sha256: text('sha256').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('files_storage_key_key').on(t.storageKey),
    index('files_owner_idx').on(t.ownerId, t.createdAt),
    check('files_visibility', sql`${t.visibility} in ('private', 'public')`),
    check('files_size_positive', sql`${t.size} > 0`),
  ],
);

export type FileRow = typeof files.$inferSelect;
