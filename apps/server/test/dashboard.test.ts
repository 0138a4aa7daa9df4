import type { Dashboard, LedgerCheck } from '@tradewind/contract/dashboard';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerCheckWorker } from '../src/modules/dashboard/ledger-check.ts';
import { SimulatedChain } from '../src/modules/deposit/simulated-chain.ts';
import { runDepositWatcher } from '../src/modules/deposit/watcher.ts';
import type { Obligation } from '../src/modules/ledger/invariants.ts';
import { findOperator } from '../src/modules/operator/service.ts';
import { completeWithdrawal, reviewWithdrawal } from '../src/modules/withdrawal/service.ts';
import { LOCKED_FUND_OBLIGATIONS } from '../src/obligations.ts';
import { queryRows } from '../src/platform/db.ts';
import { placed, recordAt, settlement, trader } from './contracts.ts';
import {
  PASSWORD,
  T0,
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  operatorToken,
  registerUser,
  testConfig,
} from './harness.ts';
import { pngImage, tempDataDir, upload } from './uploads.ts';

/**
 * The operator dashboard (issue 7): activity seeded through the real paths (the chain
 * watcher, an operator's card-deposit decision, withdrawals reviewed and completed, orders
 * settled by the worker on recorded prices), then the exact figures.
 */

const DAY = 86_400_000;
const data = tempDataDir();
/** What a phantom module claims is locked: empty but while a test stubs the checker's input. */
let phantomLocks: { account: string; amount: bigint }[] = [];
const phantom: Obligation = { name: 'test:phantom', locked: async () => phantomLocks };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { DATA_DIR: data.dir },
    obligations: [...LOCKED_FUND_OBLIGATIONS, phantom],
  });
});
afterAll(async () => {
  await t.close();
  data.remove();
});

type User = Awaited<ReturnType<typeof registerUser>>;

async function readDashboard(token: string): Promise<Dashboard> {
  const reply = await call<Dashboard>(t.app, 'GET', '/api/admin/v1/dashboard', { token });
  expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
  return reply.body.data;
}

async function chainDeposit(user: User, amount: string) {
  const { address } = (
    await call<{ address: string }>(t.app, 'GET', '/api/v1/deposit/address', { token: user.token })
  ).body.data;
  expect(
    (await call(t.app, 'POST', '/api/v1/dev/chain/transfer', { body: { address, amount } })).body
      .code,
  ).toBe(0);
  expect(
    (await call(t.app, 'POST', '/api/v1/dev/chain/mine', { body: { blocks: 25 } })).body.code,
  ).toBe(0);
  const { config, ledger } = t.app.services;
  await runDepositWatcher({
    db: t.database.db,
    clock: t.clock,
    config,
    ledger,
    chain: new SimulatedChain(t.database.db, t.clock),
  });
}

async function cardDeposit(user: User, amount: string): Promise<string> {
  const file = await upload(t.app, user.token, {
    purpose: 'card_deposit',
    data: await pngImage(90, 160),
  });
  const reply = await call<{ id: string }>(t.app, 'POST', '/api/v1/card-deposits', {
    token: user.token,
    body: { amount, screenshotFileId: file.body.data.id },
    headers: { 'idempotency-key': idempotencyKey() },
  });
  expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
  return reply.body.data.id;
}

const PIN = '480316';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

async function withdrawer(): Promise<User> {
  const user = await registerUser(t.app);
  await t.database.db.execute(sql`update users set verified = true where id = ${Number(user.uid)}`);
  const pin = await call(t.app, 'POST', '/api/v1/money-passwords', {
    token: user.token,
    body: {
      kind: 'withdraw',
      proof: 'login_password',
      loginPassword: PASSWORD,
      password: PIN,
      confirmPassword: PIN,
    },
  });
  expect(pin.body.code, JSON.stringify(pin.body)).toBe(0);
  // Test funding is its own entry kind: it must not count as an on-chain deposit.
  await fund(t, Number(user.uid), 1_000_000_000n);
  return user;
}

async function withdraw(user: User, amount: string): Promise<number> {
  const reply = await call<{ id: string }>(t.app, 'POST', '/api/v1/withdrawals', {
    token: user.token,
    body: { asset: 'USDT', network: 'TRC20', address: TRON, amount, password: PIN },
    headers: { 'idempotency-key': idempotencyKey() },
  });
  expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
  return Number(reply.body.data.id);
}

const zeroFlow = (day: string) => ({
  day,
  chainDeposits: '0',
  cardDeposits: '0',
  withdrawals: '0',
});

