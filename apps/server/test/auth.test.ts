import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT, seedDemo } from '../src/modules/demo/seed.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  CODE_MAX_ATTEMPTS,
  CODE_MAX_PER_TARGET_PER_HOUR,
  CODE_TTL_MS,
} from '../src/modules/auth/codes.ts';
import {
  PASSWORD,
  type TestApp,
  call,
  createTestApp,
  lastCode,
  registerUser,
  uniqueEmail,
  uniquePhone,
} from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sendCode = (account: string, purpose = 'register', channel = 'email') =>
  call(t.app, 'POST', '/api/v1/auth/codes', { body: { channel, account, purpose } });

const profile = (token: string) =>
  call<{
    uid: string;
    email: string | null;
    phone: string | null;
    emailVerified: boolean;
    inviteCode: string;
  }>(t.app, 'GET', '/api/v1/user/profile', { token });

describe('register by verification code', () => {
  it('registers by email with a code from the outbox and signs in', async () => {
    const email = uniqueEmail();
    const { token, uid } = await registerUser(t.app, email);
    const me = await profile(token);
    expect(me.body.code).toBe(0);
    expect(me.body.data.uid).toBe(uid);
    expect(me.body.data.email).toBe(email);
    expect(me.body.data.emailVerified).toBe(true);
    expect(me.body.data.inviteCode).toMatch(/^[A-Z2-9]{8}$/);
    expect(Number(uid)).toBeGreaterThanOrEqual(10_000_001);
  });

  it('registers by phone in E.164 form', async () => {
    const phone = uniquePhone();
    const { token } = await registerUser(t.app, phone, 'phone');
    expect((await profile(token)).body.data.phone).toBe(phone);
  });

  it('normalises the email so the same address cannot register twice', async () => {
    const email = uniqueEmail();
    await registerUser(t.app, email);
    const again = await sendCode(email.toUpperCase());
    expect(again.body.code).toBe(1002);
    expect(again.body.message).toMatch(/already exists/);
  });

  it('refuses a wrong code and spends an attempt', async () => {
    const email = uniqueEmail();
    await sendCode(email);
    const reply = await call(t.app, 'POST', '/api/v1/auth/register', {
      body: {
        mode: 'code',
        channel: 'email',
        account: email,
        code: '000000',
        password: PASSWORD,
        confirmPassword: PASSWORD,
      },
    });
    const real = await lastCode(t.app, email);
    expect(real).not.toBe('000000');
    expect(reply.body.code).toBe(1003);
  });

  it('a code expires after 10 minutes', async () => {
    const email = uniqueEmail();
    await sendCode(email);
    const code = await lastCode(t.app, email);
    t.clock.advance(CODE_TTL_MS);
    const reply = await call(t.app, 'POST', '/api/v1/auth/register', {
      body: {
        mode: 'code',
        channel: 'email',
        account: email,
        code,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      },
    });
    expect(reply.body.code).toBe(1004);
  });

  it('after 5 wrong attempts even the right code is refused', async () => {
    const email = uniqueEmail();
    await sendCode(email);
    const code = await lastCode(t.app, email);
    const wrong = code === '111111' ? '222222' : '111111';
    const codes: number[] = [];
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) {
      const reply = await call(t.app, 'POST', '/api/v1/auth/register', {
        body: {
          mode: 'code',
          channel: 'email',
          account: email,
          code: wrong,
          password: PASSWORD,
          confirmPassword: PASSWORD,
        },
      });
      codes.push(reply.body.code);
    }
    expect(codes).toEqual([1003, 1003, 1003, 1003, 1005]);
    const right = await call(t.app, 'POST', '/api/v1/auth/register', {
      body: {
        mode: 'code',
        channel: 'email',
        account: email,
        code,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      },
    });
    expect(right.body.code).toBe(1005);
  });

  it('a code can be resent only after 60 s, and a new code replaces the old one', async () => {
    const email = uniqueEmail();
    expect((await sendCode(email)).body.code).toBe(0);
    const first = await lastCode(t.app, email);
    const tooSoon = await sendCode(email);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.code).toBe(1006);
    expect(tooSoon.body.message).toContain('60');
    t.clock.advance(60_000);
    expect((await sendCode(email)).body.code).toBe(0);
    const second = await lastCode(t.app, email);
    if (first !== second) {
      const old = await call(t.app, 'POST', '/api/v1/auth/register', {
        body: {
          mode: 'code',
          channel: 'email',
          account: email,
          code: first,
          password: PASSWORD,
          confirmPassword: PASSWORD,
        },
      });
      expect(old.body.code).toBe(1003);
    }
    const fresh = await call(t.app, 'POST', '/api/v1/auth/register', {
      body: {
        mode: 'code',
        channel: 'email',
        account: email,
        code: second,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      },
    });
    expect(fresh.body.code).toBe(0);
  });

  it('no address gets more than 10 codes an hour', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < CODE_MAX_PER_TARGET_PER_HOUR; i++) {
      expect((await sendCode(email)).body.code).toBe(0);
      t.clock.advance(61_000);
    }
    expect((await sendCode(email)).body.code).toBe(429);
  });

  it('passwords entered twice must match', async () => {
    const reply = await call(t.app, 'POST', '/api/v1/auth/register', {
      body: {
        mode: 'code',
        channel: 'email',
        account: uniqueEmail(),
        code: '123456',
        password: PASSWORD,
        confirmPassword: `${PASSWORD}x`,
      },
    });
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.confirmPassword).toEqual(['Passwords do not match.']);
  });

  it('a password needs at least 8 characters and the email a valid format', async () => {
    const reply = await call(t.app, 'POST', '/api/v1/auth/register', {
      body: {
        mode: 'code',
        channel: 'email',
        account: 'not-an-email',
        code: '123456',
        password: 'short',
        confirmPassword: 'short',
      },
    });
    expect(reply.body.errors?.password).toEqual(['The password needs at least 8 characters.']);
    expect(reply.body.errors?.account).toEqual(['Invalid email format.']);
  });

  it('a phone number must be valid', async () => {
    const reply = await sendCode('+1555', 'register', 'phone');
    expect(reply.body.errors?.account).toEqual(['Please enter a valid phone number.']);
  });
});

