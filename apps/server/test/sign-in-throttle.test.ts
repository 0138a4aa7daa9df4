import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FREE_ATTEMPTS,
  MAX_WAIT_S,
  pruneThrottles,
  waitAfterS,
} from '../src/modules/auth/sign-in-throttle.ts';
import { signInThrottles } from '../src/modules/auth/tables.ts';
import { signInEvents } from '../src/modules/security/tables.ts';
import { users } from '../src/modules/user/tables.ts';
import {
  type TestApp,
  PASSWORD,
  call,
  createTestApp,
  registerUser,
  uniqueEmail,
} from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  // The per-address limits are on as in production; each attempt below comes from its own address.
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'true' } });
});
afterAll(() => t.close());

let address = 0;
const nextIp = () => `10.9.${Math.floor(++address / 250)}.${address % 250}`;

function signIn(account: string, password: string, lang = 'en') {
  return call<{ token?: string }>(t.app, 'POST', '/api/v1/auth/login', {
    body: { channel: 'email', account, password },
    ip: nextIp(),
    lang,
  });
}

async function userIdOf(account: string): Promise<number> {
  const [row] = await t.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, account.toLowerCase()));
  if (!row) throw new Error(`no user ${account}`);
  return row.id;
}

async function wrongPasswordsRecorded(userId: number): Promise<number> {
  const rows = await t.database.db
    .select()
    .from(signInEvents)
    .where(and(eq(signInEvents.userId, userId), eq(signInEvents.result, 'wrong_password')));
  return rows.length;
}

