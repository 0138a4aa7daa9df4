import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/platform/db.ts';
import { T0, type TestApp, call, createTestApp, registerUser } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;
/** Noon UTC on the test's first day, shifted by whole days. */
const onDay = (n: number) => T0 + n * DAY_MS;

interface State {
  checkedInToday: boolean;
  streak: number;
  points: number;
  todayReward: number;
  nextBonusInDays: number;
  rule: string;
  today: string;
}
interface Result extends State {
  awarded: { checkin: number; bonus: number; total: number };
}
interface History {
  items: { id: string; kind: string; amount: number; day: string | null; createdAt: string }[];
  nextCursor: string | null;
}

const state = (token: string, lang?: string) =>
  call<State>(t.app, 'GET', '/api/v1/points/checkin', { token, lang });
const checkIn = (token: string, lang?: string) =>
  call<Result>(t.app, 'POST', '/api/v1/points/checkin', { token, lang });
const history = (token: string, query = '') =>
  call<History>(t.app, 'GET', `/api/v1/points/history${query}`, { token });
const events = (uid: string) =>
  queryRows<{ kind: string; amount: number; day: string; streak: number | null }>(
    t.database.db,
    sql`select kind, amount, to_char(day, 'YYYY-MM-DD') as day, streak from points_events where user_id = ${Number(uid)} order by id`,
  );

describe('daily check-in', () => {
  it('the first check-in gives 10 points and flips the state to checked in', async () => {
    t.clock.set(onDay(0));
    const { token, uid } = await registerUser(t.app);
    const before = (await state(token)).body.data;
    expect(before).toMatchObject({
      checkedInToday: false,
      streak: 0,
      points: 0,
      todayReward: 10,
      nextBonusInDays: 6,
      today: '2026-11-21',
    });
    expect(before.rule).toBe(
      'Check in once a day for 10 points. Every 7th day in a row adds a bonus of 50 points. Days change at 00:00 UTC.',
    );

    const reply = await checkIn(token);
    expect(reply.body.code).toBe(0);
    expect(reply.body.data).toMatchObject({
      checkedInToday: true,
      streak: 1,
      points: 10,
      todayReward: 10,
      awarded: { checkin: 10, bonus: 0, total: 10 },
    });
    expect(await events(uid)).toEqual([
      { kind: 'checkin', amount: 10, day: '2026-11-21', streak: 1 },
    ]);
    expect((await state(token)).body.data).toMatchObject({
      checkedInToday: true,
      streak: 1,
      points: 10,
    });
    const profile = await call<{ points: number }>(t.app, 'GET', '/api/v1/user/profile', { token });
    expect(profile.body.data.points).toBe(10);
  });

  it('a second check-in the same UTC day is refused with CHECKIN_ALREADY_DONE and changes nothing', async () => {
    t.clock.set(onDay(0));
    const { token, uid } = await registerUser(t.app);
    await checkIn(token);
    t.clock.advance(3 * 60 * 60 * 1000);
    const again = await checkIn(token);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(2801);
    expect(again.body.message).toBe('You have already checked in today.');
    const zh = await checkIn(token, 'zh-CN');
    expect(zh.body.message).toBe('您今天已经签到过了。');
    expect((await state(token)).body.data).toMatchObject({
      checkedInToday: true,
      streak: 1,
      points: 10,
    });
    expect(await events(uid)).toHaveLength(1);
  });

  it('the next day continues the streak; a missed day resets it to 1', async () => {
    t.clock.set(onDay(0));
    const { token, uid } = await registerUser(t.app);
    await checkIn(token);
    t.clock.set(onDay(1));
    expect((await state(token)).body.data).toMatchObject({
      checkedInToday: false,
      streak: 1,
      nextBonusInDays: 5,
    });
    expect((await checkIn(token)).body.data).toMatchObject({
      streak: 2,
      points: 20,
      awarded: { total: 10 },
    });
    t.clock.set(onDay(3));
    // Day 2 was missed: the streak shown is 0 until today's check-in starts a new one.
    expect((await state(token)).body.data).toMatchObject({
      checkedInToday: false,
      streak: 0,
      todayReward: 10,
      nextBonusInDays: 6,
    });
    expect((await checkIn(token)).body.data).toMatchObject({ streak: 1, points: 30 });
    expect((await events(uid)).map((e) => [e.day, e.streak])).toEqual([
      ['2026-11-21', 1],
      ['2026-11-22', 2],
      ['2026-11-24', 1],
    ]);
  });

  it('the 7th consecutive day adds a 50-point streak bonus as its own event', async () => {
    t.clock.set(onDay(10));
    const { token, uid } = await registerUser(t.app);
    for (let day = 0; day < 6; day += 1) {
      t.clock.set(onDay(10 + day));
      expect((await checkIn(token)).body.data.awarded).toEqual({
        checkin: 10,
        bonus: 0,
        total: 10,
      });
    }
    t.clock.set(onDay(16));
    expect((await state(token)).body.data).toMatchObject({
      streak: 6,
      todayReward: 60,
      nextBonusInDays: 0,
    });
    const seventh = await checkIn(token);
    expect(seventh.body.data).toMatchObject({
      streak: 7,
      points: 120,
      todayReward: 60,
      nextBonusInDays: 7,
      awarded: { checkin: 10, bonus: 50, total: 60 },
    });
    expect((await events(uid)).slice(-2)).toEqual([
      { kind: 'checkin', amount: 10, day: '2026-12-07', streak: 7 },
      { kind: 'streak_bonus', amount: 50, day: '2026-12-07', streak: null },
    ]);
    t.clock.set(onDay(17));
    expect((await checkIn(token)).body.data).toMatchObject({
      streak: 8,
      points: 130,
      awarded: { bonus: 0 },
    });
  });

  it('20 concurrent check-ins by one user make exactly one event', async () => {
    t.clock.set(onDay(30));
    const { token, uid } = await registerUser(t.app);
    const replies = await Promise.all(Array.from({ length: 20 }, () => checkIn(token)));
    expect(replies.filter((r) => r.body.code === 0)).toHaveLength(1);
    expect(replies.filter((r) => r.body.code === 2801)).toHaveLength(19);
    expect(await events(uid)).toEqual([
      { kind: 'checkin', amount: 10, day: '2026-12-21', streak: 1 },
    ]);
    expect((await state(token)).body.data.points).toBe(10);
  });

  it('days roll over at 00:00:00 UTC: 23:59:59 and 00:00:00 are two days', async () => {
    t.clock.set(Date.UTC(2027, 0, 31, 23, 59, 59));
    const { token, uid } = await registerUser(t.app);
    expect((await checkIn(token)).body.data).toMatchObject({ today: '2027-01-31', streak: 1 });
    t.clock.set(Date.UTC(2027, 0, 31, 23, 59, 59, 999));
    expect((await checkIn(token)).body.code).toBe(2801);
    t.clock.set(Date.UTC(2027, 1, 1, 0, 0, 0));
    expect((await state(token)).body.data).toMatchObject({
      checkedInToday: false,
      streak: 1,
      today: '2027-02-01',
    });
    expect((await checkIn(token)).body.data).toMatchObject({
      today: '2027-02-01',
      streak: 2,
      points: 20,
    });
    expect((await events(uid)).map((e) => e.day)).toEqual(['2027-01-31', '2027-02-01']);
  });

  it('the rule comes in the request language', async () => {
    const { token } = await registerUser(t.app);
    expect((await state(token, 'zh-CN')).body.data.rule).toBe(
      '每天签到一次可得 10 积分。连续签到每满 7 天，额外奖励 50 积分。每日以 UTC 00:00 为界。',
    );
  });
});

