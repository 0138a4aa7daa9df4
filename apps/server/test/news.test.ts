import { LANGUAGES } from '@tradewind/contract/languages';
import type { Article, ArticleList } from '@tradewind/contract/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoArticles } from '../src/modules/news/demo-articles.ts';
import { sanitizeRichText } from '../src/modules/news/sanitize.ts';
import { queryRows } from '../src/platform/db.ts';
import { type TestApp, call, createTestApp, operatorToken } from './harness.ts';

/** News and notices (spec /NewsDetail, /NoticeDetail, Home's news): per-language texts, sanitised bodies. */

let t: TestApp;
let catalog: { token: string; username: string };
let reviewer: { token: string; username: string };
beforeAll(async () => {
  t = await createTestApp();
  catalog = await operatorToken(t, 'catalog');
  reviewer = await operatorToken(t, 'reviewer');
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const save = (body: Record<string, unknown>, token = catalog.token) =>
  call<{ id: string }>(t.app, 'POST', '/api/admin/v1/news/save', { token, body });
const article = (overrides: Record<string, unknown> = {}) => ({
  kind: 'news',
  title: { en: 'Title', de: 'Titel' },
  summary: { en: 'Summary' },
  body: { en: '<p>Body</p>', de: '<p>Inhalt</p>' },
  cover: '/news/market-week.svg',
  publishedAt: new Date(t.clock.now().getTime() - HOUR).toISOString(),
  ...overrides,
});
const detail = (id: string, lang?: string) =>
  call<Article>(t.app, 'GET', `/api/v1/news/detail?id=${id}`, { lang });
const listOf = async (kind: string, lang?: string, cursor?: string) =>
  (
    await call<ArticleList>(
      t.app,
      'GET',
      `/api/v1/news?kind=${kind}${cursor ? `&cursor=${cursor}` : ''}`,
      { lang },
    )
  ).body.data;

describe('the sanitiser (an allow-list)', () => {
  it('strips scripts, event handlers and javascript: URLs, keeps the allowed markup', () => {
    const dirty =
      '<h3 onclick="steal()">Hi</h3><script>alert(1)</script><p style="color:red">a <a href="javascript:alert(1)">link</a> <a href="https://example.com/x">ok</a></p>' +
      '<img src="x" onerror="alert(1)"><img src="https://img.example.com/a.png" alt="a"><iframe src="https://evil.example"></iframe><svg onload="alert(1)"></svg>' +
      '<a href="JaVaScRiPt:alert(1)">mixed case</a><a href="data:text/html;base64,PHNjcmlwdD4=">data</a><form><input></form>';
    const clean = sanitizeRichText(dirty);
    expect(clean).not.toMatch(
      /script|onerror|onclick|onload|javascript|iframe|style=|<svg|<form|<input|data:/i,
    );
    expect(clean).toContain('<h3>Hi</h3>');
    expect(clean).toContain(
      '<a href="https://example.com/x" rel="noopener noreferrer nofollow" target="_blank">ok</a>',
    );
    expect(clean).toContain('<img src="https://img.example.com/a.png" alt="a" />');
    expect(clean).toContain('<a rel="noopener noreferrer nofollow" target="_blank">link</a>');
  });
});

describe('operators create and edit articles', () => {
  it('a saved body is stored sanitised; the save is audited; a reviewer may not save', async () => {
    expect((await save(article(), reviewer.token)).status).toBe(403);
    const reply = await save(
      article({
        body: { en: '<p>Safe<script>alert(1)</script></p><img src="x" onerror="alert(1)">' },
      }),
    );
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
    const [row] = await queryRows<{ body: { en: string } }>(
      t.database.db,
      sql`select body from articles where id = ${Number(reply.body.data.id)}`,
    );
    expect(row?.body.en).toBe('<p>Safe</p><img src="x" />');
    const audit = await queryRows<{ action: string }>(
      t.database.db,
      sql`select action from audit_log where target_type = 'article' and target_id = ${reply.body.data.id}`,
    );
    expect(audit).toEqual([{ action: 'article.create' }]);

    const edited = await save(article({ id: reply.body.data.id, title: { en: 'New title' } }));
    expect(edited.body.code).toBe(0);
    expect((await detail(reply.body.data.id)).body.data.title).toBe('New title');
    const actions = await queryRows<{ action: string }>(
      t.database.db,
      sql`select action from audit_log where target_type = 'article' and target_id = ${reply.body.data.id} order by id`,
    );
    expect(actions.map((a) => a.action)).toEqual(['article.create', 'article.edit']);
  });

  it('a body that is nothing but unsafe markup is refused on the field, nothing saved', async () => {
    const before = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from articles`,
    );
    const reply = await save(article({ body: { en: '<script>alert(1)</script>' } }));
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.['body.en']).toBeDefined();
    expect(await queryRows(t.database.db, sql`select count(*)::text as n from articles`)).toEqual(
      before,
    );
  });

  it('refuses a javascript: cover and an edit of an unknown article', async () => {
    expect((await save(article({ cover: 'javascript:alert(1)' }))).body.code).toBe(422);
    expect((await save(article({ id: '999999' }))).body.code).toBe(3251);
  });
});

describe('readers', () => {
  it('see published articles in their language, English where there is no translation; not those scheduled later', async () => {
    const published = (await save(article({ kind: 'notice' }))).body.data.id;
    const later = (
      await save(
        article({
          kind: 'notice',
          publishedAt: new Date(t.clock.now().getTime() + HOUR).toISOString(),
        }),
      )
    ).body.data.id;
    const items = (await listOf('notice', 'de')).items;
    expect(items.map((i) => i.id)).toContain(published);
    expect(items.map((i) => i.id)).not.toContain(later);
    const german = (await detail(published, 'de')).body.data;
    expect(german).toMatchObject({
      kind: 'notice',
      title: 'Titel',
      summary: 'Summary',
      body: '<p>Inhalt</p>',
      cover: '/news/market-week.svg',
    });
    expect((await detail(published, 'fr')).body.data).toMatchObject({
      title: 'Title',
      body: '<p>Body</p>',
    });
    expect((await detail(later)).body.code).toBe(3251);
    t.clock.advance(2 * HOUR);
    expect((await detail(later)).body.code).toBe(0);
  });

  it('lists newest first by publish time and pages with a cursor', async () => {
    // The clock moved past the operator's idle timeout above: sign in again.
    catalog = await operatorToken(t, 'catalog');
    const base = t.clock.now().getTime();
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) {
      const reply = await save(
        article({ kind: 'news', publishedAt: new Date(base - (100 + i) * HOUR).toISOString() }),
      );
      expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
      ids.push(reply.body.data.id);
    }
    const all: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listOf('news', 'en', cursor);
      all.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(all.filter((id) => ids.includes(id))).toEqual(ids);
    expect(new Set(all).size).toBe(all.length);
  });

  it('the demo has at least 3 news and 2 notices, each in all seven languages; seeding twice adds none', async () => {
    await seedDemoArticles(t.database.db, t.clock.now());
    await seedDemoArticles(t.database.db, t.clock.now());
    const rows = await queryRows<{
      kind: string;
      title: Record<string, string>;
      summary: Record<string, string>;
      body: Record<string, string>;
    }>(
      t.database.db,
      sql`select kind, title, summary, body from articles where slug like 'demo-%'`,
    );
    expect(rows.filter((r) => r.kind === 'news').length).toBeGreaterThanOrEqual(3);
    expect(rows.filter((r) => r.kind === 'notice').length).toBeGreaterThanOrEqual(2);
    for (const row of rows)
      for (const field of [row.title, row.summary, row.body])
        expect(Object.keys(field).sort()).toEqual([...LANGUAGES].sort());
    const zh = (await listOf('news', 'zh-TW')).items.find(
      (i) => i.title === '本週市場：比特幣維持區間震盪',
    );
    expect(zh).toBeDefined();
  });
});
