import { sql } from 'drizzle-orm';
import type { VotePoll, VotePollList } from '@tradewind/contract/vote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPoll, seedDemoPolls } from '../src/modules/vote/service.ts';
import { queryRows } from '../src/platform/db.ts';
import { T0, type TestApp, call, createTestApp, operatorToken, registerUser } from './harness.ts';

/** Voting (spec /Vote): polls with counts, one vote per user, "vote successful" / "you have already voted". */

const DAY = 86_400_000;
let t: TestApp;
let openPoll: number;
let otherPoll: number;
let endedPoll: number;
let upcomingPoll: number;

const poll = (slug: string, startsAt: number, endsAt: number, labels = ['Yes', 'No']) =>
  createPoll(t.database.db, new Date(T0), {
    slug,
    title: { en: `Poll ${slug}`, de: `Umfrage ${slug}` },
    description: { en: 'Describe it' },
    startsAt: new Date(startsAt),
    endsAt: new Date(endsAt),
    options: labels.map((en) => ({ en, de: `${en} (de)` })),
  });

beforeAll(async () => {
  t = await createTestApp();
  openPoll = await poll('open', T0 - DAY, T0 + 10 * DAY, ['Apples', 'Pears', 'Plums']);
  otherPoll = await poll('other', T0 - DAY, T0 + 10 * DAY);
  endedPoll = await poll('ended', T0 - 10 * DAY, T0 - DAY);
  upcomingPoll = await poll('upcoming', T0 + DAY, T0 + 10 * DAY);
  await poll('long-ended', T0 - 100 * DAY, T0 - 60 * DAY);
});
afterAll(() => t.close());

const list = async (token: string, lang?: string) =>
  (await call<VotePollList>(t.app, 'GET', '/api/v1/votes', { token, lang })).body.data.items;
const find = (items: VotePoll[], id: number) => items.find((p) => p.id === String(id)) as VotePoll;
const optionsOf = async (token: string, id: number) => find(await list(token), id).options;
const cast = (token: string, pollId: number, optionId: string | number, lang?: string) =>
  call<VotePoll>(t.app, 'POST', '/api/v1/votes/cast', {
    token,
    lang,
    body: { pollId: String(pollId), optionId: String(optionId) },
  });
const ballots = async (pollId: number, userId?: number) => {
  const rows = await queryRows<{ n: number }>(
    t.database.db,
    userId === undefined
      ? sql`select count(*)::int as n from vote_ballots where poll_id = ${pollId}`
      : sql`select count(*)::int as n from vote_ballots where poll_id = ${pollId} and user_id = ${userId}`,
  );
  return Number(rows[0]?.n);
};

describe('listing polls', () => {
  it('lists open, upcoming and recently ended polls with options, counts and status; long-ended polls are left out', async () => {
    const user = await registerUser(t.app);
    const items = await list(user.token);
    expect(items.map((p) => [p.title, p.status])).toEqual([
      ['Poll open', 'open'],
      ['Poll other', 'open'],
      ['Poll upcoming', 'upcoming'],
      ['Poll ended', 'ended'],
    ]);
    const open = find(items, openPoll);
    expect(open.options.map((o) => [o.label, o.count])).toEqual([
      ['Apples', 0],
      ['Pears', 0],
      ['Plums', 0],
    ]);
    expect(open).toMatchObject({
      total: 0,
      votedOptionId: null,
      description: 'Describe it',
      startsAt: new Date(T0 - DAY).toISOString(),
    });
  });

  it("texts come in the request's language, with English where a text has no translation", async () => {
    const user = await registerUser(t.app);
    const open = find(await list(user.token, 'de'), openPoll);
    expect(open.title).toBe('Umfrage open');
    expect(open.description).toBe('Describe it');
    expect(open.options[0]?.label).toBe('Apples (de)');
  });

  it('requires a signed-in user', async () => {
    expect((await call(t.app, 'GET', '/api/v1/votes')).status).toBe(401);
    expect(
      (
        await call(t.app, 'POST', '/api/v1/votes/cast', {
          body: { pollId: String(openPoll), optionId: '1' },
        })
      ).status,
    ).toBe(401);
  });
});

