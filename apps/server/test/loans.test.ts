import type { Credit } from '@tradewind/contract/credit';
import type { Loan, LoanList, LoanProduct } from '@tradewind/contract/loans';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOAN_PRODUCTS } from '../src/modules/demo/loan-products.ts';
import { checkLedger } from '../src/modules/ledger/invariants.ts';
import { seedLoanProducts } from '../src/modules/loans/service.ts';
import { LoanAccrualWorker } from '../src/modules/loans/worker.ts';
import type { OpsContext } from '../src/modules/operator/ops-commands.ts';
import { OPS_COMMANDS } from '../src/ops-commands.ts';
import { createOperator, findOperator } from '../src/modules/operator/service.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  operatorSession,
  registerUser,
} from './harness.ts';
import { pngImage, upload } from './uploads.ts';

/**
 * Assisted loans (spec /Loan, /LoansHistory; loan statuses; "current loan unsettled, retry
 * after settlement"): apply with ID photos → review → disbursement through the ledger →
 * repayment of principal, interest to date and overdue interest; overdue days accrue from
 * the clock once per loan per day, whatever the workers do; the credit score follows.
 */

const DAY = 86_400_000;
const USDT = 1_000_000n;
let t: TestApp;
let products: LoanProduct[];

beforeAll(async () => {
  t = await createTestApp({ env: { SESSION_TTL_DAYS: '365' } });
  await seedLoanProducts(t.database.db, t.clock.now(), DEMO_LOAN_PRODUCTS);
  await createOperator(t.database.db, t.clock.now(), {
    username: 'loan-reviewer',
    role: 'reviewer',
  });
  const user = await registerUser(t.app);
  products = (
    await call<{ items: LoanProduct[] }>(t.app, 'GET', '/api/v1/loans/products', {
      token: user.token,
    })
  ).body.data.items;
});
afterEach(async () => {
  // The ledger's invariants hold after every test, not only at the end of the file.
  expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
});
afterAll(() => t.close());

/** 100–5000 USDT, 7/15/30 days, 0.1 % a day, overdue 0.5 % a day. */
const quick = () => products[0] as LoanProduct;

type User = Awaited<ReturnType<typeof registerUser>>;

async function verifiedUser(usdt = 0n): Promise<User> {
  const user = await registerUser(t.app);
  await t.database.db.execute(sql`update users set verified = true where id = ${Number(user.uid)}`);
  if (usdt > 0n) await fund(t, Number(user.uid), usdt * USDT);
  return user;
}

async function photos(user: User, purpose = 'loan') {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const reply = await upload(t.app, user.token, { purpose, data: await pngImage() });
    expect(reply.body.code).toBe(0);
    ids.push(reply.body.data.id);
  }
  return {
    frontFileId: ids[0] as string,
    backFileId: ids[1] as string,
    holdingFileId: ids[2] as string,
  };
}

async function applyFor(user: User, body: Record<string, unknown> = {}, lang?: string) {
  const files = 'frontFileId' in body ? {} : await photos(user);
  return call<Loan>(t.app, 'POST', '/api/v1/loans', {
    token: user.token,
    lang,
    body: { productId: quick().id, amount: '1000', periodDays: 7, ...files, ...body },
  });
}

async function reviewerToken(): Promise<string> {
  return operatorSession(t, 'loan-reviewer');
}
const decide = async (id: string, decision: 'approve' | 'reject', reason?: string) =>
  call<Loan & { uid: string }>(t.app, 'POST', '/api/admin/v1/loans/decide', {
    token: await reviewerToken(),
    body: { id, decision, ...(reason ? { reason } : {}) },
  });
const disburse = async (id: string) =>
  call<Loan & { uid: string }>(t.app, 'POST', '/api/admin/v1/loans/disburse', {
    token: await reviewerToken(),
    body: { id },
  });
const repay = (user: User, id: string, lang?: string) =>
  call<Loan>(t.app, 'POST', '/api/v1/loans/repay', {
    token: user.token,
    lang,
    body: { id },
    headers: { 'idempotency-key': idempotencyKey() },
  });
const loan = async (user: User, id: string) =>
  (await call<Loan>(t.app, 'GET', `/api/v1/loan?id=${id}`, { token: user.token })).body.data;
const history = async (user: User) =>
  (await call<LoanList>(t.app, 'GET', '/api/v1/loans', { token: user.token })).body.data.items;
