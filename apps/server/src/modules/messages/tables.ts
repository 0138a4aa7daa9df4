import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { operators } from '../operator/tables.ts';
import { users } from '../user/tables.ts';
import type { LocalizedText } from '../vote/tables.ts';

/**
 * In-site messages, one row per user and event. Title and body are written in the user's
 * language when the event happens, so a message reads the same however often it is opened.
 * `ref` names the cause (e.g. `contract:42`). A message is written in its event's own
 * transaction (the order settled, the withdrawal's new status…), so it exists exactly when
 * the event does: no unique index is needed for that, and settlement batches, which write
 * one message per order, do not pay for one.
 */
export const userMessages = pgTable(
  'user_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    ref: text('ref').notNull(),
    language: text('language').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('user_messages_user_idx').on(t.userId, t.id),
    // The badge counts these: a small partial index keeps the count cheap however many are read.
    index('user_messages_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    check('user_messages_title_length', sql`char_length(${t.title}) between 1 and 200`),
    check('user_messages_body_length', sql`char_length(${t.body}) <= 4000`),
  ],
);

/** An operator's message to every user: kept as sent, in all its languages, for the record. */
export const messageBroadcasts = pgTable(
  'message_broadcasts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    body: jsonb('body').$type<LocalizedText>().notNull(),
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    recipients: bigint('recipients', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [check('message_broadcasts_title_en', sql`jsonb_typeof(${t.title} -> 'en') = 'string'`)],
);

export type UserMessageRow = typeof userMessages.$inferSelect;