describe('dashboard', () => {
  let reviewer: { token: string; username: string };

  it('is empty on a fresh database: 30 days of zeros, empty queues, nothing locked, no check yet', async () => {
    reviewer = await operatorToken(t, 'reviewer');
    const board = await readDashboard(reviewer.token);
    expect(board).toMatchObject({
      from: '2026-10-23',
      to: '2026-11-21',
      flows: [],
      obligations: [],
      ledgerCheck: null,
    });
    expect(board.house.days).toHaveLength(30);
    expect(
      board.house.days.every((d) => d.net === '0' && d.settlement === '0' && d.fees === '0'),
    ).toBe(true);
    expect(board.queues).toEqual({
      kyc: 0,
      cardDeposits: 0,
      withdrawalsUnderReview: 0,
      withdrawalsProcessing: 0,
      rentals: 0,
      loansUnderReview: 0,
      loansAwaitingDisbursement: 0,
    });
  });

  it('shows deposits and withdrawals per day and asset, the house result from contracts, queues and obligations, to the unit', async () => {
    // Day 1 (2026-11-21): an on-chain deposit of 250.5 USDT, credited by the watcher.
    await chainDeposit(await registerUser(t.app), '250.5');

    // Day 2 (2026-11-22).
    t.clock.set(T0 + DAY - 2 * 3_600_000);
    reviewer = await operatorToken(t, 'reviewer');
    const operator = await findOperator(t.database.db, reviewer.username);
    if (!operator) throw new Error('no operator');
    const deps = {
      db: t.database.db,
      clock: t.clock,
      ledger: t.app.services.ledger,
      config: testConfig(),
    };

    // Card deposits: one confirmed (100, gross), one left pending.
    const payer = await registerUser(t.app);
    const confirmed = await cardDeposit(payer, '100');
    await cardDeposit(payer, '70');
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/card-deposits/decide', {
          token: reviewer.token,
          body: { id: confirmed, decision: 'approve' },
        })
      ).body.code,
    ).toBe(0);

    // Withdrawals (fee 1 USDT each): 30 succeeds, 40 waits for review, 50 is processing, 20 is rejected.
    const user = await withdrawer();
    const succeeded = await withdraw(user, '30');
    await withdraw(user, '40');
    const processing = await withdraw(user, '50');
    const rejected = await withdraw(user, '20');
    await reviewWithdrawal(deps, operator, { id: succeeded, decision: 'approve' });
    await completeWithdrawal(deps, operator, { id: succeeded, txid: 'b'.repeat(64) });
    await reviewWithdrawal(deps, operator, { id: processing, decision: 'approve' });
    await reviewWithdrawal(deps, operator, { id: rejected, decision: 'reject', reason: 'test' });

    // Contracts (30 s period: rate 0.8, fee 0.2 %): up wins (house pays 80 profit), down loses
    // (house takes 100), an ETH tie (house takes only the fee); one 300 s order stays open.
    const bettor = await trader(t, '5000');
    const start = Math.floor(t.clock.now().getTime() / 1000) * 1000 + 1000;
    await recordAt(t, start, { BTCUSDT: '95000.00', ETHUSDT: '3300.00' });
    await placed(t, bettor.token, { direction: 'up', amount: '100' });
    await placed(t, bettor.token, { direction: 'down', amount: '100' });
    await placed(t, bettor.token, { symbol: 'ETHUSDT', direction: 'up', amount: '50' });
    await placed(t, bettor.token, { direction: 'up', amount: '200', periodId: 4 });
    await recordAt(t, start + 30_000, { BTCUSDT: '95100.00', ETHUSDT: '3300.00' });
    t.clock.set(start + 32_000);
    expect(await settlement(t).settleDue()).toBe(3);

    const board = await readDashboard(reviewer.token);
    expect(board.from).toBe('2026-10-24');
    expect(board.to).toBe('2026-11-22');
    expect(board.flows.map((f) => f.asset)).toEqual(['USDT']);
    const usdt = board.flows[0];
    expect(usdt?.scale).toBe(6);
    expect(usdt?.days).toHaveLength(30);
    expect(usdt?.days.slice(-3)).toEqual([
      zeroFlow('2026-11-20'),
      { day: '2026-11-21', chainDeposits: '250.5', cardDeposits: '0', withdrawals: '0' },
      { day: '2026-11-22', chainDeposits: '0', cardDeposits: '100', withdrawals: '30' },
    ]);
    expect(
      usdt?.days
        .slice(0, -2)
        .every((d) => d.chainDeposits === '0' && d.cardDeposits === '0' && d.withdrawals === '0'),
    ).toBe(true);

    // Settlement 100 − 80 = 20; fees 0.2 + 0.2 + 0.1 (the withdrawal fee is not a contract's).
    expect(board.house.asset).toBe('USDT');
    expect(board.house.days.at(-1)).toEqual({
      day: '2026-11-22',
      settlement: '20',
      fees: '0.5',
      net: '20.5',
    });
    expect(board.house.days.slice(0, -1).every((d) => d.net === '0')).toBe(true);

    expect(board.queues).toEqual({
      kyc: 0,
      cardDeposits: 1,
      withdrawalsUnderReview: 1,
      withdrawalsProcessing: 1,
      rentals: 0,
      loansUnderReview: 0,
      loansAwaitingDisbursement: 0,
    });

    // Locked: withdrawals 41 + 51, the open order's stake and fee 200.4; it would pay 384 if it won.
    expect(board.obligations).toEqual([
      {
        asset: 'USDT',
        scale: 6,
        usersLocked: '292.4',
        openOrders: 1,
        openStakes: '200',
        openFees: '0.4',
        openMaxPayouts: '384',
      },
    ]);

    // The same figures straight from the ledger's accounts.
    const [house] = await queryRows<{ contracts: string }>(
      t.database.db,
      sql`select available::text as contracts from ledger_accounts where name = 'house:contracts:USDT'`,
    );
    expect(house?.contracts).toBe('20000000');
  });

  it('counts only the last 30 days', async () => {
    t.clock.set(T0 + 31 * DAY);
    const { token } = await operatorToken(t, 'catalog');
    const board = await readDashboard(token);
    expect(board.from).toBe('2026-11-23');
    // An asset appears in the flows only when something moved in the window.
    expect(board.flows).toEqual([]);
    expect(board.house.days.every((d) => d.net === '0')).toBe(true);
    // Obligations are now, not a window: the open order and the pending withdrawals still hold their funds.
    expect(board.obligations[0]?.usersLocked).toBe('292.4');
  });
});

