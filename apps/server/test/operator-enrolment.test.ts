import type { OperatorRequest } from '@tradewind/contract/operator';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_ATTEMPTS } from '../src/modules/auth/sign-in-throttle.ts';
import { ENROLMENT_TIE_MS } from '../src/modules/operator/approval-rule.ts';
import { operatorOpsCommands } from '../src/modules/operator/ops.ts';
import type { OpsContext } from '../src/modules/operator/ops-commands.ts';
import { auditLog, operatorEnrolments, operators } from '../src/modules/operator/tables.ts';
import { totp } from '../src/modules/security/totp.ts';
import {
  PASSWORD,
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  operatorSession,
  operatorToken,
  registerUser,
} from './harness.ts';

/**
 * Issue 29: operators are people, not accounts one person can multiply. An admin who asks for
 * a new operator never sees its credentials; a second admin approves; the newcomer enrols
 * with their own password and TOTP; and nobody approves what they, or someone they brought
 * in within 7 days, requested.
 */

const USDT = 1_000_000n;
const PIN = '480316';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { WITHDRAWAL_SECOND_APPROVAL: 'USDT:1000,BTC:0.2,ETH:3' },
  });
});
afterAll(() => t.close());

let address = 0;
const nextIp = () => `10.29.${Math.floor(++address / 250)}.${address % 250}`;
const post = <T>(token: string | undefined, url: string, body: unknown) =>
  call<T>(t.app, 'POST', url, { ...(token ? { token } : {}), body, ip: nextIp() });

interface Decided {
  request: OperatorRequest;
  enrolment: { code: string; path: string; expiresAt: string } | null;
}

/** Requested by one admin, approved by another, enrolled by the newcomer with their own secrets. */
async function bringIn(
  requesterToken: string,
  approverToken: string,
  role: 'reviewer' | 'catalog' | 'admin',
  username = `new-${role}-${++address}`,
) {
  const requested = await post<OperatorRequest>(
    requesterToken,
    '/api/admin/v1/operators/requests',
    {
      kind: 'create',
      username,
      role,
      reason: 'joins the team',
    },
  );
  expect(requested.body.code, JSON.stringify(requested.body)).toBe(0);
  const decided = await post<Decided>(approverToken, '/api/admin/v1/operators/requests/decide', {
    id: requested.body.data.id,
    decision: 'approve',
    reason: 'met them',
  });
  expect(decided.body.code, JSON.stringify(decided.body)).toBe(0);
  const code = decided.body.data.enrolment?.code as string;
  const started = await post<{ totpSecret: string }>(undefined, '/api/admin/v1/enrolment/start', {
    code,
  });
  const password = `own-password-${username}`;
  const { totpSecret } = started.body.data;
  const completed = await post(undefined, '/api/admin/v1/enrolment/complete', {
    code,
    password,
    totpCode: totp(totpSecret, t.clock.now().getTime()),
  });
  expect(completed.body.code, JSON.stringify(completed.body)).toBe(0);
  // The enrolment used this step's code; sign in on the next one.
  t.clock.advance(30_000);
  const session = await post<{ token: string }>(undefined, '/api/admin/v1/auth/login', {
    username,
    password,
    code: totp(totpSecret, t.clock.now().getTime()),
  });
  expect(session.body.code, JSON.stringify(session.body)).toBe(0);
  return { username, token: session.body.data.token, requestId: requested.body.data.id, code };
}

async function spotUsdt(token: string) {
  const reply = await call<{ spot: { asset: string; available: string; locked: string }[] }>(
    t.app,
    'GET',
    '/api/v1/wallet/balances',
    { token },
  );
  return reply.body.data.spot.find((s) => s.asset === 'USDT');
}

