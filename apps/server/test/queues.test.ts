import type { LoanProduct } from '@tradewind/contract/loans';
import type { MiningProduct } from '@tradewind/contract/mining';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOAN_PRODUCTS } from '../src/modules/demo/loan-products.ts';
import { DEMO_MINING_PRODUCTS } from '../src/modules/demo/mining-products.ts';
import { checkLedger } from '../src/modules/ledger/invariants.ts';
import { seedLoanProducts } from '../src/modules/loans/service.ts';
import { seedProducts } from '../src/modules/mining/service.ts';
import { ConfigError, loadConfig, parseSharedSettings } from '../src/platform/config.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  PASSWORD,
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  operatorToken,
  registerReadyUser,
  registerUser,
} from './harness.ts';
import { pngImage, tempDataDir, upload } from './uploads.ts';

/**
 * The operator console's review queues (issue 7): four eyes on large withdrawals, what a
 * reviewer sees of the user behind each item, a reason for every rejection, and no
 * operator route that settles a loan.
 */

const USDT = 1_000_000n;
const PIN = '480316';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const TXID = 'c'.repeat(64);

let t: TestApp;
let alice: { token: string; username: string };
let bob: { token: string; username: string };
let miningProducts: MiningProduct[];
let loanProducts: LoanProduct[];
const data = tempDataDir();

beforeAll(async () => {
  // A low USDT threshold keeps the amounts small; BTC and ETH keep their defaults.
  t = await createTestApp({
    env: { DATA_DIR: data.dir, WITHDRAWAL_SECOND_APPROVAL: 'USDT:1000,BTC:0.2,ETH:3' },
  });
  alice = await operatorToken(t, 'reviewer', 'alice');
  bob = await operatorToken(t, 'reviewer', 'bob');
  await seedProducts(t.database.db, t.clock.now(), DEMO_MINING_PRODUCTS);
  await seedLoanProducts(t.database.db, t.clock.now(), DEMO_LOAN_PRODUCTS);
  const user = await registerUser(t.app);
  miningProducts = (
    await call<{ items: MiningProduct[] }>(t.app, 'GET', '/api/v1/mining/products', {
      token: user.token,
    })
  ).body.data.items;
  loanProducts = (
    await call<{ items: LoanProduct[] }>(t.app, 'GET', '/api/v1/loans/products', {
      token: user.token,
    })
  ).body.data.items;
});
afterAll(async () => {
  await t.close();
  data.remove();
});

type User = Awaited<ReturnType<typeof registerUser>>;

interface AdminWithdrawal {
  id: string;
  status: string;
  reason: string | null;
  uid: string;
  user: { uid: string; verified: boolean; frozen: boolean };
  reviewedBy: string | null;
  secondApprovalRequired: boolean;
  awaitingSecondApproval: boolean;
  firstApprovedBy: string | null;
  firstApprovedAt: string | null;
  secondApprovedBy: string | null;
  secondApprovalThreshold: string;
}

const markVerified = (user: User) =>
  t.database.db.execute(sql`update users set verified = true where id = ${Number(user.uid)}`);
const freeze = (user: User) =>
  t.database.db.execute(
    sql`update users set frozen_at = now(), frozen_reason = 'test' where id = ${Number(user.uid)}`,
  );

/** A verified user with a withdrawal password and `usdt` in spot. */
async function withdrawer(usdt: bigint): Promise<User> {
  const user = await registerUser(t.app);
  await markVerified(user);
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
  expect(pin.body.code).toBe(0);
  if (usdt > 0n) await fund(t, Number(user.uid), usdt * USDT);
  return user;
}

async function pendingWithdrawal(
  amount: string,
  funds = 5000n,
): Promise<{ user: User; id: string }> {
  const user = await withdrawer(funds);
  const reply = await call<{ id: string }>(t.app, 'POST', '/api/v1/withdrawals', {
    token: user.token,
    body: { asset: 'USDT', network: 'TRC20', address: TRON, amount, password: PIN },
    headers: { 'idempotency-key': idempotencyKey() },
  });
  expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
  return { user, id: reply.body.data.id };
}

const review = (token: string, body: Record<string, unknown>, lang?: string) =>
  call<AdminWithdrawal>(t.app, 'POST', '/api/admin/v1/withdrawals/review', {
    token,
    body,
    ...(lang ? { lang } : {}),
  });