describe('register by invitation code', () => {
  it('links the inviter and proves the address with the code sent to it', async () => {
    const inviter = await registerUser(t.app);
    const inviteCode = (await profile(inviter.token)).body.data.inviteCode;
    const email = uniqueEmail();
    expect((await sendCode(email)).body.code).toBe(0);
    const reply = await call<{ token: string }>(t.app, 'POST', '/api/v1/auth/register', {
      body: {
        mode: 'invite',
        channel: 'email',
        account: email,
        code: await lastCode(t.app, email),
        inviteCode: inviteCode.toLowerCase(),
        password: PASSWORD,
        confirmPassword: PASSWORD,
      },
    });
    expect(reply.body.code).toBe(0);
    const me = await profile(reply.body.data.token);
    expect(me.body.data.email).toBe(email);
    expect(me.body.data.emailVerified).toBe(true);
    const rows = await queryRows<{ inviter_id: string }>(
      t.database.db,
      sql`select inviter_id::text from users where email = ${email}`,
    );
    expect(rows[0]?.inviter_id).toBe(inviter.uid);
  });

  it('an unknown invitation code is refused and creates no account', async () => {
    const email = uniqueEmail();
    const reply = await call(t.app, 'POST', '/api/v1/auth/register', {
      body: {
        mode: 'invite',
        channel: 'email',
        account: email,
        code: '123456',
        inviteCode: 'ZZZZZZZZ',
        password: PASSWORD,
        confirmPassword: PASSWORD,
      },
    });
    expect(reply.body.code).toBe(1007);
    const login = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account: email, password: PASSWORD },
    });
    expect(login.body.code).toBe(1001);
  });

  it('invite mode needs the invitation code and the verification code', async () => {
    const reply = await call(t.app, 'POST', '/api/v1/auth/register', {
      body: {
        mode: 'invite',
        channel: 'email',
        account: uniqueEmail(),
        password: PASSWORD,
        confirmPassword: PASSWORD,
      },
    });
    expect(reply.body.errors?.inviteCode).toEqual(['This field is required.']);
    expect(reply.body.errors?.code).toEqual(['This field is required.']);
  });
});