describe('creating an operator takes two admins and the newcomer enrols themselves', () => {
  it("the requester's replies never hold the new operator's password, TOTP secret or enrolment code", async () => {
    const alice = await operatorToken(t, 'admin');
    const bob = await operatorToken(t, 'admin');
    const requested = await post<OperatorRequest>(alice.token, '/api/admin/v1/operators/requests', {
      kind: 'create',
      username: 'second-account',
      role: 'admin',
      reason: 'night shift',
    });
    expect(requested.body.code).toBe(0);
    expect(requested.body.data).toMatchObject({
      status: 'pending',
      requestedBy: alice.username,
      username: 'second-account',
    });
    // Nothing exists yet; the old route that handed out credentials is gone.
    expect(
      await t.database.db.select().from(operators).where(eq(operators.username, 'second-account')),
    ).toEqual([]);
    expect(
      (
        await post(alice.token, '/api/admin/v1/operators', {
          username: 'third-account',
          role: 'admin',
        })
      ).body.code,
    ).not.toBe(0);

    // The requester cannot approve it herself.
    const self = await post(alice.token, '/api/admin/v1/operators/requests/decide', {
      id: requested.body.data.id,
      decision: 'approve',
      reason: 'me',
    });
    expect(self.status).toBe(403);
    expect(self.body.code).toBe(3720);

    const approved = await post<Decided>(bob.token, '/api/admin/v1/operators/requests/decide', {
      id: requested.body.data.id,
      decision: 'approve',
      reason: 'confirmed on a call',
    });
    expect(approved.body.data.request.status).toBe('approved');
    const code = approved.body.data.enrolment?.code as string;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(approved.body.data.enrolment?.path).toBe(`/admin/enrol#${code}`);

    // What the requester can read afterwards: no secret, no code.
    const [created] = await t.database.db
      .select()
      .from(operators)
      .where(eq(operators.username, 'second-account'));
    expect(created?.passwordHash).toBeNull();
    for (const reply of [
      await call(t.app, 'GET', '/api/admin/v1/operators/requests', { token: alice.token }),
      await call(t.app, 'GET', '/api/admin/v1/operators', { token: alice.token }),
      await call(t.app, 'GET', '/api/admin/v1/audit', { token: alice.token }),
    ]) {
      const text = JSON.stringify(reply.body);
      expect(reply.body.code).toBe(0);
      expect(text).not.toContain(code);
      expect(text).not.toMatch(/password|totpSecret/i);
    }
    // The code is stored hashed only.
    const stored = await t.database.db.execute(sql`select code_hash from operator_enrolments`);
    expect(JSON.stringify(stored)).not.toContain(code);

    // Not enrolled: no password works.
    expect(
      (
        await post(undefined, '/api/admin/v1/auth/login', {
          username: 'second-account',
          password: 'anything-at-all',
          code: '123456',
        })
      ).body.code,
    ).toBe(1001);

    const started = await post<{ username: string; totpSecret: string }>(
      undefined,
      '/api/admin/v1/enrolment/start',
      { code },
    );
    expect(started.body.data.username).toBe('second-account');
    const again = await post<{ totpSecret: string }>(undefined, '/api/admin/v1/enrolment/start', {
      code,
    });
    expect(again.body.data.totpSecret).toBe(started.body.data.totpSecret);
    const wrongTotp = await post(undefined, '/api/admin/v1/enrolment/complete', {
      code,
      password: 'my-own-password-1',
      totpCode: '000000',
    });
    expect(wrongTotp.body.errors?.totpCode).toBeDefined();
    const done = await post(undefined, '/api/admin/v1/enrolment/complete', {
      code,
      password: 'my-own-password-1',
      totpCode: totp(started.body.data.totpSecret, t.clock.now().getTime()),
    });
    expect(done.body.code).toBe(0);
    // Single use.
    const reused = await post(undefined, '/api/admin/v1/enrolment/start', { code });
    expect(reused.body.errors?.code).toEqual([
      'This enrolment code is not valid: it is wrong, already used or expired. Ask an administrator for a new one.',
    ]);
    t.clock.advance(30_000);
    const signedIn = await post<{ role: string }>(undefined, '/api/admin/v1/auth/login', {
      username: 'second-account',
      password: 'my-own-password-1',
      code: totp(started.body.data.totpSecret, t.clock.now().getTime()),
    });
    expect(signedIn.body.data.role).toBe('admin');

    const log = await call<{ items: { action: string; operator: string; reason: string }[] }>(
      t.app,
      'GET',
      '/api/admin/v1/audit?targetType=operator_request',
      { token: bob.token },
    );
    expect(
      log.body.data.items
        .filter((i) => i.reason === 'night shift' || i.reason === 'confirmed on a call')
        .map((i) => [i.action, i.operator]),
    ).toEqual([
      ['operator.request_approve', bob.username],
      ['operator.request_create', alice.username],
    ]);
  });

  it('an enrolment code expires', async () => {
    const alice = await operatorToken(t, 'admin');
    const bob = await operatorToken(t, 'admin');
    const requested = await post<OperatorRequest>(alice.token, '/api/admin/v1/operators/requests', {
      kind: 'create',
      username: `late-${address}`,
      role: 'reviewer',
      reason: 'new hire',
    });
    const approved = await post<Decided>(bob.token, '/api/admin/v1/operators/requests/decide', {
      id: requested.body.data.id,
      decision: 'approve',
      reason: 'ok',
    });
    t.clock.advance(72 * 3_600_000 + 1000);
    const late = await post(undefined, '/api/admin/v1/enrolment/start', {
      code: approved.body.data.enrolment?.code,
    });
    expect(late.body.errors?.code?.[0]).toContain('expired');
  });

  it('enabling an operator again and raising a role are requests a second admin approves', async () => {
    const alice = await operatorToken(t, 'admin');
    const bob = await operatorToken(t, 'admin');
    const reviewer = await operatorToken(t, 'reviewer');
    const [row] = await t.database.db
      .select({ id: operators.id })
      .from(operators)
      .where(eq(operators.username, reviewer.username));
    const id = row?.id as number;
    const promote = await post<OperatorRequest>(alice.token, '/api/admin/v1/operators/requests', {
      kind: 'role',
      id,
      role: 'admin',
      reason: 'team lead',
    });
    expect(promote.body.data.status).toBe('pending');
    // Still a reviewer until someone else approves.
    expect(
      (await call(t.app, 'GET', '/api/admin/v1/audit', { token: reviewer.token })).status,
    ).toBe(403);
    await post(bob.token, '/api/admin/v1/operators/requests/decide', {
      id: promote.body.data.id,
      decision: 'approve',
      reason: 'agreed',
    });
    const [promoted] = await t.database.db.select().from(operators).where(eq(operators.id, id));
    expect(promoted?.role).toBe('admin');

    expect(
      (
        await post(alice.token, '/api/admin/v1/operators/disable', {
          id,
          disabled: true,
          reason: 'left',
        })
      ).body.code,
    ).toBe(0);
    const enableAlone = await post(alice.token, '/api/admin/v1/operators/disable', {
      id,
      disabled: false,
      reason: 'back',
    });
    expect(enableAlone.body.code).toBe(3726);
    const enable = await post<OperatorRequest>(alice.token, '/api/admin/v1/operators/requests', {
      kind: 'enable',
      id,
      reason: 'back from leave',
    });
    const open = await post(bob.token, '/api/admin/v1/operators/requests', {
      kind: 'enable',
      id,
      reason: 'same',
    });
    expect(open.body.code).toBe(3723);
    await post(bob.token, '/api/admin/v1/operators/requests/decide', {
      id: enable.body.data.id,
      decision: 'approve',
      reason: 'agreed',
    });
    const [enabled] = await t.database.db.select().from(operators).where(eq(operators.id, id));
    expect(enabled?.disabledAt).toBeNull();
  });
});

