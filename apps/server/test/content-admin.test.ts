import {
  type IeoAdminApplications,
  type IeoAdminProject,
  type IeoProject,
  IeoStatus,
  allocate,
} from '@tradewind/contract/ieo';
import type {
  ArticleAdminDetail,
  ArticleAdminList,
  ArticleList,
  BroadcastView,
} from '@tradewind/contract/messages';
import type { VotePollAdmin } from '@tradewind/contract/vote';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/platform/db.ts';
import {
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  operatorToken,
  registerUser,
} from './harness.ts';
import { multipartBody, pngImage } from './uploads.ts';

/** The operator console's content routes (issue 7): news, polls, broadcasts, IEO — each audited, each refused to reviewers. */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A fresh session per call: tests move the clock past the operators' idle timeout. */
const as = async (role: 'reviewer' | 'catalog' | 'admin') => (await operatorToken(t, role)).token;
const get = async <T>(url: string, role: 'reviewer' | 'catalog' | 'admin' = 'catalog') =>
  call<T>(t.app, 'GET', `/api/admin/v1/${url}`, { token: await as(role) });
const post = async <T>(
  url: string,
  body: unknown,
  role: 'reviewer' | 'catalog' | 'admin' = 'catalog',
) => call<T>(t.app, 'POST', `/api/admin/v1/${url}`, { token: await as(role), body });
const at = (ms: number) => new Date(ms).toISOString();
const auditOf = (targetType: string, targetId: string) =>
  queryRows<{ action: string; reason: string | null }>(
    t.database.db,
    sql`select action, reason from audit_log where target_type = ${targetType} and target_id = ${targetId} order by id`,
  );
const count = async (table: string) =>
  (
    await queryRows<{ n: number }>(
      t.database.db,
      sql.raw(`select count(*)::int as n from ${table}`),
    )
  )[0]?.n;