describe('ledger check from the server', () => {
  it('an operator runs it: green with the time, stored, audited; again within a minute is refused', async () => {
    const reviewer = await operatorToken(t, 'reviewer');
    const reply = await call<LedgerCheck>(t.app, 'POST', '/api/admin/v1/dashboard/ledger-check', {
      token: reviewer.token,
    });
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
    expect(reply.body.data).toMatchObject({
      status: 'ok',
      violations: [],
      trigger: `operator:${reviewer.username}`,
      startedAt: t.clock.now().toISOString(),
    });
    expect((await readDashboard(reviewer.token)).ledgerCheck).toEqual(reply.body.data);
    const audits = await queryRows<{ action: string; target_id: string; after: string }>(
      t.database.db,
      sql`select action, target_id, after from audit_log where action = 'ledger.check' order by id`,
    );
    expect(audits).toEqual([
      {
        action: 'ledger.check',
        target_id: reply.body.data.id,
        after: '{"status":"ok","violations":0}',
      },
    ]);

    t.clock.advance(30_000);
    const again = await call(t.app, 'POST', '/api/admin/v1/dashboard/ledger-check', {
      token: reviewer.token,
      lang: 'zh-CN',
    });
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({
      code: 3600,
      message: '账本检查正在运行或在一分钟内刚运行过，请一分钟后再试。',
    });
    const [count] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int4 as n from ledger_checks`,
    );
    expect(count?.n).toBe(1);
  });

  it('a broken invariant shows red with the rule, until a later check is clean again', async () => {
    const user = await registerUser(t.app);
    // Stub the checker's input: a module claims 1 unit locked that the ledger does not hold.
    phantomLocks = [{ account: `user:${user.uid}:spot:USDT`, amount: 1n }];
    try {
      t.clock.advance(61_000);
      const { token } = await operatorToken(t, 'admin');
      const reply = await call<LedgerCheck>(t.app, 'POST', '/api/admin/v1/dashboard/ledger-check', {
        token,
      });
      expect(reply.body.data.status).toBe('violations');
      expect(reply.body.data.violations).toEqual([
        {
          rule: 'locked funds equal open obligations',
          detail: JSON.stringify({
            account: `user:${user.uid}:spot:USDT`,
            locked: '0',
            obligations: '1',
          }),
        },
      ]);
      const board = await readDashboard(token);
      expect(board.ledgerCheck?.status).toBe('violations');
      expect(board.ledgerCheck?.startedAt).toBe(t.clock.now().toISOString());
    } finally {
      phantomLocks = [];
    }
    // The schedule's run (no cooldown for it) is clean again.
    t.clock.advance(1_000);
    await new LedgerCheckWorker({
      db: t.database.db,
      clock: t.clock,
      obligations: t.app.services.obligations,
    }).tick();
    const { token } = await operatorToken(t, 'reviewer');
    expect((await readDashboard(token)).ledgerCheck).toMatchObject({
      status: 'ok',
      trigger: 'schedule',
      violations: [],
    });
    // The schedule's run does not hold operators back; their own last run a minute ago does.
    t.clock.advance(60_000);
    expect(
      (await call(t.app, 'POST', '/api/admin/v1/dashboard/ledger-check', { token })).body.code,
    ).toBe(0);
  });
});