describe('casting a vote', () => {
  it('a vote adds one to its option and marks the poll as voted by the user', async () => {
    const user = await registerUser(t.app);
    const before = await optionsOf(user.token, openPoll);
    const pears = before[1]?.id as string;
    const reply = await cast(user.token, openPoll, pears, 'en');
    expect(reply.body.code).toBe(0);
    expect(reply.body.data.votedOptionId).toBe(pears);
    expect(reply.body.data.options.map((o) => o.count)).toEqual(
      before.map((o) => o.count + (o.id === pears ? 1 : 0)),
    );
    expect(reply.body.data.total).toBe(before.reduce((s, o) => s + o.count, 0) + 1);
    const after = find(await list(user.token), openPoll);
    expect(after.votedOptionId).toBe(pears);
    expect(after.options.map((o) => o.count)).toEqual(reply.body.data.options.map((o) => o.count));
    // Another user sees the new count but no vote of their own.
    const other = await registerUser(t.app);
    const seen = find(await list(other.token), openPoll);
    expect(seen.votedOptionId).toBeNull();
    expect(seen.options.find((o) => o.id === pears)?.count).toBe((before[1]?.count ?? 0) + 1);
  });

  it('one vote per user: a second vote, for the same or another option, is refused with "you have already voted" and counts stay', async () => {
    const user = await registerUser(t.app);
    const options = await optionsOf(user.token, openPoll);
    expect((await cast(user.token, openPoll, options[0]?.id as string)).body.code).toBe(0);
    const counts = (await optionsOf(user.token, openPoll)).map((o) => o.count);
    for (const option of [options[0], options[2]]) {
      const again = await cast(user.token, openPoll, option?.id as string);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        code: 2701,
        message: 'You have already voted.',
        data: null,
      });
    }
    expect((await cast(user.token, openPoll, options[2]?.id as string, 'de')).body.message).toBe(
      'Sie haben bereits abgestimmt.',
    );
    expect((await optionsOf(user.token, openPoll)).map((o) => o.count)).toEqual(counts);
    expect(await ballots(openPoll, Number(user.uid))).toBe(1);
  });

  it('one vote per user holds under concurrency: 20 simultaneous votes make exactly one ballot', async () => {
    const user = await registerUser(t.app);
    const options = await optionsOf(user.token, otherPoll);
    const totalBefore = await ballots(otherPoll);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        cast(user.token, otherPoll, options[i % 2]?.id as string),
      ),
    );
    expect(replies.filter((r) => r.body.code === 0)).toHaveLength(1);
    expect(replies.filter((r) => r.body.code === 2701)).toHaveLength(19);
    expect(await ballots(otherPoll, Number(user.uid))).toBe(1);
    expect(await ballots(otherPoll)).toBe(totalBefore + 1);
    expect(find(await list(user.token), otherPoll).total).toBe(totalBefore + 1);
  });

  it('a vote in one poll does not count as a vote in another', async () => {
    const user = await registerUser(t.app);
    const first = await optionsOf(user.token, openPoll);
    const second = await optionsOf(user.token, otherPoll);
    expect((await cast(user.token, openPoll, first[0]?.id as string)).body.code).toBe(0);
    expect((await cast(user.token, otherPoll, second[1]?.id as string)).body.code).toBe(0);
  });

  it('an option of another poll, or an unknown poll or option, is VOTE_NOT_FOUND and nothing is recorded', async () => {
    const user = await registerUser(t.app);
    const foreign = (await optionsOf(user.token, otherPoll))[0]?.id as string;
    const totals = [await ballots(openPoll), await ballots(otherPoll)];
    for (const [pollId, optionId] of [
      [openPoll, foreign],
      [999_999, foreign],
      [openPoll, '999999'],
    ] as const) {
      const reply = await cast(user.token, pollId, optionId);
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({
        code: 2703,
        message: 'This poll or option does not exist.',
      });
    }
    expect([await ballots(openPoll), await ballots(otherPoll)]).toEqual(totals);
    expect(await ballots(otherPoll, Number(user.uid))).toBe(0);
  });

  it('the database refuses a ballot whose option belongs to another poll', async () => {
    const user = await registerUser(t.app);
    const foreign = (await optionsOf(user.token, otherPoll))[0]?.id as string;
    await expect(
      t.database.db.execute(
        sql`insert into vote_ballots (poll_id, option_id, user_id, created_at) values (${openPoll}, ${Number(foreign)}, ${Number(user.uid)}, now())`,
      ),
    ).rejects.toThrow();
  });

  it('ended and upcoming polls are VOTE_CLOSED', async () => {
    const user = await registerUser(t.app);
    const items = await list(user.token);
    for (const id of [endedPoll, upcomingPoll]) {
      const reply = await cast(user.token, id, find(items, id).options[0]?.id as string);
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({
        code: 2702,
        message: 'This poll is not open for voting.',
      });
      expect(await ballots(id)).toBe(0);
    }
  });

  it('a poll opens at its start and closes at its end (server clock)', async () => {
    const id = await poll('timed', T0 + DAY, T0 + 2 * DAY);
    const user = await registerUser(t.app);
    const option = find(await list(user.token), id).options[0]?.id as string;
    try {
      t.clock.set(T0 + DAY - 1);
      expect((await cast(user.token, id, option)).body.code).toBe(2702);
      t.clock.set(T0 + 2 * DAY);
      expect((await cast(user.token, id, option)).body.code).toBe(2702);
      expect(find(await list(user.token), id).status).toBe('ended');
      t.clock.set(T0 + DAY);
      expect(find(await list(user.token), id).status).toBe('open');
      expect((await cast(user.token, id, option)).body.code).toBe(0);
      expect(await ballots(id)).toBe(1);
    } finally {
      t.clock.set(T0);
    }
  });

  it('ballots cannot be changed or removed, so counts only move by new votes', async () => {
    const failure = (query: Promise<unknown>) =>
      query.then(
        () => 'succeeded',
        (error: unknown) => String((error as { cause?: unknown }).cause ?? error),
      );
    expect(
      await failure(t.database.db.execute(sql`update vote_ballots set option_id = option_id`)),
    ).toMatch(/append-only/);
    expect(await failure(t.database.db.execute(sql`delete from vote_ballots`))).toMatch(
      /append-only/,
    );
    expect(await ballots(openPoll)).toBeGreaterThan(0);
  });

  it('operators cannot cast votes', async () => {
    const { token } = await operatorToken(t, 'admin');
    const option = (await optionsOf((await registerUser(t.app)).token, openPoll))[0]?.id as string;
    const reply = await call(t.app, 'POST', '/api/v1/votes/cast', {
      token,
      body: { pollId: String(openPoll), optionId: option },
    });
    expect(reply.status).toBe(401);
  });

  it('bad input is refused with field errors', async () => {
    const user = await registerUser(t.app);
    for (const body of [
      {},
      { pollId: 'x', optionId: '1' },
      { pollId: '1', optionId: '0' },
      { pollId: 1, optionId: 1 },
      { pollId: '1', optionId: '1', extra: true },
    ]) {
      const reply = await call(t.app, 'POST', '/api/v1/votes/cast', { token: user.token, body });
      expect(reply.body.code, JSON.stringify(body)).toBe(422);
    }
  });
});

describe('demo polls', () => {
  it('seeding twice creates the two demo polls once, with texts in all seven languages', async () => {
    await seedDemoPolls(t.database.db, new Date(T0));
    await seedDemoPolls(t.database.db, new Date(T0));
    const rows = await queryRows<{ slug: string; langs: number; options: number }>(
      t.database.db,
      sql`select p.slug, (select count(*) from jsonb_object_keys(p.title))::int as langs, (select count(*) from vote_options o where o.poll_id = p.id)::int as options
          from vote_polls p where p.slug like 'demo-%' order by p.slug`,
    );
    expect(rows).toEqual([
      { slug: 'demo-next-feature', langs: 7, options: 3 },
      { slug: 'demo-next-listing', langs: 7, options: 4 },
    ]);
    const user = await registerUser(t.app);
    const items = await list(user.token, 'zh_TW');
    expect(items.map((p) => p.title)).toContain('下一個上架哪個幣種？');
  });
});
