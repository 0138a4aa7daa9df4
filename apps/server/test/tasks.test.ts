import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/platform/db.ts';
import { placed, trader } from './contracts.ts';
import {
  PASSWORD,
  T0,
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  lastCode,
  registerUser,
  uniqueEmail,
  verifyUser,
} from './harness.ts';
import { recordPrices } from './prices.ts';
import { approveRewardBudget } from './reward-budget-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;

interface Task {
  id: string;
  progress: number;
  done: number;
  target: number;
  status: string;
  requiresVerified: boolean;
  reward: { kind: string; amount: string; asset: string | null };
}
interface Tasks {
  items: Task[];
  points: number;
  verified: boolean;
}

const tasks = async (token: string) => {
  const reply = await call<Tasks>(t.app, 'GET', '/api/v1/tasks', { token });
  expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
  return reply.body.data;
};
const task = async (token: string, id: string) => {
  const found = (await tasks(token)).items.find((item) => item.id === id);
  if (!found) throw new Error(`no task ${id}`);
  return found;
};
const claim = (token: string, id: string, lang?: string) =>
  call<{ task: string; message: string; reward: { amount: string } }>(
    t.app,
    'POST',
    '/api/v1/tasks/claim',
    { token, lang, body: { task: id }, headers: { 'idempotency-key': idempotencyKey() } },
  );
const points = async (token: string) => (await tasks(token)).points;
const spotUsdt = async (token: string) => {
  const reply = await call<{ spot: { asset: string; available: string }[] }>(
    t.app,
    'GET',
    '/api/v1/wallet/balances',
    { token },
  );
  return reply.body.data.spot.find((s) => s.asset === 'USDT')?.available ?? '0';
};
const claimRows = async (uid: string) =>
  queryRows<{ task: string }>(
    t.database.db,
    sql`select task from task_claims where user_id = ${Number(uid)} order by id`,
  );

/** A paid crypto deposit row, as the deposit watcher leaves one, credited through the ledger. */
async function paidDeposit(uid: string) {
  await fund(t, Number(uid), 10_000_000n);
  const [entry] = await queryRows<{ id: string }>(
    t.database.db,
    sql`select max(id)::text as id from ledger_entries where user_id = ${Number(uid)}`,
  );
  await t.database.db.execute(
    sql`insert into deposits (user_id, asset, network, txid, log_index, to_address, amount_minor, block_number, status, required_confirmations, confirmations, entry_id, created_at, credited_at)
        values (${Number(uid)}, 'USDT', 'TRC20', ${`tx-${crypto.randomUUID()}`}, 0, 'Taddr', 10000000, 1, 'paid', 1, 1, ${Number(entry?.id)}, ${t.clock.now()}, ${t.clock.now()})`,
  );
}

async function registerInvited(inviteCode: string) {
  const account = uniqueEmail('friend');
  await call(t.app, 'POST', '/api/v1/auth/codes', {
    body: { channel: 'email', account, purpose: 'register' },
  });
  const code = await lastCode(t.app, account.toLowerCase());
  const reply = await call<{ token: string; uid: string }>(t.app, 'POST', '/api/v1/auth/register', {
    body: {
      mode: 'invite',
      channel: 'email',
      account,
      code,
      inviteCode,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    },
  });
  if (reply.body.code !== 0) throw new Error(JSON.stringify(reply.body));
  return reply.body.data;
}

describe('rewards centre progress', () => {
  it('a new user has every task at 0 progress, in progress, nothing claimable', async () => {
    t.clock.set(T0);
    const { token } = await registerUser(t.app);
    const list = await tasks(token);
    expect(list.items.map((i) => [i.id, i.progress, i.status])).toEqual([
      ['checkin_streak', 0, 'in_progress'],
      ['kyc_verified', 0, 'in_progress'],
      ['first_deposit', 0, 'in_progress'],
      ['first_trade', 0, 'in_progress'],
      ['invite_verified', 0, 'in_progress'],
    ]);
    expect(list.points).toBe(0);
  });

  it('progress follows real data: check-in streak, KYC, a paid deposit, an order, a verified invitee', async () => {
    t.clock.set(T0 + 100 * DAY_MS);
    const user = await registerUser(t.app);
    for (let day = 0; day < 3; day += 1) {
      t.clock.set(T0 + (100 + day) * DAY_MS);
      await call(t.app, 'POST', '/api/v1/points/checkin', { token: user.token });
    }
    expect(await task(user.token, 'checkin_streak')).toMatchObject({
      progress: 42,
      done: 3,
      target: 7,
      status: 'in_progress',
    });
    for (let day = 3; day < 9; day += 1) {
      t.clock.set(T0 + (100 + day) * DAY_MS);
      await call(t.app, 'POST', '/api/v1/points/checkin', { token: user.token });
    }
    // Nine days in a row: progress stays bounded at 100 (spec §9).
    expect(await task(user.token, 'checkin_streak')).toMatchObject({
      progress: 100,
      done: 7,
      status: 'claimable',
    });

    await verifyUser(t, Number(user.uid));
    expect(await task(user.token, 'kyc_verified')).toMatchObject({
      progress: 100,
      status: 'claimable',
    });

    await paidDeposit(user.uid);
    expect((await task(user.token, 'first_deposit')).progress).toBe(100);

    const { inviteCode } = (
      await call<{ inviteCode: string }>(t.app, 'GET', '/api/v1/invite', { token: user.token })
    ).body.data;
    const friend = await registerInvited(inviteCode);
    expect((await task(user.token, 'invite_verified')).progress).toBe(0);
    await verifyUser(t, Number(friend.uid));
    expect((await task(user.token, 'invite_verified')).progress).toBe(100);

    const someone = await trader(t);
    expect((await task(someone.token, 'first_trade')).progress).toBe(0);
    await recordPrices(t, { BTCUSDT: '95000.00' });
    await placed(t, someone.token);
    expect(await task(someone.token, 'first_trade')).toMatchObject({
      progress: 100,
      status: 'claimable',
    });
  });
});