/** Audit rows of content actions (each test signs operators in, which is audited too). */
const auditCount = async () =>
  (
    await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from audit_log where target_type <> 'operator'`,
    )
  )[0]?.n;

describe('news and notices for operators', () => {
  const article = (overrides: Record<string, unknown> = {}) => ({
    kind: 'news',
    title: { en: 'Console title', zh_CN: '控制台标题' },
    summary: { en: 'Summary', zh_CN: '摘要' },
    body: { en: '<p>Body <strong>bold</strong></p>', zh_CN: '<p>正文</p>' },
    cover: null,
    publishedAt: at(t.clock.now().getTime() - HOUR),
    ...overrides,
  });
  const publicList = async () =>
    (await call<ArticleList>(t.app, 'GET', '/api/v1/news?kind=news')).body.data.items.map(
      (a) => a.id,
    );

  it('lists every article, scheduled and published, with its languages; the detail has every language', async () => {
    const live = await post<{ id: string }>('news/save', article());
    const later = await post<{ id: string }>(
      'news/save',
      article({
        title: { en: 'Later' },
        summary: { en: 'S' },
        body: { en: '<p>x</p>' },
        publishedAt: at(t.clock.now().getTime() + DAY),
      }),
    );
    const list = await get<ArticleAdminList>('news?kind=news');
    expect(list.body.code).toBe(0);
    const byId = new Map(list.body.data.items.map((i) => [i.id, i]));
    expect(byId.get(live.body.data.id)).toMatchObject({
      state: 'published',
      title: 'Console title',
      languages: ['en', 'zh_CN'],
    });
    expect(byId.get(later.body.data.id)).toMatchObject({ state: 'scheduled', languages: ['en'] });
    expect(await publicList()).not.toContain(later.body.data.id);

    const detail = await get<ArticleAdminDetail>(`news/detail?id=${live.body.data.id}`);
    expect(detail.body.data.title).toEqual({ en: 'Console title', zh_CN: '控制台标题' });
    expect(detail.body.data.body).toEqual({
      en: '<p>Body <strong>bold</strong></p>',
      zh_CN: '<p>正文</p>',
    });
  });

  it('unpublish hides an article from readers at once and is audited with the reason; republish brings it back', async () => {
    const { id } = (await post<{ id: string }>('news/save', article())).body.data;
    expect(await publicList()).toContain(id);
    const down = await post<ArticleAdminDetail>('news/unpublish', { id, reason: 'wrong date' });
    expect(down.body.code, JSON.stringify(down.body)).toBe(0);
    expect(down.body.data.state).toBe('unpublished');
    expect(await publicList()).not.toContain(id);
    expect((await call(t.app, 'GET', `/api/v1/news/detail?id=${id}`)).body.code).toBe(3251);

    // Twice: refused, nothing changes (not even the audit log).
    const audits = await auditCount();
    const again = await post('news/unpublish', { id });
    expect(again.body.code).toBe(3581);
    expect(await auditCount()).toBe(audits);

    const up = await post<ArticleAdminDetail>('news/republish', { id });
    expect(up.body.data.state).toBe('published');
    expect(await publicList()).toContain(id);
    expect((await post('news/republish', { id })).body.code).toBe(3582);
    expect(await auditOf('article', id)).toEqual([
      { action: 'article.create', reason: null },
      { action: 'article.unpublish', reason: 'wrong date' },
      { action: 'article.republish', reason: null },
    ]);
  });

  it('bad input is refused and changes nothing; reviewers get 403 on every route', async () => {
    const { id } = (await post<{ id: string }>('news/save', article())).body.data;
    const before = [await count('articles'), await auditCount()];
    expect((await post('news/unpublish', { id: 'abc' })).body.code).toBe(422);
    expect((await post('news/unpublish', { id, extra: 1 })).body.code).toBe(422);
    expect((await post('news/unpublish', { id: '999999' })).body.code).toBe(3251);
    expect((await get('news?kind=poem')).body.code).toBe(422);
    expect((await get('news/detail?id=999999')).body.code).toBe(3251);
    expect((await post('news/save', article({ title: { zh_CN: '只有中文' } }))).body.code).toBe(
      422,
    );
    for (const [method, url] of [
      ['GET', 'news'],
      ['GET', `news/detail?id=${id}`],
      ['POST', 'news/unpublish'],
      ['POST', 'news/republish'],
      ['POST', 'news/save'],
    ] as const) {
      const reply =
        method === 'GET'
          ? await get(url, 'reviewer')
          : await post(url, url === 'news/save' ? article() : { id }, 'reviewer');
      expect(reply.status, url).toBe(403);
    }
    expect([await count('articles'), await auditCount()]).toEqual(before);
    expect(await publicList()).toContain(id);
  });
});

describe('article covers', () => {
  const uploadCover = async (
    role: 'reviewer' | 'catalog',
    parts: Parameters<typeof multipartBody>[0],
  ) => {
    const body = multipartBody(parts);
    return call<{ id: string; url: string; width: number }>(
      t.app,
      'POST',
      '/api/admin/v1/news/cover',
      { token: await as(role), body: body.payload, headers: { 'content-type': body.contentType } },
    );
  };

  it('an uploaded cover is re-encoded, public on the image host, audited, and usable as a cover', async () => {
    const reply = await uploadCover('catalog', [
      { name: 'file', filename: 'c.png', contentType: 'image/png', data: await pngImage(320, 180) },
    ]);
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
    expect(reply.body.data.url).toMatch(/^\/files\/[0-9a-f]{48}\.jpg$/);
    const served = await t.app.inject({ method: 'GET', url: reply.body.data.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(await auditOf('file', reply.body.data.id)).toEqual([
      { action: 'article.cover_upload', reason: null },
    ]);
    const saved = await post('news/save', {
      kind: 'notice',
      title: { en: 'With cover' },
      summary: { en: 'S' },
      body: { en: '<p>x</p>' },
      cover: reply.body.data.url,
      publishedAt: at(t.clock.now().getTime()),
    });
    expect(saved.body.code).toBe(0);
  });

  it('not an image, no file, or a reviewer: refused, nothing stored', async () => {
    const before = [await count('files'), await auditCount()];
    expect(
      (
        await uploadCover('catalog', [
          {
            name: 'file',
            filename: 'x.png',
            contentType: 'image/png',
            data: Buffer.from('<script>alert(1)</script>'),
          },
        ])
      ).body.code,
    ).not.toBe(0);
    expect((await uploadCover('catalog', [{ name: 'other', value: 'x' }])).body.code).not.toBe(0);
    expect(
      (
        await uploadCover('reviewer', [
          { name: 'file', filename: 'c.png', contentType: 'image/png', data: await pngImage() },
        ])
      ).status,
    ).toBe(403);
    expect([await count('files'), await auditCount()]).toEqual(before);
  });
});

describe('polls for operators', () => {
  const poll = (overrides: Record<string, unknown> = {}) => ({
    title: { en: 'Pick one', zh_CN: '选一个' },
    description: { en: 'Tell us', zh_CN: '' },
    options: [{ label: { en: 'A', zh_CN: '甲' } }, { label: { en: 'B' } }],
    endsAt: at(t.clock.now().getTime() + DAY),
    ...overrides,
  });

  it('creates a poll (audited), users see and vote in it, operators see the results, close ends it (audited)', async () => {
    const created = await post<VotePollAdmin>('votes/create', poll());
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const { id, options } = created.body.data;
    expect(created.body.data).toMatchObject({
      status: 'open',
      title: { en: 'Pick one', zh_CN: '选一个' },
      description: { en: 'Tell us' },
      total: 0,
    });
    expect(await auditOf('vote_poll', id)).toEqual([{ action: 'poll.create', reason: null }]);

    const user = await registerUser(t.app);
    const vote = await call(t.app, 'POST', '/api/v1/votes/cast', {
      token: user.token,
      body: { pollId: id, optionId: options[1]?.id },
    });
    expect(vote.body.code).toBe(0);
    const listed = (await get<{ items: VotePollAdmin[] }>('votes')).body.data.items.find(
      (p) => p.id === id,
    );
    expect(listed?.options.map((o) => [o.label.en, o.count])).toEqual([
      ['A', 0],
      ['B', 1],
    ]);
    expect(listed?.total).toBe(1);

    t.clock.advance(60_000);
    const closed = await post<VotePollAdmin>('votes/close', { id, reason: 'done' });
    expect(closed.body.code, JSON.stringify(closed.body)).toBe(0);
    expect(closed.body.data.status).toBe('ended');
    expect(closed.body.data.total).toBe(1);
    const late = await registerUser(t.app);
    expect(
      (
        await call(t.app, 'POST', '/api/v1/votes/cast', {
          token: late.token,
          body: { pollId: id, optionId: options[0]?.id },
        })
      ).body.code,
    ).toBe(2702);
    expect(await auditOf('vote_poll', id)).toEqual([
      { action: 'poll.create', reason: null },
      { action: 'poll.close', reason: 'done' },
    ]);
    // Closing an ended poll: refused, nothing changes.
    const audits = await auditCount();
    expect((await post('votes/close', { id })).body.code).toBe(3580);
    expect(await auditCount()).toBe(audits);
  });

  it('bad input is refused and changes nothing; reviewers get 403', async () => {
    const before = [await count('vote_polls'), await count('vote_options'), await auditCount()];
    expect(
      (await post('votes/create', poll({ options: [{ label: { en: 'Only' } }] }))).body.code,
    ).toBe(422);
    expect((await post('votes/create', poll({ title: { de: 'Nur Deutsch' } }))).body.code).toBe(
      422,
    );
    const past = await post('votes/create', poll({ endsAt: at(t.clock.now().getTime() - HOUR) }));
    expect(past.body.errors?.endsAt).toEqual(['A poll must end in the future.']);
    expect(
      (await post('votes/create', poll({ startsAt: at(t.clock.now().getTime() + 2 * DAY) }))).body
        .code,
    ).toBe(422);
    expect((await post('votes/create', { ...poll(), slug: 'x' })).body.code).toBe(422);
    expect((await post('votes/close', { id: '999999' })).body.code).toBe(2703);
    const upcoming = await post<VotePollAdmin>(
      'votes/create',
      poll({ startsAt: at(t.clock.now().getTime() + HOUR) }),
    );
    expect(upcoming.body.data.status).toBe('upcoming');
    expect((await post('votes/close', { id: upcoming.body.data.id })).body.code).toBe(3580);
    expect((await get('votes', 'reviewer')).status).toBe(403);
    expect((await post('votes/create', poll(), 'reviewer')).status).toBe(403);
    expect((await post('votes/close', { id: upcoming.body.data.id }, 'reviewer')).status).toBe(403);
    // Only the upcoming poll (and its audit row) was added.
    expect([await count('vote_polls'), await count('vote_options'), await auditCount()]).toEqual([
      (before[0] ?? 0) + 1,
      (before[1] ?? 0) + 2,
      (before[2] ?? 0) + 1,
    ]);
  });
});

describe('broadcasts for operators', () => {
  it('lists what was sent in every language with the sender; only administrators', async () => {
    const admin = await operatorToken(t, 'admin');
    const sent = await call<{ broadcastId: string }>(
      t.app,
      'POST',
      '/api/admin/v1/messages/broadcast',
      {
        token: admin.token,
        body: { title: { en: 'Maintenance', zh_CN: '维护' }, body: { en: 'Soon back.' } },
      },
    );
    expect(sent.body.code).toBe(0);
    const list = await call<{ items: BroadcastView[] }>(
      t.app,
      'GET',
      '/api/admin/v1/messages/broadcasts',
      { token: admin.token },
    );
    expect(list.body.data.items[0]).toMatchObject({
      id: sent.body.data.broadcastId,
      title: { en: 'Maintenance', zh_CN: '维护' },
      operator: admin.username,
    });
    expect((await get('messages/broadcasts', 'reviewer')).status).toBe(403);
    // Broadcasts are content: catalog managers send them and see the history.
    expect((await get('messages/broadcasts', 'catalog')).body.code).toBe(0);
  });
});

describe('IEO projects for operators', () => {
  it('lists projects with counts; after the allocation the applications show what allocate() decided, with totals', async () => {
    const now = t.clock.now().getTime();
    const created = await post<IeoProject>('ieo/create', {
      slug: 'console-test',
      token: 'CONSOLE',
      tokenName: 'Console token',
      name: { en: 'Console project' },
      description: { en: 'For the console' },
      supply: '100',
      unitPrice: '1',
      priceMin: '1',
      priceMax: '2',
      perUserCap: '80',
      startsAt: at(now - HOUR),
      endsAt: at(now + HOUR),
      listsAt: at(now + 2 * HOUR),
      announcedAt: at(now - 2 * HOUR),
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const projectId = created.body.data.id;
    const users = [];
    for (const [quantity, price] of [
      ['80', '1'],
      ['60', '2'],
      ['20', '1'],
    ] as const) {
      const user = await registerUser(t.app);
      await t.database.db.execute(
        sql`update users set verified = true where id = ${Number(user.uid)}`,
      );
      await fund(t, Number(user.uid), 1_000_000_000n);
      const reply = await call(t.app, 'POST', '/api/v1/ieo/subscribe', {
        token: user.token,
        headers: { 'idempotency-key': idempotencyKey() },
        body: { projectId, price, quantity },
      });
      expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
      users.push(user);
    }
    const listed = (await get<{ items: IeoAdminProject[] }>('ieo/projects')).body.data.items.find(
      (p) => p.id === projectId,
    );
    expect(listed).toMatchObject({
      status: IeoStatus.SUBSCRIBING,
      applications: 3,
      committed: '220',
      subscribed: '160',
      slug: 'console-test',
    });
    const before = (await get<IeoAdminApplications>(`ieo/applications?id=${projectId}`)).body.data;
    expect(before.allocation).toBeNull();
    expect(before.items.map((a) => [a.quantity, a.amount, a.allocatedQuantity])).toEqual([
      ['60', '120', null],
      ['80', '80', null],
      ['20', '20', null],
    ]);

    // Before the end: the console's trigger is refused and nothing is allocated.
    expect((await post('ieo/allocate', { id: projectId })).body.code).toBe(3357);
    t.clock.advance(2 * HOUR);
    const ran = await post<{ ran: boolean }>('ieo/allocate', { id: projectId });
    expect(ran.body.data.ran).toBe(true);
    const after = (await get<IeoAdminApplications>(`ieo/applications?id=${projectId}`)).body.data;
    const rows = await queryRows<{ id: string; quantity: string; amount_minor: string }>(
      t.database.db,
      sql`select id::text, quantity::text, amount_minor::text from ieo_applications where project_id = ${Number(projectId)} order by id`,
    );
    const expected = allocate({
      supply: 100n,
      perUserCap: 80n,
      applications: rows.map((r) => ({
        id: r.id,
        quantity: BigInt(r.quantity),
        amount: BigInt(r.amount_minor),
      })),
    });
    expect(Object.fromEntries(after.items.map((a) => [a.id, a.allocatedQuantity]))).toEqual(
      Object.fromEntries(expected.map((e) => [e.id, e.quantity.toString()])),
    );
    const allocated = expected.reduce((sum, e) => sum + e.quantity, 0n);
    expect(after.allocation).toMatchObject({
      supply: '100',
      allocated: allocated.toString(),
      unsold: (100n - allocated).toString(),
    });
    expect(after.items.every((a) => a.status === IeoStatus.APPLIED)).toBe(true);
    expect(await auditOf('ieo_project', projectId)).toEqual([
      { action: 'ieo.create', reason: null },
      { action: 'ieo.allocate', reason: null },
    ]);
  });

  it('bad input is refused; reviewers get 403', async () => {
    expect((await get('ieo/applications?id=abc')).body.code).toBe(422);
    expect((await get('ieo/applications?id=999999')).body.code).toBe(3350);
    expect((await get('ieo/projects', 'reviewer')).status).toBe(403);
    expect((await get('ieo/applications?id=1', 'reviewer')).status).toBe(403);
    expect((await post('ieo/allocate', { id: '1' }, 'reviewer')).status).toBe(403);
  });
});
