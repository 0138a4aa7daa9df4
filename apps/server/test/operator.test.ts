import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  audit,
  createOperator,
  findOperator,
  OPERATOR_IDLE_MS,
} from '../src/modules/operator/service.ts';
import { totp } from '../src/modules/security/totp.ts';
import { type TestApp, call, createTestApp, operatorToken, registerUser } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('operators', () => {
  it('sign in with their own accounts; a user token is not an operator token', async () => {
    const { token, username } = await operatorToken(t, 'reviewer');
    const me = await call<{ username: string; role: string }>(t.app, 'GET', '/api/admin/v1/me', {
      token,
    });
    expect(me.body.data).toEqual({ username, role: 'reviewer' });
    const user = await registerUser(t.app);
    expect((await call(t.app, 'GET', '/api/admin/v1/me', { token: user.token })).body.code).toBe(
      401,
    );
    // And an operator token is not a user token.
    expect((await call(t.app, 'GET', '/api/v1/user/profile', { token })).body.code).toBe(401);
  });

  it('a wrong password is refused', async () => {
    const reply = await call(t.app, 'POST', '/api/admin/v1/auth/login', {
      body: { username: 'nobody', password: 'x', code: '123456' },
    });
    expect(reply.body.code).toBe(1001);
  });

  it('sign-in needs the TOTP code; a code works once; the sign-in is audit-logged', async () => {
    const username = 'op-totp-check';
    const { password, totpSecret } = await createOperator(t.database.db, t.clock.now(), {
      username,
      role: 'reviewer',
    });
    const login = (code: string) =>
      call<{ token: string }>(t.app, 'POST', '/api/admin/v1/auth/login', {
        body: { username, password, code },
      });
    const missing = await call(t.app, 'POST', '/api/admin/v1/auth/login', {
      body: { username, password },
    });
    expect(missing.body.code).toBe(422);
    const good = totp(totpSecret, t.clock.now().getTime());
    const wrong = String((Number(good) + 1) % 1_000_000).padStart(6, '0');
    expect((await login(wrong)).body.errors?.code).toEqual([
      'That code is not right. Check the time on your phone and try again.',
    ]);
    const first = await login(good);
    expect(first.body.code).toBe(0);
    const replay = await login(good);
    expect(replay.body.code).toBe(422);
    expect(replay.body.errors?.code?.[0]).toContain('already used');
    // The next step's code works once the clock gets there.
    t.clock.advance(30_000);
    expect((await login(totp(totpSecret, t.clock.now().getTime()))).body.code).toBe(0);
    const admin = await operatorToken(t, 'admin');
    const log = await call<{ items: { operator: string; action: string }[] }>(
      t.app,
      'GET',
      `/api/admin/v1/audit?action=operator.sign_in&operator=${username}`,
      { token: admin.token },
    );
    expect(log.body.data.items).toHaveLength(2);
  });

  it('administrators disable operators, with a reason (creating one takes two admins: operator-enrolment.test.ts)', async () => {
    const admin = await operatorToken(t, 'admin');
    const created = {
      body: {
        data: await createOperator(t.database.db, t.clock.now(), {
          username: 'new-reviewer',
          role: 'reviewer',
        }),
      },
    };
    // The route that created an operator and returned its credentials is gone.
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/operators', {
          token: admin.token,
          body: { username: 'new-reviewer-2', role: 'reviewer' },
        })
      ).body.code,
    ).toBe(404);
    const listed = await call<{
      items: { username: string; role: string; disabledAt: string | null }[];
    }>(t.app, 'GET', '/api/admin/v1/operators', { token: admin.token });
    expect(listed.body.data.items.filter((o) => o.username === 'new-reviewer')).toEqual([
      expect.objectContaining({ role: 'reviewer', disabledAt: null, enrolled: true }),
    ]);

    const session = await call<{ token: string }>(t.app, 'POST', '/api/admin/v1/auth/login', {
      body: {
        username: 'new-reviewer',
        password: created.body.data.password,
        code: totp(created.body.data.totpSecret, t.clock.now().getTime()),
      },
    });
    expect(session.body.code).toBe(0);
    const noReason = await call(t.app, 'POST', '/api/admin/v1/operators/disable', {
      token: admin.token,
      body: { id: created.body.data.id, disabled: true },
    });
    expect(noReason.body.code).toBe(422);
    const disabled = await call(t.app, 'POST', '/api/admin/v1/operators/disable', {
      token: admin.token,
      body: { id: created.body.data.id, disabled: true, reason: 'left the team' },
    });
    expect(disabled.body.code).toBe(0);
    // Their open session ends at once.
    expect(
      (await call(t.app, 'GET', '/api/admin/v1/me', { token: session.body.data.token })).status,
    ).toBe(401);
    const me = await findOperator(t.database.db, admin.username);
    const self = await call(t.app, 'POST', '/api/admin/v1/operators/disable', {
      token: admin.token,
      body: { id: me?.operatorId, disabled: true, reason: 'oops' },
    });
    expect(self.body.code).toBe(3502);
    const log = await call<{ items: { action: string; reason: string | null; after: string }[] }>(
      t.app,
      'GET',
      `/api/admin/v1/audit?targetType=operator&targetId=${created.body.data.id}`,
      { token: admin.token },
    );
    expect(log.body.data.items.map((i) => i.action)).toEqual([
      'operator.disable',
      'operator.sign_in',
    ]);
    expect(log.body.data.items[0]?.reason).toBe('left the team');
  });

  it('roles gate routes: the audit log is for administrators', async () => {
    const reviewer = await operatorToken(t, 'reviewer');
    const admin = await operatorToken(t, 'admin');
    const denied = await call(t.app, 'GET', '/api/admin/v1/audit', { token: reviewer.token });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(403);
    expect(
      (await call(t.app, 'GET', '/api/admin/v1/audit', { token: admin.token })).body.code,
    ).toBe(0);
  });

  it('a session ends after 30 minutes idle (411)', async () => {
    const { token } = await operatorToken(t, 'reviewer');
    t.clock.advance(OPERATOR_IDLE_MS - 1000);
    expect((await call(t.app, 'GET', '/api/admin/v1/me', { token })).body.code).toBe(0);
    t.clock.advance(OPERATOR_IDLE_MS + 1000);
    expect((await call(t.app, 'GET', '/api/admin/v1/me', { token })).body.code).toBe(411);
  });

  it('the audit log records who, what, before, after and why, and filters', async () => {
    const reviewer = await operatorToken(t, 'reviewer');
    const operator = await findOperator(t.database.db, reviewer.username);
    if (!operator) throw new Error('operator missing');
    await audit(t.database.db, t.clock.now(), operator, {
      action: 'kyc.reject',
      targetType: 'kyc',
      targetId: 7,
      before: { status: 'pending' },
      after: { status: 'rejected' },
      reason: 'blurry photo',
    });
    await audit(t.database.db, t.clock.now(), operator, {
      action: 'deposit.approve',
      targetType: 'card_deposit',
      targetId: 8,
      reason: null,
    });
    const admin = await operatorToken(t, 'admin');
    const reply = await call<{
      items: { operator: string; action: string; before: string; after: string; reason: string }[];
    }>(t.app, 'GET', '/api/admin/v1/audit?action=kyc.reject', { token: admin.token });
    expect(reply.body.data.items).toHaveLength(1);
    expect(reply.body.data.items[0]).toMatchObject({
      operator: reviewer.username,
      action: 'kyc.reject',
      before: '{"status":"pending"}',
      after: '{"status":"rejected"}',
      reason: 'blurry photo',
    });
  });

  it('administrators see the settings in effect, with keys, tokens and credentials hidden', async () => {
    const app = await createTestApp({
      env: {
        SMTP_URL: 'smtps://mailer:hunter2@smtp.example.com:465',
        TRON_API_KEY: 'secret-key-123',
        CONVERT_FEE_BPS: '35',
      },
    });
    try {
      const admin = await operatorToken(app, 'admin');
      const reply = await call<{
        items: { name: string; value: string | null; fromEnv: boolean; secret: boolean }[];
      }>(app.app, 'GET', '/api/admin/v1/settings', { token: admin.token });
      const byName = new Map(reply.body.data.items.map((item) => [item.name, item]));
      expect(byName.get('CONVERT_FEE_BPS')).toEqual({
        name: 'CONVERT_FEE_BPS',
        value: '35',
        fromEnv: true,
        secret: false,
      });
      expect(byName.get('SESSION_TTL_DAYS')).toMatchObject({ value: '30', fromEnv: false });
      expect(byName.get('TRON_API_KEY')).toMatchObject({ value: '••••••', secret: true });
      expect(byName.get('SMTP_URL')?.value).toBe('smtps://••••@smtp.example.com:465');
      expect(JSON.stringify(reply.body)).not.toContain('hunter2');
      expect(JSON.stringify(reply.body)).not.toContain('secret-key-123');
      const reviewer = await operatorToken(app, 'reviewer');
      expect(
        (await call(app.app, 'GET', '/api/admin/v1/settings', { token: reviewer.token })).status,
      ).toBe(403);
    } finally {
      await app.close();
    }
  });
});
