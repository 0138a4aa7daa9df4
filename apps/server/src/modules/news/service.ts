import { LANGUAGES, type Language } from '@tradewind/contract/languages';
import {
  ARTICLE_ADMIN_PAGE_SIZE,
  ARTICLE_PAGE_SIZE,
  type Article,
  type ArticleAdminDetail,
  type ArticleAdminItem,
  type ArticleAdminList,
  type ArticleKind,
  type ArticleList,
  type ArticleSaveRequest,
  type ArticleState,
  type ArticleSummary,
} from '@tradewind/contract/messages';
import { and, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { localized } from '../vote/service.ts';
import type { LocalizedText } from '../vote/tables.ts';
import { sanitizeRichText } from './sanitize.ts';
import { type ArticleRow, articles } from './tables.ts';

/**
 * News and notices (spec /NewsDetail, /NoticeDetail, Home's news). Readers see published
 * articles (publish time reached, not taken down) in their language, English where an article
 * has no translation. Bodies are sanitised when saved, so what is stored is safe to render.
 * Raises ARTICLE_NOT_FOUND (unknown, or not published), ARTICLE_BODY_EMPTY (nothing left of
 * the English body once sanitised), ARTICLE_ALREADY_UNPUBLISHED, ARTICLE_NOT_UNPUBLISHED.
 */

function summaryOf(row: ArticleRow, language: Language): ArticleSummary {
  return {
    id: String(row.id),
    kind: row.kind as ArticleKind,
    title: localized(row.title, language),
    summary: localized(row.summary, language),
    cover: row.cover,
    publishedAt: row.publishedAt.toISOString(),
  };
}

/**
 * Published articles of a kind, newest first. The cursor is the last article's id; the
 * page continues below its (publish time, id), so editing a publish time never repeats or skips one.
 */
export async function listArticles(
  db: Executor,
  now: Date,
  kind: ArticleKind,
  language: Language,
  cursor?: string,
  limit = ARTICLE_PAGE_SIZE,
): Promise<ArticleList> {
  const after = cursor
    ? sql`(${articles.publishedAt}, ${articles.id}) < (select a.published_at, a.id from articles a where a.id = ${Number(cursor)})`
    : undefined;
  const rows = await db
    .select()
    .from(articles)
    .where(
      and(
        eq(articles.kind, kind),
        lte(articles.publishedAt, now),
        isNull(articles.unpublishedAt),
        after,
      ),
    )
    .orderBy(desc(articles.publishedAt), desc(articles.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map((row) => summaryOf(row, language)),
    nextCursor: rows.length > limit ? String(page[page.length - 1]?.id) : null,
  };
}

export async function getArticle(
  db: Executor,
  now: Date,
  id: number,
  language: Language,
): Promise<Article> {
  const [row] = await db
    .select()
    .from(articles)
    .where(and(eq(articles.id, id), lte(articles.publishedAt, now), isNull(articles.unpublishedAt)))
    .limit(1);
  if (!row) throw new AppError('ARTICLE_NOT_FOUND', {}, 404);
  return { ...summaryOf(row, language), body: localized(row.body, language) };
}

function cleanTexts(text: Record<string, string | undefined>, rich = false): LocalizedText {
  const out: Record<string, string> = {};
  for (const [language, value] of Object.entries(text)) {
    if (value === undefined || value.trim() === '') continue;
    out[language] = rich ? sanitizeRichText(value) : value;
  }
  // The schema requires English; only the sanitiser can empty it (a body of nothing but a script).
  if (!out.en || (rich && out.en.replace(/<[^>]*>/g, '').trim() === '' && !out.en.includes('<img')))
    throw new AppError('ARTICLE_BODY_EMPTY', {}, 422, 'body.en');
  return out as LocalizedText;
}

/** Creates or edits an article (its body sanitised per language) and audits it, in one transaction. */
export async function saveArticle(
  db: Db,
  now: Date,
  operator: OperatorContext,
  request: ArticleSaveRequest & { slug?: string },
): Promise<{ id: string; kind: ArticleKind; title: string; publishedAt: string }> {
  const values = {
    kind: request.kind,
    title: cleanTexts(request.title),
    summary: cleanTexts(request.summary),
    body: cleanTexts(request.body, true),
    cover: request.cover,
    publishedAt: new Date(request.publishedAt),
    updatedAt: now,
  };
  return db.transaction(async (tx) => {
    let row: ArticleRow | undefined;
    let before: unknown = null;
    if (request.id) {
      const [current] = await tx
        .select()
        .from(articles)
        .where(eq(articles.id, Number(request.id)))
        .for('update');
      if (!current) throw new AppError('ARTICLE_NOT_FOUND', {}, 404);
      before = {
        kind: current.kind,
        title: current.title.en,
        publishedAt: current.publishedAt.toISOString(),
      };
      [row] = await tx.update(articles).set(values).where(eq(articles.id, current.id)).returning();
    } else {
      [row] = await tx
        .insert(articles)
        .values({ ...values, slug: request.slug ?? null, createdAt: now })
        .returning();
    }
    if (!row) throw new Error('article save returned no row');
    await audit(tx, now, operator, {
      action: request.id ? 'article.edit' : 'article.create',
      targetType: 'article',
      targetId: row.id,
      before,
      after: {
        kind: row.kind,
        title: row.title.en,
        languages: Object.keys(row.body),
        publishedAt: row.publishedAt.toISOString(),
      },
    });
    return {
      id: String(row.id),
      kind: row.kind as ArticleKind,
      title: row.title.en,
      publishedAt: row.publishedAt.toISOString(),
    };
  });
}

/** Inserts a seeded article once (by slug); its body goes through the same sanitiser. */
export async function seedArticle(
  db: Db,
  now: Date,
  input: {
    slug: string;
    kind: ArticleKind;
    title: LocalizedText;
    summary: LocalizedText;
    body: LocalizedText;
    cover: string | null;
    publishedAt: Date;
  },
): Promise<void> {
  const body = cleanTexts(input.body, true);
  await db
    .insert(articles)
    .values({ ...input, body, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: articles.slug });
}

/* Operators: every article, whatever its state, with all its languages. */

function stateOf(row: ArticleRow, now: Date): ArticleState {
  if (row.unpublishedAt) return 'unpublished';
  return row.publishedAt <= now ? 'published' : 'scheduled';
}

function adminItem(row: ArticleRow, now: Date): ArticleAdminItem {
  return {
    id: String(row.id),
    kind: row.kind as ArticleKind,
    title: row.title.en,
    languages: LANGUAGES.filter((language) => typeof row.body[language] === 'string'),
    cover: row.cover,
    state: stateOf(row, now),
    publishedAt: row.publishedAt.toISOString(),
    unpublishedAt: row.unpublishedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Every article (scheduled, published and unpublished), newest publish time first, a page at a time. */
export async function listArticlesForOperators(
  db: Executor,
  now: Date,
  kind: ArticleKind | undefined,
  cursor?: string,
  limit = ARTICLE_ADMIN_PAGE_SIZE,
): Promise<ArticleAdminList> {
  const after = cursor
    ? sql`(${articles.publishedAt}, ${articles.id}) < (select a.published_at, a.id from articles a where a.id = ${Number(cursor)})`
    : undefined;
  const rows = await db
    .select()
    .from(articles)
    .where(and(kind ? eq(articles.kind, kind) : undefined, after))
    .orderBy(desc(articles.publishedAt), desc(articles.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map((row) => adminItem(row, now)),
    nextCursor: rows.length > limit ? String(page[page.length - 1]?.id) : null,
  };
}

export async function articleForOperators(
  db: Executor,
  now: Date,
  id: number,
): Promise<ArticleAdminDetail> {
  const [row] = await db.select().from(articles).where(eq(articles.id, id)).limit(1);
  if (!row) throw new AppError('ARTICLE_NOT_FOUND', {}, 404);
  const { title: _title, languages: _languages, ...item } = adminItem(row, now);
  return { ...item, title: row.title, summary: row.summary, body: row.body };
}

/** Takes an article down (readers stop seeing it at once) or puts it back; audited with the reason. */
export async function setArticlePublished(
  db: Db,
  now: Date,
  operator: OperatorContext,
  id: number,
  published: boolean,
  reason?: string,
): Promise<ArticleAdminDetail> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(articles).where(eq(articles.id, id)).for('update');
    if (!current) throw new AppError('ARTICLE_NOT_FOUND', {}, 404);
    if (!published && current.unpublishedAt)
      throw new AppError('ARTICLE_ALREADY_UNPUBLISHED', {}, 409);
    if (published && !current.unpublishedAt) throw new AppError('ARTICLE_NOT_UNPUBLISHED', {}, 409);
    await tx
      .update(articles)
      .set({ unpublishedAt: published ? null : now, updatedAt: now })
      .where(eq(articles.id, id));
    await audit(tx, now, operator, {
      action: published ? 'article.republish' : 'article.unpublish',
      targetType: 'article',
      targetId: id,
      before: { state: stateOf(current, now) },
      after: {
        state: published ? stateOf({ ...current, unpublishedAt: null }, now) : 'unpublished',
      },
      reason: reason ?? null,
    });
  });
  return articleForOperators(db, now, id);
}