describe('points history', () => {
  it('lists the user’s own events newest first, a page at a time', async () => {
    t.clock.set(onDay(100));
    const { token } = await registerUser(t.app);
    const other = await registerUser(t.app);
    for (let day = 0; day < 7; day += 1) {
      t.clock.set(onDay(100 + day));
      await checkIn(token);
      await checkIn(other.token);
    }
    // 7 check-ins and one bonus.
    const first = await history(token, '?limit=3');
    expect(first.body.data.items.map((e) => [e.kind, e.amount, e.day])).toEqual([
      ['streak_bonus', 50, '2027-03-07'],
      ['checkin', 10, '2027-03-07'],
      ['checkin', 10, '2027-03-06'],
    ]);
    expect(first.body.data.nextCursor).not.toBeNull();
    const second = await history(token, `?limit=3&cursor=${first.body.data.nextCursor}`);
    expect(second.body.data.items.map((e) => e.day)).toEqual([
      '2027-03-05',
      '2027-03-04',
      '2027-03-03',
    ]);
    const third = await history(token, `?limit=3&cursor=${second.body.data.nextCursor}`);
    expect(third.body.data.items.map((e) => e.day)).toEqual(['2027-03-02', '2027-03-01']);
    expect(third.body.data.nextCursor).toBeNull();
    const all = [...first.body.data.items, ...second.body.data.items, ...third.body.data.items];
    expect(new Set(all.map((e) => e.id)).size).toBe(8);
    expect(all.reduce((sum, e) => sum + e.amount, 0)).toBe(120);
    const otherIds = new Set(
      (await history(other.token, '?limit=50')).body.data.items.map((e) => e.id),
    );
    expect(all.some((e) => otherIds.has(e.id))).toBe(false);
  });

  it('refuses a page size over the limit', async () => {
    const { token } = await registerUser(t.app);
    const reply = await history(token, '?limit=51');
    expect(reply.body.code).toBe(422);
  });

  it('needs a signed-in user', async () => {
    expect((await call(t.app, 'GET', '/api/v1/points/checkin')).body.code).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/points/checkin')).body.code).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/points/history')).body.code).toBe(401);
  });
});

/** The database's own message for a statement it refuses (drizzle wraps it as the cause). */
async function failure(statement: SQL): Promise<string> {
  try {
    await t.database.db.execute(statement);
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return cause?.message ?? String(error);
  }
  return 'no error';
}

describe('points events are append-only', () => {
  it('the database refuses UPDATE, DELETE and TRUNCATE of points events', async () => {
    t.clock.set(onDay(200));
    const { token, uid } = await registerUser(t.app);
    await checkIn(token);
    expect(
      await failure(sql`update points_events set amount = 1000 where user_id = ${Number(uid)}`),
    ).toMatch(/points events are append-only \(UPDATE/);
    expect(await failure(sql`delete from points_events where user_id = ${Number(uid)}`)).toMatch(
      /points events are append-only \(DELETE/,
    );
    expect(await failure(sql`truncate points_events`)).toMatch(
      /points events are append-only \(TRUNCATE/,
    );
    expect(await events(uid)).toEqual([
      { kind: 'checkin', amount: 10, day: '2027-06-09', streak: 1 },
    ]);
  });

  it('the database refuses a second check-in row for the same user and day', async () => {
    t.clock.set(onDay(201));
    const { token, uid } = await registerUser(t.app);
    await checkIn(token);
    expect(
      await failure(
        sql`insert into points_events (user_id, kind, amount, day, streak, created_at) values (${Number(uid)}, 'checkin', 10, '2027-06-10', 1, now())`,
      ),
    ).toMatch(/points_events_user_checkin_day_key/);
    expect(await events(uid)).toHaveLength(1);
  });
});