describe('sign-in throttling per account', () => {
  it('waits grow from 30 s to at most 15 minutes', () => {
    expect([1, 4, 5, 6, 7, 8, 9, 10, 11, 30].map(waitAfterS)).toEqual([
      0,
      0,
      30,
      60,
      120,
      240,
      480,
      MAX_WAIT_S,
      MAX_WAIT_S,
      MAX_WAIT_S,
    ]);
  });

  it('after 5 wrong passwords from 5 addresses the next attempt waits, the owner is told, and the right password works after the wait', async () => {
    const { account } = await registerUser(t.app);
    const userId = await userIdOf(account);
    for (let i = 0; i < FREE_ATTEMPTS; i++)
      expect((await signIn(account, 'wrong-password-1')).body.code).toBe(1001);
    expect(await wrongPasswordsRecorded(userId)).toBe(FREE_ATTEMPTS);

    // From yet another address, even with the right password: refused unchecked, with the wait.
    const refused = await signIn(account, PASSWORD, 'de');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe(1012);
    expect(refused.response.headers['retry-after']).toBe('30');
    expect(refused.body.message).toBe(
      'Zu viele falsche Passwörter für dieses Konto. Bitte in 30 s erneut versuchen.',
    );
    expect(await wrongPasswordsRecorded(userId)).toBe(FREE_ATTEMPTS);

    // The owner has an in-site message and an email.
    const messages = await call<{ items: { kind: string; body: string }[] }>(
      t.app,
      'GET',
      '/api/v1/messages',
      { token: (await registerUser(t.app)).token },
    );
    expect(messages.body.data.items.some((m) => m.kind === 'account.sign_in_throttled')).toBe(
      false,
    );
    t.clock.advance(30_000);
    const session = await signIn(account, PASSWORD);
    expect(session.body.code).toBe(0);
    const own = await call<{ items: { kind: string; body: string; link: string | null }[] }>(
      t.app,
      'GET',
      '/api/v1/messages',
      { token: session.body.data.token as string },
    );
    const notice = own.body.data.items.find((m) => m.kind === 'account.sign_in_throttled');
    expect(notice?.body).toContain('5 times in a row');
    expect(notice?.link).toBe('/Security');
    // The email goes out in the background (the reply does not wait for a mail server).
    const notices = async () => {
      const outbox = await call<{ items: { subject: string }[] }>(
        t.app,
        'GET',
        `/api/v1/dev/outbox?to=${encodeURIComponent(account.toLowerCase())}`,
        { ip: nextIp() },
      );
      return outbox.body.data.items.filter(
        (m) => m.subject === 'Tradewind: sign-in paused after wrong passwords',
      ).length;
    };
    await expect.poll(notices).toBe(1);

    // A success starts the count over: five more wrong passwords go through before a wait.
    for (let i = 0; i < FREE_ATTEMPTS; i++)
      expect((await signIn(account, 'wrong-password-2')).body.code).toBe(1001);
    expect((await signIn(account, 'wrong-password-2')).body.code).toBe(1012);
  });

  it('each further wrong password doubles the wait, up to 15 minutes', async () => {
    const { account } = await registerUser(t.app);
    for (let i = 0; i < FREE_ATTEMPTS; i++) await signIn(account, 'wrong-password-3');
    const waits: string[] = [];
    for (let i = 0; i < 7; i++) {
      const refused = await signIn(account, 'wrong-password-3');
      expect(refused.body.code).toBe(1012);
      const wait = Number(refused.response.headers['retry-after']);
      waits.push(String(wait));
      t.clock.advance(wait * 1000);
      expect((await signIn(account, 'wrong-password-3')).body.code).toBe(1001);
    }
    expect(waits).toEqual(['30', '60', '120', '240', '480', '900', '900']);
    const refused = await signIn(account, PASSWORD);
    expect(refused.body.message).toBe(
      'Too many wrong passwords for this account. Try again in 15 min.',
    );
    t.clock.advance(900_000);
    expect((await signIn(account, PASSWORD)).body.code).toBe(0);
  });

  it('40 wrong passwords sent at once from 40 addresses: exactly 5 are checked', async () => {
    const { account } = await registerUser(t.app);
    const userId = await userIdOf(account);
    const replies = await Promise.all(
      Array.from({ length: 40 }, () => signIn(account, 'wrong-password-4')),
    );
    const codes = replies.map((reply) => reply.body.code);
    expect(codes.filter((code) => code === 1001)).toHaveLength(FREE_ATTEMPTS);
    expect(codes.filter((code) => code === 1012)).toHaveLength(40 - FREE_ATTEMPTS);
    expect(await wrongPasswordsRecorded(userId)).toBe(FREE_ATTEMPTS);
  });

  it('an address with no account is throttled the same way, so the answer tells nobody whether it exists', async () => {
    const nobody = uniqueEmail('nobody');
    const codes = [];
    for (let i = 0; i < FREE_ATTEMPTS + 1; i++)
      codes.push((await signIn(nobody, 'wrong-password-5')).body.code);
    expect(codes).toEqual([1001, 1001, 1001, 1001, 1001, 1012]);
  });

  it('a day without attempts forgets the count; the prune removes such rows only', async () => {
    const { account } = await registerUser(t.app);
    for (let i = 0; i < 3; i++) await signIn(account, 'wrong-password-6');
    const fresh = uniqueEmail('fresh');
    t.clock.advance(24 * 3_600_000);
    await signIn(fresh, 'wrong-password-6');
    const subjects = async () =>
      (await t.database.db.select({ subject: signInThrottles.subject }).from(signInThrottles)).map(
        (r) => r.subject,
      );
    expect(await subjects()).toContain(`user:email:${account.toLowerCase()}`);
    expect(await pruneThrottles(t.database.db, t.clock.now())).toBeGreaterThanOrEqual(1);
    expect(await subjects()).not.toContain(`user:email:${account.toLowerCase()}`);
    expect(await subjects()).toContain(`user:email:${fresh.toLowerCase()}`);
    // Forgotten: five more go through before a wait.
    const codes = [];
    for (let i = 0; i < FREE_ATTEMPTS + 1; i++)
      codes.push((await signIn(account, 'wrong-password-6')).body.code);
    expect(codes).toEqual([1001, 1001, 1001, 1001, 1001, 1012]);
  });

  it("operators' sign-in has the same per-account throttle: a wrong password or code counts, both right clear it", async () => {
    const { createOperator } = await import('../src/modules/operator/service.ts');
    const { totp } = await import('../src/modules/security/totp.ts');
    const username = `op-throttle-${address}`;
    const { password, totpSecret } = await createOperator(t.database.db, t.clock.now(), {
      username,
      role: 'reviewer',
    });
    const operatorSignIn = (secret: string, code: string) =>
      call<{ token?: string }>(t.app, 'POST', '/api/admin/v1/auth/login', {
        body: { username, password: secret, code },
        ip: nextIp(),
      });
    const codes = [];
    for (let i = 0; i < 3; i++)
      codes.push((await operatorSignIn('wrong-password-7', '000000')).body.code);
    for (let i = 0; i < 2; i++) codes.push((await operatorSignIn(password, '000000')).body.code);
    codes.push(
      (await operatorSignIn(password, totp(totpSecret, t.clock.now().getTime()))).body.code,
    );
    expect(codes).toEqual([1001, 1001, 1001, 422, 422, 1012]);
    t.clock.advance(30_000);
    const signedIn = await operatorSignIn(password, totp(totpSecret, t.clock.now().getTime()));
    expect(signedIn.body.code).toBe(0);
    expect(
      await t.database.db
        .select()
        .from(signInThrottles)
        .where(eq(signInThrottles.subject, `operator:${username}`)),
    ).toEqual([]);
  });
});