const score = async (user: User) =>
  (await call<Credit>(t.app, 'GET', '/api/v1/credit', { token: user.token })).body.data.score;
const deps = () => ({ db: t.database.db, clock: t.clock, hub: t.app.services.hub });

async function spotUsdt(user: User): Promise<string> {
  const rows = await queryRows<{ available: string }>(
    t.database.db,
    sql`select available::text from ledger_accounts where name = ${`user:${user.uid}:spot:USDT`}`,
  );
  const minor = BigInt(rows[0]?.available ?? '0');
  return `${minor / USDT}.${String(minor % USDT).padStart(6, '0')}`;
}

async function loanPostings(
  user: User,
): Promise<{ type: string; amount: string; reference: string }[]> {
  return queryRows(
    t.database.db,
    sql`select p.type, p.amount::text as amount, e.reference from ledger_postings p join ledger_entries e on e.id = p.entry_id
        where p.user_id = ${Number(user.uid)} and p.type like 'loan%' order by p.id`,
  );
}

/** A disbursed loan of `amount` for `days` (through the API), its id. */
async function disbursedLoan(user: User, amount = '1000', days = 7): Promise<string> {
  const applied = await applyFor(user, { amount, periodDays: days });
  expect(applied.body.code, JSON.stringify(applied.body)).toBe(0);
  const id = applied.body.data.id;
  expect((await decide(id, 'approve')).body.code).toBe(0);
  expect((await disburse(id)).body.code).toBe(0);
  return id;
}