describe('sign in and sessions', () => {
  it('signs in with email and password; a wrong password and an unknown address get the same answer', async () => {
    const { account } = await registerUser(t.app);
    const ok = await call<{ token: string }>(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account, password: PASSWORD },
    });
    expect(ok.body.code).toBe(0);
    expect(ok.body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const wrong = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account, password: 'wrong-password' },
    });
    const unknown = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account: uniqueEmail(), password: PASSWORD },
    });
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe(1001);
  });

  it('signs in with phone and password', async () => {
    const { account } = await registerUser(t.app, uniquePhone(), 'phone');
    const ok = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'phone', account, password: PASSWORD },
    });
    expect(ok.body.code).toBe(0);
  });

  it('stores only a hash of the token', async () => {
    const { token } = await registerUser(t.app);
    const rows = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from sessions where token_hash = ${token}`,
    );
    expect(rows[0]?.n).toBe('0');
  });

  it('a session expires after 30 days (411)', async () => {
    const { token } = await registerUser(t.app);
    t.clock.advance(30 * 86_400_000 - 1000);
    expect((await profile(token)).body.code).toBe(0);
    t.clock.advance(2000);
    const expired = await profile(token);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe(411);
  });

  it('sign out revokes the session (411 afterwards)', async () => {
    const { token } = await registerUser(t.app);
    expect((await call(t.app, 'POST', '/api/v1/auth/logout', { token })).body.code).toBe(0);
    expect((await profile(token)).body.code).toBe(411);
  });

  it('lists devices and revokes one; another user cannot revoke it', async () => {
    const alice = await registerUser(t.app);
    const second = await call<{ token: string }>(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account: alice.account, password: PASSWORD },
      headers: { 'user-agent': 'PhoneBrowser/1.0' },
    });
    const list = await call<{ items: { id: string; device: string; current: boolean }[] }>(
      t.app,
      'GET',
      '/api/v1/auth/sessions',
      { token: alice.token },
    );
    expect(list.body.data.items).toHaveLength(2);
    expect(list.body.data.items.filter((s) => s.current)).toHaveLength(1);
    const other = list.body.data.items.find((s) => !s.current);
    expect(other?.device).toBe('PhoneBrowser/1.0');

    const mallory = await registerUser(t.app);
    const stolen = await call(t.app, 'POST', '/api/v1/auth/sessions/revoke', {
      token: mallory.token,
      body: { id: other?.id },
    });
    expect(stolen.body.code).toBe(1010);
    expect((await profile(second.body.data.token)).body.code).toBe(0);

    const revoked = await call(t.app, 'POST', '/api/v1/auth/sessions/revoke', {
      token: alice.token,
      body: { id: other?.id },
    });
    expect(revoked.body.code).toBe(0);
    expect((await profile(second.body.data.token)).body.code).toBe(411);
    expect((await profile(alice.token)).body.code).toBe(0);
  });
});

describe('forgot and change password', () => {
  it('resets with a code, signs out every device, and the new password works', async () => {
    const { account, token } = await registerUser(t.app);
    t.clock.advance(61_000);
    expect((await sendCode(account, 'reset_password')).body.code).toBe(0);
    const code = await lastCode(t.app, account);
    const reset = await call(t.app, 'POST', '/api/v1/auth/password/reset', {
      body: {
        channel: 'email',
        account,
        code,
        password: 'new-password-1',
        confirmPassword: 'new-password-1',
      },
    });
    expect(reset.body.code).toBe(0);
    expect((await profile(token)).body.code).toBe(411);
    const oldLogin = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account, password: PASSWORD },
    });
    expect(oldLogin.body.code).toBe(1001);
    const newLogin = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account, password: 'new-password-1' },
    });
    expect(newLogin.body.code).toBe(0);
  });

  it('a reset for an unknown address answers the same and sends nothing', async () => {
    const email = uniqueEmail();
    const reply = await sendCode(email, 'reset_password');
    expect(reply.body.code).toBe(0);
    const outbox = await call<{ items: unknown[] }>(t.app, 'GET', `/api/v1/dev/outbox?to=${email}`);
    expect(outbox.body.data.items).toHaveLength(0);
  });

  it('change needs the old password and signs out the other devices only', async () => {
    const { account, token } = await registerUser(t.app);
    const other = await call<{ token: string }>(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account, password: PASSWORD },
    });
    const wrong = await call(t.app, 'POST', '/api/v1/auth/password/change', {
      token,
      body: {
        oldPassword: 'nope-nope-1',
        password: 'another-pass-2',
        confirmPassword: 'another-pass-2',
      },
    });
    expect(wrong.body.code).toBe(1009);
    expect((await profile(other.body.data.token)).body.code).toBe(0);
    const changed = await call(t.app, 'POST', '/api/v1/auth/password/change', {
      token,
      body: {
        oldPassword: PASSWORD,
        password: 'another-pass-2',
        confirmPassword: 'another-pass-2',
      },
    });
    expect(changed.body.code).toBe(0);
    expect((await profile(token)).body.code).toBe(0);
    expect((await profile(other.body.data.token)).body.code).toBe(411);
  });
});

describe('passwords and the demo account', () => {
  it('stores passwords as argon2id hashes', async () => {
    const { account } = await registerUser(t.app);
    const rows = await queryRows<{ password_hash: string }>(
      t.database.db,
      sql`select password_hash from users where email = ${account}`,
    );
    expect(rows[0]?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('demo mode seeds the documented demo account once', async () => {
    const deps = { db: t.database.db, clock: t.clock, ledger: t.app.services.ledger };
    await seedDemo(deps);
    await seedDemo(deps);
    const rows = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from users where email = ${DEMO_ACCOUNT.email}`,
    );
    expect(rows[0]?.n).toBe('1');
    const login = await call<{ token: string }>(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password },
    });
    expect(login.body.code).toBe(0);
    // Funded once, through the ledger.
    const balances = await call<{
      spot: { asset: string; available: string }[];
      futures: { available: string };
    }>(t.app, 'GET', '/api/v1/wallet/balances', { token: login.body.data.token });
    expect(balances.body.data.spot.find((b) => b.asset === 'USDT')?.available).toBe('10000');
    expect(balances.body.data.spot.find((b) => b.asset === 'BTC')?.available).toBe('0.25');
    expect(balances.body.data.futures.available).toBe('2000');
  });
});
