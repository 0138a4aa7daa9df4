import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, findOperator, OPERATOR_IDLE_MS } from '../src/modules/operator/service.ts';
import { type TestApp, call, createTestApp, operatorToken, registerUser } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('operators', () => {
  it('sign in with their own accounts; a user token is not an operator token', async () => {
    const { token, username } = await operatorToken(t, 'reviewer');
    const me = await call<{ username: string; role: string }>(t.app, 'GET', '/api/admin/v1/me', { token });
    expect(me.body.data).toEqual({ username, role: 'reviewer' });
    const user = await registerUser(t.app);
    expect((await call(t.app, 'GET', '/api/admin/v1/me', { token: user.token })).body.code).toBe(401);
    // And an operator token is not a user token.
    expect((await call(t.app, 'GET', '/api/v1/user/profile', { token })).body.code).toBe(401);
  });

  it('a wrong password is refused', async () => {
    const reply = await call(t.app, 'POST', '/api/admin/v1/auth/login', { body: { username: 'nobody', password: 'x' } });
    expect(reply.body.code).toBe(1001);
  });

  it('roles gate routes: the audit log is for administrators', async () => {
    const reviewer = await operatorToken(t, 'reviewer');
    const admin = await operatorToken(t, 'admin');
    const denied = await call(t.app, 'GET', '/api/admin/v1/audit', { token: reviewer.token });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(403);
    expect((await call(t.app, 'GET', '/api/admin/v1/audit', { token: admin.token })).body.code).toBe(0);
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
    await audit(t.database.db, t.clock.now(), operator, { action: 'kyc.reject', targetType: 'kyc', targetId: 7, before: { status: 'pending' }, after: { status: 'rejected' }, reason: 'blurry photo' });
    await audit(t.database.db, t.clock.now(), operator, { action: 'deposit.approve', targetType: 'card_deposit', targetId: 8, reason: null });
    const admin = await operatorToken(t, 'admin');
    const reply = await call<{ items: { operator: string; action: string; before: string; after: string; reason: string }[] }>(t.app, 'GET', '/api/admin/v1/audit?action=kyc.reject', { token: admin.token });
    expect(reply.body.data.items).toHaveLength(1);
    expect(reply.body.data.items[0]).toMatchObject({ operator: reviewer.username, action: 'kyc.reject', before: '{"status":"pending"}', after: '{"status":"rejected"}', reason: 'blurry photo' });
  });
});