describe('claiming a task', () => {
  it('an empty reward budget makes the USDT task unavailable and pays nothing', async () => {
    const user = await registerUser(t.app);
    await verifyUser(t, Number(user.uid));
    await paidDeposit(user.uid);
    // No admin has approved a USDT budget yet: there is nothing to give away.
    expect((await task(user.token, 'first_deposit')).status).toBe('unavailable');
    const before = await spotUsdt(user.token);
    const reply = await claim(user.token, 'first_deposit', 'de');
    expect(reply.body.code).toBe(2850);
    expect(reply.body.message).toBe('Sie können derzeit nicht an der Aktion teilnehmen.');
    expect(await spotUsdt(user.token)).toBe(before);
    expect(await claimRows(user.uid)).toEqual([]);
  });

  it('five concurrent claims of one task pay its points exactly once', async () => {
    t.clock.set(T0);
    const user = await registerUser(t.app);
    await verifyUser(t, Number(user.uid));
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => claim(user.token, 'kyc_verified')),
    );
    const codes = replies.map((r) => r.body.code).sort();
    expect(codes).toEqual([0, 2850, 2850, 2850, 2850]);
    const won = replies.find((r) => r.body.code === 0);
    expect(won?.body.data.message).toBe('Congratulations on receiving a reward');
    expect(await points(user.token)).toBe(200);
    expect(await claimRows(user.uid)).toEqual([{ task: 'kyc_verified' }]);
    expect(await task(user.token, 'kyc_verified')).toMatchObject({ status: 'claimed' });
    const again = await claim(user.token, 'kyc_verified', 'zh-CN');
    expect(again.body.message).toBe('暂时无法参与该活动。');
    expect(await points(user.token)).toBe(200);
  });

  it('five concurrent claims of a USDT task pay once, from the reward budget', async () => {
    await approveRewardBudget(t, '100');
    const user = await registerUser(t.app);
    await verifyUser(t, Number(user.uid));
    await paidDeposit(user.uid);
    const before = await spotUsdt(user.token);
    const budgetBefore = await queryRows<{ granted: string }>(
      t.database.db,
      sql`select granted_minor::text as granted from reward_budgets where asset = 'USDT'`,
    );
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => claim(user.token, 'first_deposit')),
    );
    expect(replies.filter((r) => r.body.code === 0)).toHaveLength(1);
    expect(Number(await spotUsdt(user.token)) - Number(before)).toBe(2);
    const budgetAfter = await queryRows<{ granted: string }>(
      t.database.db,
      sql`select granted_minor::text as granted from reward_budgets where asset = 'USDT'`,
    );
    expect(BigInt(budgetAfter[0]?.granted ?? 0) - BigInt(budgetBefore[0]?.granted ?? 0)).toBe(
      2_000_000n,
    );
    expect(await claimRows(user.uid)).toEqual([{ task: 'first_deposit' }]);
  });

  it('an unverified user cannot take a USDT task: "Cannot participate", nothing paid', async () => {
    const user = await registerUser(t.app);
    await paidDeposit(user.uid);
    expect(await task(user.token, 'first_deposit')).toMatchObject({
      progress: 100,
      status: 'unavailable',
    });
    const before = await spotUsdt(user.token);
    const reply = await claim(user.token, 'first_deposit');
    expect(reply.body.code).toBe(2850);
    expect(reply.body.message).toBe('Cannot participate in the activity at this time.');
    expect(await spotUsdt(user.token)).toBe(before);
    expect(await claimRows(user.uid)).toEqual([]);
  });

  it('an unfinished task cannot be claimed and pays nothing', async () => {
    const user = await registerUser(t.app);
    const reply = await claim(user.token, 'checkin_streak');
    expect(reply.body.code).toBe(2851);
    expect(reply.body.message).toBe('This task is not finished yet.');
    expect(await points(user.token)).toBe(0);
    expect(await claimRows(user.uid)).toEqual([]);
  });
});