describe('two admins approving one request at once', () => {
  it('act once: one operator, one enrolment, one approval in the audit log', async () => {
    const alice = await operatorToken(t, 'admin');
    const approvers = await Promise.all([operatorToken(t, 'admin'), operatorToken(t, 'admin')]);
    for (let round = 0; round < 5; round++) {
      const username = `raced-${round}-${++address}`;
      const requested = await post<OperatorRequest>(
        alice.token,
        '/api/admin/v1/operators/requests',
        { kind: 'create', username, role: 'admin', reason: 'race' },
      );
      const replies = await Promise.all(
        approvers.map((approver) =>
          post<Decided>(approver.token, '/api/admin/v1/operators/requests/decide', {
            id: requested.body.data.id,
            decision: 'approve',
            reason: 'race',
          }),
        ),
      );
      expect(replies.map((r) => r.body.code).sort()).toEqual([0, 3722]);
      expect(
        await t.database.db.select().from(operators).where(eq(operators.username, username)),
      ).toHaveLength(1);
      const enrolments = await t.database.db
        .select({ id: operatorEnrolments.id })
        .from(operatorEnrolments)
        .innerJoin(operators, eq(operators.id, operatorEnrolments.operatorId))
        .where(eq(operators.username, username));
      expect(enrolments).toHaveLength(1);
      const approvals = await t.database.db
        .select()
        .from(auditLog)
        .where(
          and(
            eq(auditLog.action, 'operator.request_approve'),
            eq(auditLog.targetId, String(requested.body.data.id)),
          ),
        );
      expect(approvals).toHaveLength(1);
    }
  });
});