describe('products', () => {
  it('lists the two demo loan products with their terms, in the request language', async () => {
    const user = await registerUser(t.app);
    const fr = (
      await call<{ items: LoanProduct[] }>(t.app, 'GET', '/api/v1/loans/products', {
        token: user.token,
        lang: 'fr',
      })
    ).body.data.items;
    expect(fr).toHaveLength(2);
    expect(fr[0]).toMatchObject({
      name: 'Prêt rapide',
      institution: 'Tradewind Crédit démo',
      minAmount: '100',
      maxAmount: '5000',
      periods: [7, 15, 30],
      dailyRate: '0.001',
      overdueDailyRate: '0.005',
      method: 'interest_first',
    });
    expect(fr[0]?.description).toContain('0.1 % du capital');
    // Seeding again changes nothing; every text exists in the seven languages.
    await seedLoanProducts(t.database.db, t.clock.now(), DEMO_LOAN_PRODUCTS);
    const [rows] = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from loan_products`,
    );
    expect(rows?.n).toBe('2');
    for (const product of DEMO_LOAN_PRODUCTS) {
      for (const text of [product.name, product.institution, product.description])
        expect(Object.keys(text).sort()).toEqual(['de', 'en', 'es', 'fr', 'it', 'zh_CN', 'zh_TW']);
    }
  });
});

describe('apply → approve → disburse → repay', () => {
  it('a frozen account gets no disbursement until it is unfrozen', async () => {
    const user = await verifiedUser(0n);
    const id = (await applyFor(user, { amount: '500', periodDays: 7 })).body.data.id;
    expect((await decide(id, 'approve')).body.code).toBe(0);
    await t.database.db.execute(
      sql`update users set frozen_at = now(), frozen_reason = 'investigation' where id = ${Number(user.uid)}`,
    );
    const refused = await disburse(id);
    expect(refused.body.code).toBe(1011);
    expect(await spotUsdt(user)).toBe('0.000000');
    expect((await loan(user, id)).status).toBe('pending_disbursement');
    await t.database.db.execute(
      sql`update users set frozen_at = null, frozen_reason = null where id = ${Number(user.uid)}`,
    );
    expect((await disburse(id)).body.code).toBe(0);
    expect(await spotUsdt(user)).toBe('500.000000');
    // Repaid at once, so no other test's sweep finds it overdue.
    await fund(t, Number(user.uid), 10n * USDT);
    expect((await repay(user, id)).body.code).toBe(0);
  });

  it('on time: the amount is credited, principal + interest are debited, the credit score rises', async () => {
    const user = await verifiedUser(0n);
    const before = await score(user);
    const applied = await applyFor(user, { amount: '1000', periodDays: 7 });
    expect(applied.body.code, JSON.stringify(applied.body)).toBe(0);
    expect(applied.body.data).toMatchObject({
      status: 'under_review',
      amount: '1000',
      approvedAmount: null,
      periodDays: 7,
      interest: '7',
      dueNow: '0',
      institution: 'Tradewind Demo Credit',
    });
    const id = applied.body.data.id;

    const approved = await decide(id, 'approve');
    expect(approved.body.data).toMatchObject({
      status: 'pending_disbursement',
      approvedAmount: '1000',
    });
    expect(await spotUsdt(user)).toBe('0.000000');
    const disbursed = await disburse(id);
    expect(disbursed.body.data).toMatchObject({
      status: 'disbursed',
      dueAt: new Date(t.clock.now().getTime() + 7 * DAY).toISOString(),
    });
    expect(await spotUsdt(user)).toBe('1000.000000');
    // Disbursing twice is refused; nothing moves.
    expect((await disburse(id)).body.code).toBe(3456);
    expect(await spotUsdt(user)).toBe('1000.000000');

    // Six and a half days later: 7 days started, the full interest; at maturity it is still on time.
    t.clock.advance(6 * DAY + DAY / 2);
    await fund(t, Number(user.uid), 10n * USDT);
    expect(await loan(user, id)).toMatchObject({
      interestToDate: '7',
      dueNow: '1007',
      overdueDays: 0,
    });
    const repaid = await repay(user, id);
    expect(repaid.body.code, JSON.stringify(repaid.body)).toBe(0);
    expect(repaid.body.data).toMatchObject({
      status: 'repaid',
      repaidAmount: '1007',
      overdueDays: 0,
      overdueInterest: '0',
    });
    expect(await spotUsdt(user)).toBe('3.000000');
    expect(await loanPostings(user)).toEqual([
      { type: 'loan_disbursement', amount: '1000000000', reference: `loan:${id}:disburse` },
      { type: 'loan_repayment', amount: '-1000000000', reference: `loan:${id}:repay` },
      { type: 'loan_interest', amount: '-7000000', reference: `loan:${id}:repay` },
    ]);
    expect(await score(user)).toBe(before + 5);
    expect((await repay(user, id)).body.code).toBe(3456);
    const [audit] = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from audit_log where target_type = 'loan' and target_id = ${id}`,
    );
    expect(audit?.n).toBe('2');
    const messages = await queryRows<{ kind: string }>(
      t.database.db,
      sql`select kind from user_messages where user_id = ${Number(user.uid)} order by id`,
    );
    expect(messages.map((m) => m.kind)).toEqual(
      expect.arrayContaining(['loan.approved', 'loan.disbursed', 'loan.repaid']),
    );
    // Settled: a new application is accepted.
    expect((await applyFor(user)).body.data.status).toBe('under_review');
  });

  it('reject: needs a reason, shows it, and settles the application', async () => {
    const user = await verifiedUser();
    const id = (await applyFor(user)).body.data.id;
    // The ID photos are private: the reviewer sees them from the queue, another user does not.
    const token = await reviewerToken();
    const queue = await call<{
      items: { id: string; frontFileId: string; holdingFileId: string }[];
    }>(t.app, 'GET', '/api/admin/v1/loans/queue', { token });
    const item = queue.body.data.items.find((i) => i.id === id);
    expect(item).toBeDefined();
    const read = (path: string, bearer: string) =>
      t.app.inject({
        method: 'GET',
        url: `${path}?id=${item?.holdingFileId}`,
        headers: { authorization: `Bearer ${bearer}` },
      });
    expect((await read('/api/admin/v1/files/content', token)).headers['content-type']).toBe(
      'image/jpeg',
    );
    expect((await read('/api/v1/files/content', user.token)).headers['content-type']).toBe(
      'image/jpeg',
    );
    const stranger = await verifiedUser();
    expect((await read('/api/v1/files/content', stranger.token)).statusCode).toBe(404);
    expect((await decide(id, 'reject')).body.code).toBe(422);
    const rejected = await decide(id, 'reject', 'Documents unreadable');
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      reason: 'Documents unreadable',
    });
    expect((await decide(id, 'approve')).body.code).toBe(3456);
    expect((await disburse(id)).body.code).toBe(3456);
    expect(await spotUsdt(user)).toBe('0.000000');
    expect((await history(user)).map((l) => [l.id, l.status])).toEqual([[id, 'rejected']]);
    expect((await applyFor(user)).body.code).toBe(0);
  });

  it('early repayment pays only the interest to date', async () => {
    const user = await verifiedUser(10n);
    const id = await disbursedLoan(user, '2000', 30);
    t.clock.advance(2 * DAY + 1);
    // Three days started: 2000 × 0.1 % × 3 = 6.
    expect(await loan(user, id)).toMatchObject({
      interest: '60',
      interestToDate: '6',
      dueNow: '2006',
    });
    expect((await repay(user, id)).body.data).toMatchObject({
      status: 'repaid',
      repaidAmount: '2006',
      interestToDate: '6',
    });
    expect(await spotUsdt(user)).toBe('4.000000');
  });

  it('not enough USDT: a localized error and nothing changes', async () => {
    const user = await verifiedUser(0n);
    const id = await disbursedLoan(user, '100', 7);
    t.clock.advance(DAY);
    const refused = await repay(user, id, 'de');
    expect(refused.body.code).toBe(2001);
    expect(refused.body.message).toMatch(/Guthaben|guthaben/);
    expect(await loan(user, id)).toMatchObject({ status: 'disbursed', repaidAmount: null });
    expect(await spotUsdt(user)).toBe('100.000000');
    expect((await loanPostings(user)).map((p) => p.type)).toEqual(['loan_disbursement']);
    await fund(t, Number(user.uid), 1n * USDT);
    expect((await repay(user, id)).body.data).toMatchObject({
      status: 'repaid',
      repaidAmount: '100.1',
    });
  });
});

