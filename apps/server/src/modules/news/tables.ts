import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { LocalizedText } from '../vote/tables.ts';

/**
 * News and notices (spec /NewsDetail, /NoticeDetail, Home's news). Texts per language,
 * English always present; `body` holds HTML already sanitised when it was saved.
 */
export const articles = pgTable(
  'articles',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    /** A stable name for seeded articles, so seeding twice inserts nothing. */
    slug: text('slug').unique('articles_slug_key'),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    summary: jsonb('summary').$type<LocalizedText>().notNull(),
    body: jsonb('body').$type<LocalizedText>().notNull(),
    cover: text('cover'),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Set when an operator takes the article down; readers no longer see it. Cleared to publish it again. */
    unpublishedAt: timestamp('unpublished_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    check('articles_kind', sql`${t.kind} in ('news', 'notice')`),
    check('articles_title_en', sql`jsonb_typeof(${t.title} -> 'en') = 'string'`),
    check('articles_summary_en', sql`jsonb_typeof(${t.summary} -> 'en') = 'string'`),
    check('articles_body_en', sql`jsonb_typeof(${t.body} -> 'en') = 'string'`),
    index('articles_kind_published_idx').on(t.kind, t.publishedAt, t.id),
  ],
);

export type ArticleRow = typeof articles.$inferSelect;