describe('nobody approves their own request, nor one by an operator they brought in within 7 days', () => {
  async function requestAdjustment(token: string, uid: string, amount: string) {
    const reply = await post<{ id: string }>(token, '/api/admin/v1/users/adjustments', {
      uid,
      wallet: 'spot',
      asset: 'USDT',
      amount,
      reason: 'goodwill',
    });
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
    return reply.body.data.id;
  }
  const decideAdjustment = (token: string, id: string) =>
    post(token, '/api/admin/v1/users/adjustments/decide', {
      id,
      decision: 'approve',
      reason: 'ok',
    });

  it('an admin cannot approve a +1,000,000 USDT adjustment requested by the admin they created or approved', async () => {
    const alice = await operatorToken(t, 'admin');
    const bob = await operatorToken(t, 'admin');
    const carol = await operatorToken(t, 'admin');
    // Alice asks for a second admin; Bob approves; the newcomer requests a million.
    const mallory = await bringIn(alice.token, bob.token, 'admin');
    const user = await registerUser(t.app);
    const id = await requestAdjustment(mallory.token, user.uid, '1000000');
    const before = await spotUsdt(user.token);
    for (const sponsor of [alice, bob]) {
      const refused = await decideAdjustment(sponsor.token, id);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe(3720);
    }
    // And the newcomer cannot approve their sponsors' requests either.
    const aliceAsks = await requestAdjustment(alice.token, user.uid, '5');
    expect((await decideAdjustment(mallory.token, aliceAsks)).body.code).toBe(3720);
    expect(await spotUsdt(user.token)).toEqual(before);
    // Someone unrelated may.
    expect((await decideAdjustment(carol.token, id)).body.code).toBe(0);
    expect((await spotUsdt(user.token))?.available).toBe('1000000');
    // After 7 days the tie is gone.
    t.clock.advance(ENROLMENT_TIE_MS + 60_000);
    const later = await operatorSession(t, mallory.username);
    expect((await decideAdjustment(later, aliceAsks)).body.code).toBe(0);
  });

  it('an admin cannot approve their own adjustment', async () => {
    const alice = await operatorToken(t, 'admin');
    const user = await registerUser(t.app);
    const id = await requestAdjustment(alice.token, user.uid, '1000000');
    const refused = await decideAdjustment(alice.token, id);
    expect(refused.status).toBe(403);
    expect(await spotUsdt(user.token)).toMatchObject({ available: '0' });
  });

  it('the second approval of a 500,000 USDT withdrawal is refused from an operator the first approver brought in', async () => {
    const alice = await operatorToken(t, 'admin');
    const bob = await operatorToken(t, 'admin');
    const dave = await operatorToken(t, 'reviewer');
    const newcomer = await bringIn(alice.token, bob.token, 'reviewer');
    const user = await registerUser(t.app);
    await t.database.db.execute(
      sql`update users set verified = true where id = ${Number(user.uid)}`,
    );
    await post(user.token, '/api/v1/money-passwords', {
      kind: 'withdraw',
      proof: 'login_password',
      loginPassword: PASSWORD,
      password: PIN,
      confirmPassword: PIN,
    });
    await fund(t, Number(user.uid), 600_000n * USDT);
    const created = await call<{ id: string }>(t.app, 'POST', '/api/v1/withdrawals', {
      token: user.token,
      body: { asset: 'USDT', network: 'TRC20', address: TRON, amount: '500000', password: PIN },
      headers: { 'idempotency-key': idempotencyKey() },
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const id = created.body.data.id;
    const review = (token: string) =>
      post<{ status: string }>(token, '/api/admin/v1/withdrawals/review', {
        id,
        decision: 'approve',
      });
    expect((await review(newcomer.token)).body.data.status).toBe('under_review');
    const second = await review(alice.token);
    expect(second.status).toBe(403);
    expect(second.body.code).toBe(3720);
    expect((await review(bob.token)).body.code).toBe(3720);
    expect((await spotUsdt(user.token))?.locked).not.toBe('0');
    expect((await review(dave.token)).body.data.status).toBe('processing');
  });
});

describe('the shell creates only the first admin, audited', () => {
  it('the CLI creates the first admin with an audit entry naming the OS user, then refuses a second', async () => {
    const fresh = await createTestApp();
    try {
      const context = {
        ...fresh.app.services,
        db: fresh.database.db,
        operator: undefined,
        args: [],
      } as unknown as OpsContext;
      const create = operatorOpsCommands['create-operator'];
      if (!create) throw new Error('no create-operator command');
      const [anyAdmin] = await fresh.database.db
        .select()
        .from(operators)
        .where(eq(operators.role, 'admin'));
      expect(anyAdmin).toBeUndefined();
      await expect(
        create.run(context, { username: 'root-admin', 'os-user': 'deploy' }),
      ).rejects.toThrow(/reason/);
      const printed = await create.run(context, {
        username: 'root-admin',
        reason: 'first install',
        'os-user': 'deploy',
      });
      expect(printed).toMatch(/password: \S+/);
      const entries = await fresh.database.db.select().from(auditLog);
      expect(entries).toEqual([
        expect.objectContaining({
          operatorId: null,
          actor: 'cli:deploy',
          action: 'operator.create_first_admin',
          reason: 'first install',
          via: 'cli',
        }),
      ]);
      await expect(
        create.run(context, { username: 'second-admin', reason: 'backup', 'os-user': 'deploy' }),
      ).rejects.toThrow(/FIRST_ADMIN_EXISTS/);
      expect(
        await fresh.database.db
          .select()
          .from(operators)
          .where(eq(operators.username, 'second-admin')),
      ).toEqual([]);
      // The audit list shows the shell user as the actor.
      const admin = await operatorToken(fresh, 'admin');
      const listed = await call<{ items: { operator: string; action: string }[] }>(
        fresh.app,
        'GET',
        '/api/admin/v1/audit?action=operator.create_first_admin',
        { token: admin.token },
      );
      expect(listed.body.data.items.map((i) => i.operator)).toEqual(['cli:deploy']);
    } finally {
      await fresh.close();
    }
  });
});

describe("operators' sign-in is throttled per account", () => {
  it('40 wrong passwords for one operator from 40 addresses at once: only the free attempts are checked', async () => {
    // The per-address limits are on as in production; each attempt comes from its own address.
    const limited = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'true' } });
    try {
      const { username } = await operatorToken(limited, 'admin');
      const replies = await Promise.all(
        Array.from({ length: 40 }, () =>
          call(limited.app, 'POST', '/api/admin/v1/auth/login', {
            body: { username, password: 'wrong-password-40', code: '123456' },
            ip: nextIp(),
          }),
        ),
      );
      const codes = replies.map((r) => r.body.code);
      expect(codes.filter((c) => c === 1001)).toHaveLength(FREE_ATTEMPTS);
      expect(codes.filter((c) => c === 1012)).toHaveLength(40 - FREE_ATTEMPTS);
    } finally {
      await limited.close();
    }
  });
});
