import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { users } from '../user/tables.ts';

/** Texts in several languages keyed by language code (`en`, `zh_TW`, …); `en` is always there. */
export type LocalizedText = { en: string } & Partial<Record<string, string>>;

/**
 * Polls (spec /Vote). Counts are never stored: they are counted from `vote_ballots`, so
 * nothing can edit a result except a ballot.
 */
export const votePolls = pgTable(
  'vote_polls',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** A stable name for seeded polls, so seeding twice inserts nothing. */
    slug: text('slug').notNull().unique('vote_polls_slug_key'),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    check('vote_polls_period', sql`${t.endsAt} > ${t.startsAt}`),
    check('vote_polls_title_en', sql`jsonb_typeof(${t.title} -> 'en') = 'string'`),
    check('vote_polls_description_en', sql`jsonb_typeof(${t.description} -> 'en') = 'string'`),
    index('vote_polls_ends_idx').on(t.endsAt),
  ],
);

export const voteOptions = pgTable(
  'vote_options',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    pollId: bigint('poll_id', { mode: 'number' })
      .notNull()
      .references(() => votePolls.id),
    label: jsonb('label').$type<LocalizedText>().notNull(),
    sort: integer('sort').notNull(),
  },
  (t) => [
    // The target of the ballots' composite key: an option is named together with its poll.
    unique('vote_options_poll_id_key').on(t.pollId, t.id),
    unique('vote_options_poll_sort_key').on(t.pollId, t.sort),
    check('vote_options_label_en', sql`jsonb_typeof(${t.label} -> 'en') = 'string'`),
  ],
);

/**
 * One row per vote. The primary key (poll_id, user_id) is what makes "one vote per user"
 * hold under any concurrency; the composite foreign key keeps a ballot's option inside its poll.
 */
export const voteBallots = pgTable(
  'vote_ballots',
  {
    pollId: bigint('poll_id', { mode: 'number' }).notNull(),
    optionId: bigint('option_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'vote_ballots_poll_user_key', columns: [t.pollId, t.userId] }),
    foreignKey({
      name: 'vote_ballots_option_fk',
      columns: [t.pollId, t.optionId],
      foreignColumns: [voteOptions.pollId, voteOptions.id],
    }),
    index('vote_ballots_option_idx').on(t.pollId, t.optionId),
  ],
);

export type VotePollRow = typeof votePolls.$inferSelect;
export type VoteOptionRow = typeof voteOptions.$inferSelect;