const withdrawalAction = (
  action: 'complete' | 'fail',
  token: string,
  body: Record<string, unknown>,
) => call<AdminWithdrawal>(t.app, 'POST', `/api/admin/v1/withdrawals/${action}`, { token, body });
const withdrawalQueue = async (status?: string) =>
  (
    await call<{ items: AdminWithdrawal[] }>(
      t.app,
      'GET',
      `/api/admin/v1/withdrawals/queue${status ? `?status=${status}` : ''}`,
      { token: alice.token },
    )
  ).body.data.items;

async function spotUsdt(user: User) {
  const reply = await call<{ spot: { asset: string; available: string; locked: string }[] }>(
    t.app,
    'GET',
    '/api/v1/wallet/balances',
    { token: user.token },
  );
  return reply.body.data.spot.find((s) => s.asset === 'USDT');
}

const row = async (id: string) =>
  (
    await queryRows<{
      status: string;
      reviewed_by: string | null;
      first_approved_by: string | null;
      second_approved_by: string | null;
    }>(
      t.database.db,
      sql`select status, reviewed_by::text, first_approved_by::text, second_approved_by::text from withdrawals where id = ${Number(id)}`,
    )
  )[0];
const operatorId = async (username: string) =>
  (
    await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from operators where username = ${username}`,
    )
  )[0]?.id;
const auditOf = (id: string) =>
  queryRows<{
    action: string;
    operator: string;
    before: string;
    after: string;
    reason: string | null;
  }>(
    t.database.db,
    sql`select a.action, o.username as operator, a.before, a.after, a.reason from audit_log a join operators o on o.id = a.operator_id
        where a.target_type = 'withdrawal' and a.target_id = ${id} order by a.id`,
  );
const messagesOf = (user: User) =>
  queryRows<{ kind: string }>(
    t.database.db,
    sql`select kind from user_messages where user_id = ${Number(user.uid)} and kind like 'withdrawal.%' order by id`,
  );
const entries = (id: string) =>
  queryRows<{ reference: string }>(
    t.database.db,
    sql`select reference from ledger_entries where reference like ${`withdrawal:${id}:%`} order by id`,
  );

describe('configuration: WITHDRAWAL_SECOND_APPROVAL', () => {
  it('defaults to USDT 10000, BTC 0.2, ETH 3 (in minor units)', () => {
    expect(parseSharedSettings({}).withdrawalSecondApprovalMinor).toEqual({
      USDT: 10_000_000_000n,
      BTC: 20_000_000n,
      ETH: 300_000_000n,
    });
  });

  it('accepts any order, spaces and lower-case asset names', () => {
    expect(
      parseSharedSettings({
        WITHDRAWAL_SECOND_APPROVAL: ' eth:1.5 , USDT:250.5,BTC:0.00000001 ',
      }).withdrawalSecondApprovalMinor,
    ).toEqual({ USDT: 250_500_000n, BTC: 1n, ETH: 150_000_000n });
  });

  it.each([
    ['USDT:10000,BTC:0.2', 'missing ETH'],
    ['USDT:10000,BTC:0.2,ETH:3,DOGE:5', 'DOGE is not a withdrawal asset'],
    ['USDT:10000,USDT:5,BTC:0.2,ETH:3', 'USDT is listed twice'],
    ['USDT:0,BTC:0.2,ETH:3', 'USDT needs a positive amount'],
    ['USDT:1.0000001,BTC:0.2,ETH:3', 'at most 6 decimals'],
    ['USDT=10000,BTC:0.2,ETH:3', 'is not ASSET:AMOUNT'],
  ])('refuses %j at boot (%s)', (value, problem) => {
    expect(() => loadConfig({ WITHDRAWAL_SECOND_APPROVAL: value })).toThrow(ConfigError);
    expect(() => loadConfig({ WITHDRAWAL_SECOND_APPROVAL: value })).toThrow(problem);
  });
});

describe('withdrawals above the threshold need a second approver', () => {
  it('at or below the threshold one approval moves it to processing', async () => {
    const { user, id } = await pendingWithdrawal('1000');
    const approved = await review(alice.token, { id, decision: 'approve' });
    expect(approved.body.data).toMatchObject({
      status: 'processing',
      secondApprovalRequired: false,
      awaitingSecondApproval: false,
      firstApprovedBy: 'alice',
      secondApprovedBy: null,
      reviewedBy: 'alice',
    });
    expect(await row(id)).toMatchObject({
      status: 'processing',
      first_approved_by: await operatorId('alice'),
      second_approved_by: null,
    });
    expect((await auditOf(id)).map((a) => [a.action, a.operator])).toEqual([
      ['withdrawal.approve', 'alice'],
    ]);
    expect(await spotUsdt(user)).toMatchObject({ locked: '1001' });
  });

  it('above it: the first approval is recorded and it stays under review; the same operator again is refused; another operator moves it on', async () => {
    const { user, id } = await pendingWithdrawal('1000.000001');
    const first = await review(alice.token, { id, decision: 'approve' });
    expect(first.body.code).toBe(0);
    expect(first.body.data).toMatchObject({
      status: 'under_review',
      secondApprovalRequired: true,
      awaitingSecondApproval: true,
      firstApprovedBy: 'alice',
      secondApprovedBy: null,
      reviewedBy: null,
      secondApprovalThreshold: '1000',
    });
    expect(first.body.data.firstApprovedAt).toBe(new Date(t.clock.now()).toISOString());
    // Nothing changed for the user: still under review, still locked, no message.
    expect(await spotUsdt(user)).toMatchObject({ available: '3998.999999', locked: '1001.000001' });
    expect(await messagesOf(user)).toEqual([]);

    // The queue says who approved first, and what is still needed.
    expect((await withdrawalQueue('under_review')).find((w) => w.id === id)).toMatchObject({
      awaitingSecondApproval: true,
      firstApprovedBy: 'alice',
      user: { uid: user.uid, verified: true, frozen: false },
    });

    const again = await review(alice.token, { id, decision: 'approve' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(3520);
    expect(again.body.message).toBe(
      'This withdrawal needs a second approval from a different operator: you gave the first.',
    );
    expect((await review(alice.token, { id, decision: 'approve' }, 'zh_CN')).body.message).toBe(
      '该提现需要另一位操作员进行第二次审批：第一次审批是您做的。',
    );
    expect(await row(id)).toMatchObject({ status: 'under_review', second_approved_by: null });

    const second = await review(bob.token, { id, decision: 'approve' });
    expect(second.body.data).toMatchObject({
      status: 'processing',
      awaitingSecondApproval: false,
      firstApprovedBy: 'alice',
      secondApprovedBy: 'bob',
      reviewedBy: 'bob',
    });
    expect(await row(id)).toMatchObject({
      status: 'processing',
      first_approved_by: await operatorId('alice'),
      second_approved_by: await operatorId('bob'),
    });
    expect(await messagesOf(user)).toEqual([{ kind: 'withdrawal.processing' }]);

    const audit = await auditOf(id);
    const [aliceId, bobId] = [Number(await operatorId('alice')), Number(await operatorId('bob'))];
    expect(audit).toEqual([
      {
        action: 'withdrawal.approve_first',
        operator: 'alice',
        before: '{"status":"under_review"}',
        after: `{"status":"under_review","firstApprovedBy":${aliceId}}`,
        reason: null,
      },
      {
        action: 'withdrawal.approve',
        operator: 'bob',
        before: `{"status":"under_review","firstApprovedBy":${aliceId}}`,
        after: `{"status":"processing","firstApprovedBy":${aliceId},"secondApprovedBy":${bobId}}`,
        reason: null,
      },
    ]);

    // From processing it completes as any other: the money leaves once.
    expect(
      (await withdrawalAction('complete', alice.token, { id, txid: TXID })).body.data,
    ).toMatchObject({ status: 'success' });
    expect(await spotUsdt(user)).toMatchObject({ available: '3998.999999', locked: '0' });
  });

  it('either approver may reject instead, with a reason: the funds come back at once', async () => {
    const { user, id } = await pendingWithdrawal('2500');
    await review(alice.token, { id, decision: 'approve' });
    const noReason = await review(alice.token, { id, decision: 'reject' });
    expect(noReason.body.errors?.reason).toEqual(['A reason is required.']);
    const rejected = await review(bob.token, {
      id,
      decision: 'reject',
      reason: 'Destination flagged by the compliance team',
    });
    expect(rejected.body.data).toMatchObject({
      status: 'review_failed',
      reason: 'Destination flagged by the compliance team',
      firstApprovedBy: 'alice',
      reviewedBy: 'bob',
    });
    expect(await spotUsdt(user)).toMatchObject({ available: '5000', locked: '0' });
    expect((await entries(id)).map((e) => e.reference)).toEqual([
      `withdrawal:${id}:request`,
      `withdrawal:${id}:refund`,
    ]);
    expect((await auditOf(id)).map((a) => [a.action, a.operator, a.reason])).toEqual([
      ['withdrawal.approve_first', 'alice', null],
      ['withdrawal.reject', 'bob', 'Destination flagged by the compliance team'],
    ]);
    // A decided withdrawal takes no further approval.
    expect((await review(bob.token, { id, decision: 'approve' })).body.code).toBe(2501);
  });

  it('the database itself refuses a second approval by the first approver', async () => {
    const { id } = await pendingWithdrawal('3000');
    await review(alice.token, { id, decision: 'approve' });
    const aliceId = Number(await operatorId('alice'));
    await expect(
      t.database.db.execute(
        sql`update withdrawals set second_approved_by = ${aliceId}, status = 'processing' where id = ${Number(id)}`,
      ),
    ).rejects.toThrow();
    await expect(
      t.database.db.execute(
        sql`update withdrawals set first_approved_by = null, second_approved_by = ${aliceId} where id = ${Number(id)}`,
      ),
    ).rejects.toThrow();
    expect(await row(id)).toMatchObject({ status: 'under_review', second_approved_by: null });
  });

  it('concurrent approvals of a large withdrawal by both operators: one first approval, one second, processing once', async () => {
    const { user, id } = await pendingWithdrawal('4000');
    const replies = await Promise.all(
      [alice, bob, alice, bob, alice, bob].map((op) =>
        review(op.token, { id, decision: 'approve' }),
      ),
    );
    const codes = replies.map((r) => r.body.code);
    // The row lock orders them: a first approval, a second by the other operator, then only refusals.
    expect(codes.filter((c) => c === 0)).toHaveLength(2);
    expect(codes.filter((c) => c !== 0).every((c) => c === 2501 || c === 3520)).toBe(true);
    expect((await row(id))?.status).toBe('processing');
    expect((await auditOf(id)).map((a) => a.action)).toEqual([
      'withdrawal.approve_first',
      'withdrawal.approve',
    ]);
    expect(await messagesOf(user)).toEqual([{ kind: 'withdrawal.processing' }]);
    expect(await spotUsdt(user)).toMatchObject({ locked: '4001' });
  });

  it('concurrent approvals by one operator of a large withdrawal never reach processing', async () => {
    const { id } = await pendingWithdrawal('4000');
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => review(alice.token, { id, decision: 'approve' })),
    );
    expect(replies.map((r) => r.body.code).sort()).toEqual([0, 3520, 3520, 3520, 3520]);
    expect(await row(id)).toMatchObject({ status: 'under_review', second_approved_by: null });
  });

  it('concurrent approvals of a small withdrawal: one approval acts, the others find it decided', async () => {
    const { user, id } = await pendingWithdrawal('10');
    const replies = await Promise.all(
      [alice, bob, alice, bob].map((op) => review(op.token, { id, decision: 'approve' })),
    );
    expect(replies.map((r) => r.body.code).sort()).toEqual([0, 2501, 2501, 2501]);
    expect((await auditOf(id)).map((a) => a.action)).toEqual(['withdrawal.approve']);
    expect(await messagesOf(user)).toEqual([{ kind: 'withdrawal.processing' }]);
    expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
  });

  it('BTC and ETH follow their own thresholds', async () => {
    const user = await withdrawer(0n);
    await fund(t, Number(user.uid), 100_000_000n, 'spot', 'BTC');
    const reply = await call<{ id: string }>(t.app, 'POST', '/api/v1/withdrawals', {
      token: user.token,
      body: {
        asset: 'BTC',
        network: 'BTC',
        address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
        amount: '0.3',
        password: PIN,
      },
      headers: { 'idempotency-key': idempotencyKey() },
    });
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
    const first = await review(alice.token, { id: reply.body.data.id, decision: 'approve' });
    expect(first.body.data).toMatchObject({
      status: 'under_review',
      secondApprovalRequired: true,
      secondApprovalThreshold: '0.2',
    });
  });
});

describe('what a reviewer sees of the user behind each item', () => {
  async function photo(user: User, purpose: string) {
    const reply = await upload(t.app, user.token, { purpose, data: await pngImage(120, 80) });
    expect(reply.body.code).toBe(0);
    return reply.body.data.id;
  }
  const queue = async <T>(path: string) =>
    (await call<{ items: T[] }>(t.app, 'GET', `/api/admin/v1/${path}`, { token: alice.token })).body
      .data.items;
  const fileStatus = async (id: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/admin/v1/files/content?id=${id}`,
        headers: { authorization: `Bearer ${alice.token}` },
      })
    ).statusCode;

  it('KYC: uid, verified and frozen flags, and the photos the console fetches through the operator files route', async () => {
    const user = await registerUser(t.app);
    const files = {
      frontFileId: await photo(user, 'kyc'),
      backFileId: await photo(user, 'kyc'),
      faceFileId: await photo(user, 'kyc'),
    };
    const submitted = await call<{ submission: { id: string } }>(t.app, 'POST', '/api/v1/kyc', {
      token: user.token,
      body: {
        country: 'DE',
        lastName: 'Weber',
        firstName: 'Lena',
        documentType: 'id_card',
        documentNumber: 'L01X00T47',
        ...files,
      },
    });
    expect(submitted.body.code).toBe(0);
    await freeze(user);
    type Item = {
      id: string;
      uid: string;
      user: unknown;
      frontFileId: string;
      backFileId: string;
      faceFileId: string;
    };
    const item = (await queue<Item>('kyc/queue')).find((i) => i.uid === user.uid);
    expect(item).toMatchObject({
      user: { uid: user.uid, verified: false, frozen: true },
      ...files,
    });
    for (const id of Object.values(files)) expect(await fileStatus(id)).toBe(200);
    // The decision's reply shows the user as it now stands: verified.
    const decided = await call<Item>(t.app, 'POST', '/api/admin/v1/kyc/decide', {
      token: alice.token,
      body: { id: submitted.body.data.submission.id, decision: 'approve' },
    });
    expect(decided.body.data.user).toEqual({ uid: user.uid, verified: true, frozen: true });
  });

  it('bank-card deposits: the user and the payment screenshot', async () => {
    const user = await registerUser(t.app);
    await markVerified(user);
    const screenshotFileId = await photo(user, 'card_deposit');
    const reported = await call(t.app, 'POST', '/api/v1/card-deposits', {
      token: user.token,
      body: { amount: '100', screenshotFileId },
      headers: { 'idempotency-key': idempotencyKey() },
    });
    expect(reported.body.code, JSON.stringify(reported.body)).toBe(0);
    const item = (await queue<{ uid: string }>('card-deposits/queue')).find(
      (i) => i.uid === user.uid,
    );
    expect(item).toMatchObject({
      user: { uid: user.uid, verified: true, frozen: false },
      screenshotFileId,
    });
    expect(await fileStatus(screenshotFileId)).toBe(200);
  });

  it('mining rentals: the user', async () => {
    const user = await registerReadyUser(t);
    await fund(t, Number(user.uid), 1000n * USDT);
    const product =
      miningProducts.find((p) => p.minInvestment === p.unitPrice) ??
      (miningProducts[0] as MiningProduct);
    const rented = await call(t.app, 'POST', '/api/v1/mining/rentals', {
      token: user.token,
      body: { productId: product.id, quantity: 1, amount: product.unitPrice },
      headers: { 'idempotency-key': idempotencyKey() },
    });
    expect(rented.body.code, JSON.stringify(rented.body)).toBe(0);
    const item = (await queue<{ uid: string }>('mining/rentals/queue')).find(
      (i) => i.uid === user.uid,
    );
    expect(item).toMatchObject({ user: { uid: user.uid, verified: true, frozen: false } });
  });

  it('loans: the user and the three ID photos', async () => {
    const user = await registerUser(t.app);
    await markVerified(user);
    const files = {
      frontFileId: await photo(user, 'loan'),
      backFileId: await photo(user, 'loan'),
      holdingFileId: await photo(user, 'loan'),
    };
    const product = loanProducts[0] as LoanProduct;
    const applied = await call(t.app, 'POST', '/api/v1/loans', {
      token: user.token,
      body: { productId: product.id, amount: '1000', periodDays: 7, ...files },
    });
    expect(applied.body.code, JSON.stringify(applied.body)).toBe(0);
    const item = (await queue<{ uid: string }>('loans/queue')).find((i) => i.uid === user.uid);
    expect(item).toMatchObject({
      user: { uid: user.uid, verified: true, frozen: false },
      ...files,
    });
    for (const id of Object.values(files)) expect(await fileStatus(id)).toBe(200);
  });

  it('withdrawals: the user, frozen after the request', async () => {
    const { user, id } = await pendingWithdrawal('20');
    await freeze(user);
    expect((await withdrawalQueue()).find((w) => w.id === id)).toMatchObject({
      uid: user.uid,
      user: { uid: user.uid, verified: true, frozen: true },
    });
  });
});