describe('overdue', () => {
  it('disbursed → overdue at maturity → one overdue day per full day → repaid with overdue interest; credit goes down', async () => {
    const user = await verifiedUser(50n);
    const before = await score(user);
    const id = await disbursedLoan(user, '1000', 7);
    const worker = new LoanAccrualWorker(deps());
    t.clock.advance(7 * DAY - 1);
    expect(await worker.runOnce()).toMatchObject({ overdue: 0, days: 0 });
    t.clock.advance(1);
    expect(await worker.runOnce()).toMatchObject({ overdue: 1, days: 0 });
    expect(await loan(user, id)).toMatchObject({
      status: 'overdue',
      overdueDays: 0,
      overdueInterest: '0',
    });
    expect(await score(user)).toBe(before - 20);
    t.clock.advance(3 * DAY + 10);
    expect(await worker.runOnce()).toMatchObject({ days: 3 });
    expect(await worker.runOnce()).toMatchObject({ days: 0 });
    // 1000 × 0.5 % = 5 a day.
    expect(await loan(user, id)).toMatchObject({
      status: 'overdue',
      overdueDays: 3,
      overdueInterest: '15',
      interestToDate: '7',
      dueNow: '1022',
    });
    // Overdue still blocks a new application.
    expect((await applyFor(user, {}, 'zh_CN')).body).toMatchObject({
      code: 3454,
      message: '当前贷款未结清，请结清后重试。',
    });
    // A day later with no worker run: the repayment catches the fourth day up itself.
    t.clock.advance(DAY);
    const repaid = await repay(user, id);
    expect(repaid.body.data).toMatchObject({
      status: 'repaid',
      overdueDays: 4,
      overdueInterest: '20',
      repaidAmount: '1027',
    });
    expect(await spotUsdt(user)).toBe('23.000000');
    expect((await loanPostings(user)).map((p) => [p.type, p.amount])).toEqual([
      ['loan_disbursement', '1000000000'],
      ['loan_repayment', '-1000000000'],
      ['loan_interest', '-7000000'],
      ['loan_overdue_interest', '-20000000'],
    ]);
    // Overdue, then repaid late: no on-time bonus.
    expect(await score(user)).toBe(before - 20);
    t.clock.advance(5 * DAY);
    expect((await worker.runOnce()).days).toBe(0);
  });
});

