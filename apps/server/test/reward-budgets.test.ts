import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../src/modules/ledger/invariants.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  T0,
  type TestApp,
  call,
  createTestApp,
  idempotencyKey,
  operatorToken,
  registerUser,
} from './harness.ts';
import { adminContext, approveRewardBudget } from './reward-budget-helpers.ts';

/**
 * Money from the house needs two people (issue 29): a bonus code draws on a reward budget
 * that one admin requests and another approves, and a code whose total is above the
 * configured threshold waits for a second admin before anyone can redeem it.
 */

let t: TestApp;
let catalog: string;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  catalog = (await operatorToken(t, 'catalog')).token;
  admin = (await operatorToken(t, 'admin')).token;
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;

const rewardsHouse = async (asset = 'USDT') =>
  BigInt(
    (
      await queryRows<{ v: string }>(
        t.database.db,
        sql`select coalesce((select available::text from ledger_accounts where name = ${`house:rewards:${asset}`}), '0') as v`,
      )
    )[0]?.v ?? '0',
  );

const redeem = (token: string, code: string) =>
  call(t.app, 'POST', '/api/v1/bonus-codes/redeem', {
    token,
    body: { code },
    headers: { 'idempotency-key': idempotencyKey() },
  });

describe('one operator minting money with a bonus code (the attack of issue 29)', () => {
  it('a 5,000,000 USDT code created and redeemed by one operator credits nothing', async () => {
    t.clock.set(T0);
    const own = await registerUser(t.app);
    const houseBefore = await rewardsHouse();
    for (const [token, code, asset, amount] of [
      [catalog, 'MINT-USDT', 'USDT', '5000000'],
      [admin, 'MINT-BTC', 'BTC', '100'],
    ] as const) {
      const created = await call<{ id: string }>(t.app, 'POST', '/api/admin/v1/bonus-codes', {
        token,
        body: {
          code,
          asset,
          amount,
          maxRedemptions: 1,
          verifiedOnly: false,
          expiresAt: new Date(T0 + DAY_MS).toISOString(),
        },
      });
      expect(created.body.code, JSON.stringify(created.body)).toBe(0);
      // Above the threshold: nobody can redeem it until a second admin approves.
      expect(created.body.data).toMatchObject({ approvalStatus: 'pending' });
      expect((await redeem(own.token, code)).body).toMatchObject({ code: 3704 });
      // Even approved by a second admin, it draws on a budget nobody approved: refused.
      const second = await operatorToken(t, 'admin');
      const approved = await call(t.app, 'POST', '/api/admin/v1/bonus-codes/decide', {
        token: second.token,
        body: { id: created.body.data.id, decision: 'approve' },
      });
      expect(approved.body.code, JSON.stringify(approved.body)).toBe(0);
      expect((await redeem(own.token, code)).body).toMatchObject({ code: 3700 });
    }
    expect(await rewardsHouse()).toBe(houseBefore);
    expect(await rewardsHouse('BTC')).toBe(0n);
    const credited = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from bonus_redemptions where user_id = ${Number(own.uid)}`,
    );
    expect(credited[0]?.n).toBe('0');
  });
});

interface CodeOptions {
  amount?: string;
  asset?: string;
  maxRedemptions?: number;
  verifiedOnly?: boolean;
  onePerIdentity?: boolean;
}
let counter = 0;
async function createCode(token: string, options: CodeOptions = {}) {
  counter += 1;
  const code = `BUDGET-${counter}-${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
  const reply = await call<{ id: string; approvalStatus: string; total: string }>(
    t.app,
    'POST',
    '/api/admin/v1/bonus-codes',
    {
      token,
      body: {
        code,
        asset: 'USDT',
        amount: '10',
        maxRedemptions: 10,
        verifiedOnly: false,
        expiresAt: new Date(t.clock.now().getTime() + DAY_MS).toISOString(),
        ...options,
      },
    },
  );
  if (reply.body.code !== 0) throw new Error(`create failed: ${JSON.stringify(reply.body)}`);
  return { code, ...reply.body.data };
}

const budget = async (token: string, asset = 'USDT') => {
  const reply = await call<{
    budgets: { asset: string; approved: string; granted: string; remaining: string }[];
  }>(t.app, 'GET', '/api/admin/v1/reward-budgets', { token });
  return reply.body.data.budgets.find((b) => b.asset === asset);
};

/** Marks a user as having passed KYC with the given document (the KYC flow has its own tests). */
async function verifyIdentity(uid: string, documentNumber: string) {
  const [file] = await queryRows<{ id: string }>(
    t.database.db,
    sql`insert into files (owner_id, purpose, visibility, storage_key, mime, size, width, height, sha256, created_at)
        values (${Number(uid)}, 'kyc', 'private', ${`test/${uid}`}, 'image/png', 1, 1, 1, 'x', now()) returning id::text`,
  );
  await queryRows(
    t.database.db,
    sql`insert into kyc_submissions (user_id, status, country, last_name, first_name, document_type, document_number, front_file_id, face_file_id, decided_at, created_at)
        values (${Number(uid)}, 'approved', 'DE', 'Muster', 'Demo', 'passport', ${documentNumber}, ${Number(file?.id)}, ${Number(file?.id)}, now(), now())`,
  );
  await queryRows(t.database.db, sql`update users set verified = true where id = ${Number(uid)}`);
}

describe('reward budgets: one admin requests, another approves', () => {
  it('a budget change takes effect only when a different admin approves it, and every step is audited', async () => {
    const first = await operatorToken(t, 'admin');
    const second = await operatorToken(t, 'admin');
    const before = await budget(first.token, 'ETH');
    const requested = await call<{ id: string; status: string }>(
      t.app,
      'POST',
      '/api/admin/v1/reward-budgets',
      { token: first.token, body: { asset: 'ETH', amount: '2.5', reason: 'spring campaign' } },
    );
    expect(requested.body.code, JSON.stringify(requested.body)).toBe(0);
    expect(requested.body.data.status).toBe('pending');
    expect(await budget(first.token, 'ETH')).toEqual(before);

    // The requester cannot approve their own request.
    const own = await call(t.app, 'POST', '/api/admin/v1/reward-budgets/decide', {
      token: first.token,
      body: { id: requested.body.data.id, decision: 'approve' },
    });
    expect(own.status).toBe(403);
    expect(own.body).toMatchObject({ code: 3720 });
    expect(await budget(first.token, 'ETH')).toEqual(before);
    // A catalog operator may not decide budgets at all.
    const byCatalog = await call(t.app, 'POST', '/api/admin/v1/reward-budgets/decide', {
      token: catalog,
      body: { id: requested.body.data.id, decision: 'approve' },
    });
    expect(byCatalog.status).toBe(403);

    const approved = await call<{ status: string; decidedBy: string }>(
      t.app,
      'POST',
      '/api/admin/v1/reward-budgets/decide',
      { token: second.token, body: { id: requested.body.data.id, decision: 'approve' } },
    );
    expect(approved.body.code, JSON.stringify(approved.body)).toBe(0);
    expect(approved.body.data).toMatchObject({ status: 'approved', decidedBy: second.username });
    const after = await budget(first.token, 'ETH');
    expect(BigInt(after?.approved.replace('.', '') ?? '0')).toBeGreaterThan(0n);
    expect(after).toMatchObject({ asset: 'ETH', approved: '2.5', granted: '0', remaining: '2.5' });

    // Decided once: a second decision is refused.
    const again = await call(t.app, 'POST', '/api/admin/v1/reward-budgets/decide', {
      token: second.token,
      body: { id: requested.body.data.id, decision: 'reject', reason: 'changed my mind' },
    });
    expect(again.body).toMatchObject({ code: 3702 });

    const audit = await queryRows<{ action: string; operator: string }>(
      t.database.db,
      sql`select l.action, o.username as operator from audit_log l join operators o on o.id = l.operator_id
          where l.target_type = 'reward_budget_request' and l.target_id = ${requested.body.data.id} order by l.id`,
    );
    expect(audit).toEqual([
      { action: 'reward_budget.request', operator: first.username },
      { action: 'reward_budget.approve', operator: second.username },
    ]);
  });

  it('a budget cannot be lowered below what has been paid', async () => {
    const asker = await adminContext(t);
    const approver = await adminContext(t);
    const { requestRewardBudgetChange, decideRewardBudgetChange } =
      await import('../src/modules/rewards/service.ts');
    const cut = await requestRewardBudgetChange(t.database.db, t.clock.now(), asker, {
      asset: 'ETH',
      amount: '-3',
      reason: 'too much',
    });
    await expect(
      decideRewardBudgetChange(t.database.db, t.clock.now(), approver, {
        id: cut.id,
        decision: 'approve',
      }),
    ).rejects.toMatchObject({ errorName: 'REWARD_BUDGET_BELOW_GRANTED' });
  });
});

describe('bonus codes draw on the reward budget', () => {
  it('a redemption beyond the remaining budget is refused and posts nothing; within it, pays and counts', async () => {
    const user = await registerUser(t.app);
    const other = await registerUser(t.app);
    const { code } = await createCode(catalog, { amount: '7', maxRedemptions: 5 });
    const houseBefore = await rewardsHouse();
    const refused = await redeem(user.token, code);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 3700,
      message:
        'Cannot participate in the activity at this time: the rewards for this activity have run out.',
    });
    expect(await rewardsHouse()).toBe(houseBefore);

    const remainingBefore = (await budget(admin))?.remaining ?? '0';
    await approveRewardBudget(t, '10');
    const paid = await redeem(user.token, code);
    expect(paid.body.code, JSON.stringify(paid.body)).toBe(0);
    expect(await rewardsHouse()).toBe(houseBefore - 7_000_000n);
    // 3 USDT left of the 10 approved: the next 7 does not fit.
    const beyond = await redeem(other.token, code);
    expect(beyond.body).toMatchObject({ code: 3700 });
    expect(await rewardsHouse()).toBe(houseBefore - 7_000_000n);
    expect(Number((await budget(admin))?.remaining)).toBe(Number(remainingBefore) + 3);
    const redeemed = await queryRows<{ redeemed_count: number }>(
      t.database.db,
      sql`select redeemed_count from bonus_codes where code = ${code}`,
    );
    expect(redeemed[0]?.redeemed_count).toBe(1);
  });

  it('a code whose total is above the threshold waits for a second admin; its creator cannot approve it', async () => {
    await approveRewardBudget(t, '2000');
    const user = await registerUser(t.app);
    const created = await createCode(catalog, { amount: '200', maxRedemptions: 10 });
    expect(created).toMatchObject({ approvalStatus: 'pending', total: '2000' });
    const waiting = await redeem(user.token, created.code);
    expect(waiting.body).toMatchObject({
      code: 3704,
      message: 'Cannot participate in the activity at this time: this code is not active yet.',
    });

    const adminCreated = await createCode(admin, { amount: '200', maxRedemptions: 10 });
    const self = await call(t.app, 'POST', '/api/admin/v1/bonus-codes/decide', {
      token: admin,
      body: { id: adminCreated.id, decision: 'approve' },
    });
    expect(self.body).toMatchObject({ code: 3720 });
    // Catalog operators create codes but do not approve them.
    const byCatalog = await call(t.app, 'POST', '/api/admin/v1/bonus-codes/decide', {
      token: catalog,
      body: { id: adminCreated.id, decision: 'approve' },
    });
    expect(byCatalog.status).toBe(403);

    const approved = await call<{ approvalStatus: string }>(
      t.app,
      'POST',
      '/api/admin/v1/bonus-codes/decide',
      { token: admin, body: { id: created.id, decision: 'approve' } },
    );
    expect(approved.body.code, JSON.stringify(approved.body)).toBe(0);
    expect(approved.body.data.approvalStatus).toBe('approved');
    const houseBefore = await rewardsHouse();
    expect((await redeem(user.token, created.code)).body.code).toBe(0);
    expect(await rewardsHouse()).toBe(houseBefore - 200_000_000n);

    // A rejected code stays unredeemable.
    const other = await operatorToken(t, 'admin');
    const rejected = await call(t.app, 'POST', '/api/admin/v1/bonus-codes/decide', {
      token: other.token,
      body: { id: adminCreated.id, decision: 'reject', reason: 'too generous' },
    });
    expect(rejected.body.code).toBe(0);
    expect((await redeem(user.token, adminCreated.code)).body).toMatchObject({ code: 3707 });

    const audit = await queryRows<{ action: string }>(
      t.database.db,
      sql`select action from audit_log where target_type = 'bonus_code' and target_id = ${created.id} order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['bonus_code.create', 'bonus_code.approve']);
  });

  it('codes are for verified accounts by default; one per identity refuses a second account of the same person', async () => {
    await approveRewardBudget(t, '100');
    const created = await call<{ verifiedOnly: boolean }>(
      t.app,
      'POST',
      '/api/admin/v1/bonus-codes',
      {
        token: catalog,
        body: {
          code: 'ONCE-PER-PERSON',
          asset: 'USDT',
          amount: '5',
          maxRedemptions: 10,
          onePerIdentity: true,
          expiresAt: new Date(t.clock.now().getTime() + DAY_MS).toISOString(),
        },
      },
    );
    expect(created.body.data.verifiedOnly).toBe(true);
    const first = await registerUser(t.app);
    const second = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    expect((await redeem(first.token, 'ONCE-PER-PERSON')).body).toMatchObject({ code: 3205 });
    await verifyIdentity(first.uid, 'C01X00T47');
    // The same passport, typed with spaces and in lower case on the second account.
    await verifyIdentity(second.uid, 'c01x 00t47');
    await verifyIdentity(stranger.uid, 'L898902C3');
    const houseBefore = await rewardsHouse();
    expect((await redeem(first.token, 'ONCE-PER-PERSON')).body.code).toBe(0);
    expect((await redeem(second.token, 'ONCE-PER-PERSON')).body).toMatchObject({
      code: 3705,
      message:
        'Cannot participate in the activity at this time: this code can be used once per verified person.',
    });
    expect((await redeem(stranger.token, 'ONCE-PER-PERSON')).body.code).toBe(0);
    expect(await rewardsHouse()).toBe(houseBefore - 10_000_000n);
  });

  it('an account that has not proved its address gets no reward', async () => {
    await approveRewardBudget(t, '10');
    const { code } = await createCode(catalog, { amount: '1' });
    const user = await registerUser(t.app);
    await queryRows(
      t.database.db,
      sql`update users set email_verified = false, phone_verified = false where id = ${Number(user.uid)}`,
    );
    const houseBefore = await rewardsHouse();
    expect((await redeem(user.token, code)).body).toMatchObject({ code: 3708 });
    expect(await rewardsHouse()).toBe(houseBefore);
    await queryRows(
      t.database.db,
      sql`update users set email_verified = true where id = ${Number(user.uid)}`,
    );
  });
});

describe('the ledger check and reward budgets', () => {
  it('reports house:rewards paid beyond the approved budget', async () => {
    expect(
      (await checkLedger(t.database.db, t.app.services.obligations)).filter((v) =>
        v.rule.startsWith('house rewards'),
      ),
    ).toEqual([]);
    // Break it on purpose: pay a reward straight through the ledger, around grantReward.
    const user = await registerUser(t.app);
    const { houseAccount, userAccount } = await import('../src/modules/ledger/service.ts');
    const post = (amount: bigint, reference: string) =>
      t.database.db.transaction((tx) =>
        t.app.services.ledger.post(tx, t.clock.now(), {
          kind: 'test_reward',
          reference,
          userId: Number(user.uid),
          postings: [
            { account: houseAccount('rewards', 'BTC'), amount: -amount, type: 'reward' },
            { account: userAccount(Number(user.uid), 'spot', 'BTC'), amount, type: 'reward' },
          ],
        }),
      );
    await post(100n * 100_000_000n, 'test:mint');
    const violations = (await checkLedger(t.database.db, t.app.services.obligations)).filter(
      (v) => v.rule === 'house rewards stay within the approved budget',
    );
    expect(violations).toHaveLength(1);
    expect(JSON.parse(violations[0]?.detail ?? '{}')).toMatchObject({
      asset: 'BTC',
      paid: '10000000000',
      approved: '0',
    });
    // Put it back so the file's closing check holds.
    await post(-100n * 100_000_000n, 'test:unmint');
  });
});

describe('races (real concurrency with TEST_DATABASE_URL)', () => {
  it('two admins approving one budget change at once apply it once', async () => {
    const { requestRewardBudgetChange, decideRewardBudgetChange } =
      await import('../src/modules/rewards/service.ts');
    const asker = await adminContext(t);
    const approvers = await Promise.all([adminContext(t), adminContext(t), adminContext(t)]);
    const before = await budget(admin, 'BTC');
    const change = await requestRewardBudgetChange(t.database.db, t.clock.now(), asker, {
      asset: 'BTC',
      amount: '1',
      reason: 'race',
    });
    const results = await Promise.allSettled(
      approvers.map((approver) =>
        decideRewardBudgetChange(t.database.db, t.clock.now(), approver, {
          id: change.id,
          decision: 'approve',
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({
        errorName: 'REWARD_BUDGET_REQUEST_DECIDED',
      });
    const after = await budget(admin, 'BTC');
    expect(Number(after?.approved) - Number(before?.approved)).toBe(1);
    const audits = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from audit_log where action = 'reward_budget.approve' and target_id = ${change.id}`,
    );
    expect(audits[0]?.n).toBe('1');
  });

  it('two admins approving one pending code at once decide it once', async () => {
    const { decideBonusCode } = await import('../src/modules/invite/service.ts');
    const created = await createCode(catalog, { amount: '500', maxRedemptions: 10 });
    expect(created.approvalStatus).toBe('pending');
    const approvers = await Promise.all([adminContext(t), adminContext(t)]);
    const results = await Promise.allSettled(
      approvers.map((approver) =>
        decideBonusCode(t.database.db, t.clock.now(), approver, {
          id: created.id,
          decision: 'approve',
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const audits = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from audit_log where action = 'bonus_code.approve' and target_id = ${created.id}`,
    );
    expect(audits[0]?.n).toBe('1');
  });

  it('30 concurrent redemptions across 6 codes never overdraw a budget that fits 5', async () => {
    // Drain what earlier tests left, then approve exactly 5 rewards of 3 ETH.
    const { listRewardBudgets } = await import('../src/modules/rewards/service.ts');
    const current = (await listRewardBudgets(t.database.db)).budgets.find((b) => b.asset === 'ETH');
    const asker = await adminContext(t);
    const approver = await adminContext(t);
    const { requestRewardBudgetChange, decideRewardBudgetChange } =
      await import('../src/modules/rewards/service.ts');
    const set = async (amount: string) => {
      const change = await requestRewardBudgetChange(t.database.db, t.clock.now(), asker, {
        asset: 'ETH',
        amount,
        reason: 'race budget',
      });
      await decideRewardBudgetChange(t.database.db, t.clock.now(), approver, {
        id: change.id,
        decision: 'approve',
      });
    };
    if (current && Number(current.remaining) > 0) await set(`-${current.remaining}`);
    await set('15');
    const codes = await Promise.all(
      Array.from({ length: 6 }, () =>
        createCode(catalog, { asset: 'ETH', amount: '3', maxRedemptions: 10 }),
      ),
    );
    for (const c of codes) {
      if (c.approvalStatus === 'pending')
        await call(t.app, 'POST', '/api/admin/v1/bonus-codes/decide', {
          token: admin,
          body: { id: c.id, decision: 'approve' },
        });
    }
    const users = await Promise.all(Array.from({ length: 5 }, () => registerUser(t.app)));
    const houseBefore = await rewardsHouse('ETH');
    const replies = await Promise.all(
      users.flatMap((u) => codes.map((c) => redeem(u.token, c.code))),
    );
    const ok = replies.filter((r) => r.body.code === 0);
    expect(ok).toHaveLength(5);
    expect(replies.filter((r) => r.body.code !== 0).every((r) => r.body.code === 3700)).toBe(true);
    expect(await rewardsHouse('ETH')).toBe(houseBefore - 5n * 300_000_000n);
    expect((await budget(admin, 'ETH'))?.remaining).toBe('0');
  });
});

describe('npm run ops', () => {
  it('reward-budget:request and :decide keep the two-admin rule from the shell, audited via cli', async () => {
    const { OPS_COMMANDS } = await import('../src/ops-commands.ts');
    const asker = await adminContext(t, 'shell-asker');
    const approver = await adminContext(t, 'shell-approver');
    const run = (name: string, who: typeof asker, options: Record<string, string>) => {
      const command = OPS_COMMANDS.get(name);
      if (!command) throw new Error(`${name} is missing`);
      return command.run(
        { ...t.app.services, db: t.database.db, operator: { ...who, via: 'cli' }, args: [] },
        options,
      );
    };
    const requested = await run('reward-budget:request', asker, {
      asset: 'LTC',
      amount: '4',
      reason: 'from the shell',
    });
    const id = requested.match(/#(\d+)/)?.[1] ?? '';
    expect(requested).toContain('4 LTC');
    await expect(run('reward-budget:decide', asker, { id, decision: 'approve' })).rejects.toThrow(
      /APPROVAL_NOT_ALLOWED/,
    );
    expect(await run('reward-budget:decide', approver, { id, decision: 'approve' })).toContain(
      'approved',
    );
    expect(
      await OPS_COMMANDS.get('reward-budget:list')?.run(
        { ...t.app.services, db: t.database.db, operator: undefined, args: [] },
        {},
      ),
    ).toContain('LTC: approved 4, paid 0, remaining 4');
    const audit = await queryRows<{ action: string; via: string }>(
      t.database.db,
      sql`select action, via from audit_log where target_type = 'reward_budget_request' and target_id = ${id} order by id`,
    );
    expect(audit).toEqual([
      { action: 'reward_budget.request', via: 'cli' },
      { action: 'reward_budget.approve', via: 'cli' },
    ]);
  });
});