describe('every rejection across the five queues needs a reason', () => {
  it.each([
    ['kyc/decide', { decision: 'reject' }],
    ['kyc/decide', { decision: 'reject', reason: '   ' }],
    ['card-deposits/decide', { decision: 'reject' }],
    ['withdrawals/review', { decision: 'reject' }],
    ['withdrawals/fail', {}],
    ['withdrawals/fail', { reason: ' ' }],
    ['mining/rentals/decide', { decision: 'reject' }],
    ['loans/decide', { decision: 'reject' }],
    ['loans/decide', { decision: 'reject', reason: '' }],
  ])('%s %j → 422 reason required, before anything is looked up', async (path, body) => {
    const reply = await call(t.app, 'POST', `/api/admin/v1/${path}`, {
      token: alice.token,
      body: { id: '1', ...body },
    });
    expect(reply.status).toBe(422);
    // A missing field reads "This field is required."; an empty one "A reason is required.".
    expect(reply.body.errors?.reason?.[0]).toMatch(
      /^(A reason is required\.|This field is required\.)$/,
    );
  });
});

describe('loans: operators approve, reject and disburse; only the borrower repays', () => {
  it('the operator routes for loans are the queue, decide and disburse (and the product catalog), nothing else', () => {
    const adminLoanRoutes = t.app.routeTable
      .filter((r) => r.url.startsWith('/api/admin/') && /loan/i.test(r.url))
      .map((r) => `${r.method} ${r.url}`);
    expect(adminLoanRoutes.sort()).toEqual([
      'GET /api/admin/v1/loans/products',
      'GET /api/admin/v1/loans/queue',
      'POST /api/admin/v1/loans/decide',
      'POST /api/admin/v1/loans/disburse',
      'POST /api/admin/v1/loans/products',
    ]);
    expect(
      t.app.routeTable.filter((r) => r.url.startsWith('/api/admin/') && /repa(y|id)/i.test(r.url)),
    ).toEqual([]);
  });

  it('a decision of "repaid" is no decision; a disbursed loan cannot be decided again', async () => {
    const user = await registerUser(t.app);
    await markVerified(user);
    const files = { frontFileId: '0', backFileId: '0', holdingFileId: '0' };
    const product = loanProducts[0] as LoanProduct;
    for (const key of Object.keys(files) as (keyof typeof files)[]) {
      const reply = await upload(t.app, user.token, { purpose: 'loan', data: await pngImage() });
      files[key] = reply.body.data.id;
    }
    const applied = await call<{ id: string }>(t.app, 'POST', '/api/v1/loans', {
      token: user.token,
      body: { productId: product.id, amount: '1000', periodDays: 7, ...files },
    });
    const id = applied.body.data.id;
    for (const decision of ['repaid', 'repay', 'settle']) {
      const reply = await call(t.app, 'POST', '/api/admin/v1/loans/decide', {
        token: alice.token,
        body: { id, decision },
      });
      expect(reply.status).toBe(422);
    }
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/loans/decide', {
          token: alice.token,
          body: { id, decision: 'approve' },
        })
      ).body.code,
    ).toBe(0);
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/loans/disburse', {
          token: alice.token,
          body: { id },
        })
      ).body.code,
    ).toBe(0);
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/loans/disburse', {
          token: alice.token,
          body: { id },
        })
      ).body.code,
    ).toBe(3456);
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/loans/decide', {
          token: alice.token,
          body: { id, decision: 'approve' },
        })
      ).body.code,
    ).toBe(3456);
    const [loan] = await queryRows<{ status: number; repaid_at: string | null }>(
      t.database.db,
      sql`select status, repaid_at from loans where id = ${Number(id)}`,
    );
    expect(loan).toEqual({ status: 2, repaid_at: null });
  });
});