describe('one unsettled loan at a time', () => {
  it('50 concurrent applications: exactly one is accepted, the rest get "current loan unsettled"', async () => {
    const user = await verifiedUser();
    const files = await photos(user);
    const replies = await Promise.all(Array.from({ length: 50 }, () => applyFor(user, files)));
    const accepted = replies.filter((r) => r.body.code === 0);
    expect(accepted).toHaveLength(1);
    expect(replies.filter((r) => r.body.code === 3454)).toHaveLength(49);
    expect(replies.find((r) => r.body.code === 3454)?.body.message).toBe(
      'Current loan unsettled, retry after settlement.',
    );
    const [rows] = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from loans where user_id = ${Number(user.uid)} and status in (0, 1, 2, 5)`,
    );
    expect(rows?.n).toBe('1');
    // The database itself refuses a second unsettled loan.
    const first = accepted[0]?.body.data.id as string;
    await expect(
      t.database.db.execute(
        sql`insert into loans (user_id, product_id, status, amount_minor, period_days, daily_rate_ppm, overdue_rate_ppm, method, front_file_id, back_file_id, holding_file_id, day_ms, created_at)
            select user_id, product_id, 0, amount_minor, period_days, daily_rate_ppm, overdue_rate_ppm, method, front_file_id, back_file_id, holding_file_id, day_ms, created_at from loans where id = ${Number(first)}`,
      ),
    ).rejects.toThrow();
    expect((await decide(first, 'reject', 'cleanup')).body.code).toBe(0);
  });
});

describe('bad applications change nothing', () => {
  it('unverified, out of range, wrong period, unknown product, foreign or wrong-purpose photos', async () => {
    const unverified = await registerUser(t.app);
    expect((await applyFor(unverified)).body.code).toBe(2310);
    const user = await verifiedUser();
    expect((await applyFor(user, { amount: '99.99' }, 'es')).body).toMatchObject({
      code: 422,
      errors: { amount: ['El importe debe estar entre 100 y 5000 USDT.'] },
    });
    expect((await applyFor(user, { amount: '5000.01' })).body.code).toBe(422);
    expect((await applyFor(user, { periodDays: 8 })).body).toMatchObject({
      code: 422,
      errors: { periodDays: [expect.any(String)] },
    });
    expect((await applyFor(user, { productId: '999999' })).body.code).toBe(422);
    const other = await verifiedUser();
    expect((await applyFor(user, await photos(other))).body).toMatchObject({
      code: 422,
      errors: { frontFileId: [expect.any(String)] },
    });
    expect((await applyFor(user, await photos(user, 'kyc'))).body).toMatchObject({
      code: 422,
      errors: { frontFileId: [expect.any(String)] },
    });
    const [rows] = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from loans where user_id in (${Number(user.uid)}, ${Number(unverified.uid)})`,
    );
    expect(rows?.n).toBe('0');
  });
});

describe('each overdue day accrues exactly once', () => {
  async function overdueLoans(n: number) {
    const out: { user: User; id: string }[] = [];
    for (let i = 0; i < n; i++) {
      const user = await verifiedUser();
      out.push({ user, id: await disbursedLoan(user, '100', 7) });
    }
    return out;
  }
  async function expectDays(list: { user: User; id: string }[], days: number) {
    for (const { user, id } of list) {
      expect(await loan(user, id)).toMatchObject({
        status: 'overdue',
        overdueDays: days,
        overdueInterest: String(days * 0.5),
      });
      const rows = await queryRows<{ day: number }>(
        t.database.db,
        sql`select day from loan_overdue_days where loan_id = ${Number(id)} order by day`,
      );
      expect(rows.map((r) => r.day)).toEqual(Array.from({ length: days }, (_, i) => i + 1));
      const [events] = await queryRows<{ n: string }>(
        t.database.db,
        sql`select count(*)::text as n from credit_events where user_id = ${Number(user.uid)} and kind = 'loan_overdue'`,
      );
      expect(events?.n).toBe('1');
    }
  }
  async function settle(list: { user: User; id: string }[]) {
    for (const { user, id } of list) {
      await fund(t, Number(user.uid), 1_000n * USDT);
      expect((await repay(user, id)).body.code).toBe(0);
    }
  }

  it.each([2, 8])('%s concurrent workers', async (workers) => {
    const list = await overdueLoans(4);
    t.clock.advance(7 * DAY + 3 * DAY);
    const results = await Promise.all(
      Array.from({ length: workers }, () => new LoanAccrualWorker(deps()).runOnce()),
    );
    expect(results.reduce((s, r) => s + r.days, 0)).toBe(4 * 3);
    expect(results.reduce((s, r) => s + r.overdue, 0)).toBe(4);
    await expectDays(list, 3);
    t.clock.advance(2 * DAY);
    await Promise.all(
      Array.from({ length: workers }, () => new LoanAccrualWorker(deps()).runOnce()),
    );
    await expectDays(list, 5);
    await settle(list);
  });

  it('across a restart: a new worker, then a worker loop stopped mid-way, accrue only what is left', async () => {
    const list = await overdueLoans(3);
    t.clock.advance(7 * DAY + 2 * DAY);
    expect((await new LoanAccrualWorker(deps()).runOnce()).days).toBe(6);
    expect((await new LoanAccrualWorker(deps()).runOnce()).days).toBe(0);
    t.clock.advance(DAY);
    const loop = new LoanAccrualWorker(deps(), 10);
    loop.start();
    await loop.stop();
    await new LoanAccrualWorker(deps()).runOnce();
    await expectDays(list, 3);
    const first = list[0]?.id as string;
    await expect(
      t.database.db.execute(
        sql`insert into loan_overdue_days (loan_id, day, amount_minor, accrued_at) values (${Number(first)}, 1, 1, now())`,
      ),
    ).rejects.toThrow();
    const refusal = (query: ReturnType<typeof sql>) =>
      t.database.db.execute(query).then(
        () => 'accepted',
        (error: { cause?: { message?: string } }) => error.cause?.message ?? String(error),
      );
    expect(
      await refusal(sql`delete from loan_overdue_days where loan_id = ${Number(first)}`),
    ).toMatch(/append-only/);
    await settle(list);
  });
});

describe('npm run ops: loans:queue, loans:decide, loans:disburse, loans:accrue', () => {
  const run = async (name: string, options: Record<string, string | undefined>) => {
    const command = OPS_COMMANDS.get(name);
    if (!command) throw new Error(`${name} is not registered`);
    const operator = options.operator
      ? await findOperator(t.database.db, options.operator)
      : undefined;
    const context: OpsContext = {
      ...t.app.services,
      clock: t.clock,
      db: t.database.db,
      operator,
      args: [],
    };
    return command.run(context, options);
  };

  it('review and disburse through the same rules as the API, audit-logged as cli', async () => {
    const user = await verifiedUser();
    const id = (await applyFor(user, { amount: '300' })).body.data.id;
    expect(await run('loans:queue', {})).toContain(`#${id} uid ${user.uid} under_review`);
    await expect(
      run('loans:decide', { id, decision: 'reject', operator: 'loan-reviewer' }),
    ).rejects.toThrow('reason');
    expect(await run('loans:decide', { id, decision: 'approve', operator: 'loan-reviewer' })).toBe(
      `loan #${id} (uid ${user.uid}) is now pending_disbursement`,
    );
    expect(await run('loans:disburse', { id, operator: 'loan-reviewer' })).toMatch(
      new RegExp(`^loan #${id} \\(uid ${user.uid}\\) disbursed: 300 USDT`),
    );
    await expect(run('loans:disburse', { id, operator: 'loan-reviewer' })).rejects.toThrow(
      'LOAN_INVALID_STATE',
    );
    expect(await spotUsdt(user)).toBe('300.000000');
    const entries = await queryRows<{ via: string; action: string }>(
      t.database.db,
      sql`select via, action from audit_log where target_type = 'loan' and target_id = ${id} order by id`,
    );
    expect(entries).toEqual([
      { via: 'cli', action: 'loan.approve' },
      { via: 'cli', action: 'loan.disburse' },
    ]);
    expect(await run('loans:accrue', {})).toBe('0 loans became overdue, 0 overdue days accrued');
    await fund(t, Number(user.uid), 10n * USDT);
    expect((await repay(user, id)).body.code).toBe(0);
  });
});

describe('ownership', () => {
  it("another user's loan is not found, cannot be repaid, and is not listed", async () => {
    const owner = await verifiedUser();
    const id = await disbursedLoan(owner, '100', 7);
    const other = await verifiedUser(500n);
    expect(
      (await call(t.app, 'GET', `/api/v1/loan?id=${id}`, { token: other.token })).body.code,
    ).toBe(3455);
    expect((await repay(other, id)).body.code).toBe(3455);
    expect(await history(other)).toEqual([]);
    expect(await spotUsdt(other)).toBe('500.000000');
    await fund(t, Number(owner.uid), 10n * USDT);
    expect((await repay(owner, id)).body.code).toBe(0);
  });
});
