import { sql } from 'drizzle-orm';
import type { SecurityOverview } from '@tradewind/contract/security';
import { networkHint } from '@tradewind/contract/security';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hotp, totp } from '../src/modules/security/totp.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  PASSWORD,
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  lastCode,
  registerUser,
  verifyUser,
} from './harness.ts';

/** Security centre: devices, sign-in history, TOTP two-factor, anti-phishing code, 24 h withdrawal pause. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof registerUser>>;
const HOUR = 3_600_000;
const PIN = '480316';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

const overview = async (token: string) =>
  (await call<SecurityOverview>(t.app, 'GET', '/api/v1/security', { token })).body.data;
const profileCode = async (token: string) =>
  (await call(t.app, 'GET', '/api/v1/user/profile', { token })).body.code;
const login = (
  account: string,
  password = PASSWORD,
  options: { device?: string; ip?: string } = {},
) =>
  call<{ token?: string; challenge?: string; twoFactorRequired?: boolean }>(
    t.app,
    'POST',
    '/api/v1/auth/login',
    {
      body: { channel: 'email', account, password },
      headers: { 'user-agent': options.device ?? 'test-browser' },
      ip: options.ip,
    },
  );
const secondStep = (challenge: string, code: string, lang?: string) =>
  call<{ token: string }>(t.app, 'POST', '/api/v1/auth/login/2fa', {
    body: { challenge, code },
    lang,
    headers: { 'user-agent': 'test-browser' },
  });

/** Turns two-factor on for a user and returns the secret and the recovery codes. */
async function enrol(user: User) {
  const setup = await call<{ secret: string; uri: string }>(
    t.app,
    'POST',
    '/api/v1/security/2fa/setup',
    { token: user.token },
  );
  expect(setup.body.code).toBe(0);
  const { secret } = setup.body.data;
  const enabled = await call<{ recoveryCodes: string[] }>(
    t.app,
    'POST',
    '/api/v1/security/2fa/enable',
    { token: user.token, body: { code: totp(secret, t.clock.now().getTime()) } },
  );
  expect(enabled.body.code, JSON.stringify(enabled.body)).toBe(0);
  // The next code: the enrolment code's step is spent.
  t.clock.advance(30_000);
  return { secret, recoveryCodes: enabled.body.data.recoveryCodes };
}

const signInRows = async (uid: string) =>
  queryRows<{ result: string; method: string; device: string; ip: string }>(
    t.database.db,
    sql`select result, method, device, ip from sign_in_events where user_id = ${Number(uid)} order by id`,
  );

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC 6238 SHA-1 test vectors', () => {
    const key = Buffer.from('12345678901234567890');
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, expected] of vectors)
      expect(hotp(key, Math.floor(seconds / 30), 8)).toBe(expected);
  });
});

describe('network hint from the IP alone', () => {
  it('says loopback, local network or the public prefix, never a place', () => {
    expect(networkHint('127.0.0.1').kind).toBe('loopback');
    expect(networkHint('::1').kind).toBe('loopback');
    expect(networkHint('192.168.1.20')).toEqual({ kind: 'private', prefix: '192.168.1.0/24' });
    expect(networkHint('::ffff:10.1.2.3').kind).toBe('private');
    expect(networkHint('203.0.113.77')).toEqual({ kind: 'public', prefix: '203.0.113.0/24' });
    expect(networkHint('2001:db8:85a3::8a2e:370:7334')).toEqual({
      kind: 'public',
      prefix: '2001:db8:85a3::/48',
    });
    expect(networkHint('fd00::1').kind).toBe('private');
  });
});

describe('sessions and devices', () => {
  it('lists devices with last use and a network hint; revoking one ends only that session', async () => {
    const user = await registerUser(t.app);
    const phone = (await login(user.account, PASSWORD, { device: 'Phone', ip: '203.0.113.9' })).body
      .data.token as string;
    const laptop = (await login(user.account, PASSWORD, { device: 'Laptop', ip: '192.168.0.4' }))
      .body.data.token as string;
    const listed = await overview(user.token);
    expect(listed.sessions).toHaveLength(3);
    const phoneRow = listed.sessions.find((s) => s.device === 'Phone');
    expect(phoneRow?.network).toEqual({ kind: 'public', prefix: '203.0.113.0/24' });
    expect(listed.sessions.find((s) => s.device === 'Laptop')?.network.kind).toBe('private');
    expect(listed.sessions.filter((s) => s.current)).toHaveLength(1);

    expect(
      (
        await call(t.app, 'POST', '/api/v1/auth/sessions/revoke', {
          token: user.token,
          body: { id: phoneRow?.id },
        })
      ).body.code,
    ).toBe(0);
    expect(await profileCode(phone)).toBe(411);
    expect(await profileCode(laptop)).toBe(0);
    expect(await profileCode(user.token)).toBe(0);
    expect((await overview(user.token)).sessions.map((s) => s.device).sort()).not.toContain(
      'Phone',
    );
  });

  it('"sign out all other devices" keeps only the current one', async () => {
    const user = await registerUser(t.app);
    const others = [
      (await login(user.account, PASSWORD, { device: 'A' })).body.data.token as string,
      (await login(user.account, PASSWORD, { device: 'B' })).body.data.token as string,
    ];
    const reply = await call<{ revoked: number }>(
      t.app,
      'POST',
      '/api/v1/auth/sessions/revoke-others',
      { token: user.token },
    );
    expect(reply.body.data.revoked).toBe(2);
    for (const token of others) expect(await profileCode(token)).toBe(411);
    expect(await profileCode(user.token)).toBe(0);
    const sessions = (await overview(user.token)).sessions;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.current).toBe(true);
  });
});

describe('sign-in history', () => {
  it('records successful and failed sign-ins with device and IP; unknown addresses leave no row', async () => {
    const user = await registerUser(t.app);
    expect(
      (await login(user.account, 'wrong-password-1', { device: 'Evil', ip: '198.51.100.7' })).body
        .code,
    ).not.toBe(0);
    expect(
      (await login(user.account, PASSWORD, { device: 'Mine', ip: '203.0.113.5' })).body.code,
    ).toBe(0);
    expect(await signInRows(user.uid)).toEqual([
      { result: 'wrong_password', method: 'password', device: 'Evil', ip: '198.51.100.7' },
      { result: 'success', method: 'password', device: 'Mine', ip: '203.0.113.5' },
    ]);
    const history = (await overview(user.token)).signIns;
    expect(history.map((e) => [e.result, e.device, e.network.prefix])).toEqual([
      ['success', 'Mine', '203.0.113.0/24'],
      ['wrong_password', 'Evil', '198.51.100.0/24'],
    ]);
    const before = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from sign_in_events`,
    );
    expect((await login('nobody-here@example.com')).body.code).not.toBe(0);
    const after = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from sign_in_events`,
    );
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('is append-only', async () => {
    const failure = (query: Promise<unknown>) =>
      query.then(
        () => 'succeeded',
        (error: unknown) => String((error as { cause?: unknown }).cause ?? error),
      );
    expect(
      await failure(t.database.db.execute(sql`update sign_in_events set result = 'success'`)),
    ).toMatch(/append-only/);
    expect(await failure(t.database.db.execute(sql`delete from sign_in_events`))).toMatch(
      /append-only/,
    );
    expect(await failure(t.database.db.execute(sql`truncate sign_in_events`))).toMatch(
      /append-only/,
    );
  });

  it('shows only the user’s own sign-ins', async () => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    await login(alice.account, 'wrong-password-2', { device: 'alice-only' });
    expect((await overview(bob.token)).signIns.some((e) => e.device === 'alice-only')).toBe(false);
    expect((await overview(alice.token)).signIns.some((e) => e.device === 'alice-only')).toBe(true);
  });
});

describe('two-factor enrolment', () => {
  it('gives a secret and otpauth URI, refuses a wrong code, switches on with a right one and returns 10 single-use recovery codes', async () => {
    const user = await registerUser(t.app);
    const setup = await call<{ secret: string; uri: string }>(
      t.app,
      'POST',
      '/api/v1/security/2fa/setup',
      { token: user.token },
    );
    const { secret, uri } = setup.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toBe(
      `otpauth://totp/Tradewind%3A${encodeURIComponent(user.account.toLowerCase())}?secret=${secret}&issuer=Tradewind&algorithm=SHA1&digits=6&period=30`,
    );

    const right = totp(secret, t.clock.now().getTime());
    const wrong = right === '000000' ? '111111' : '000000';
    const refused = await call(t.app, 'POST', '/api/v1/security/2fa/enable', {
      token: user.token,
      body: { code: wrong },
      lang: 'de',
    });
    expect(refused.body.code).toBe(422);
    expect(refused.body.errors?.code?.[0]).toContain('Code stimmt nicht');
    expect((await overview(user.token)).twoFactorEnabled).toBe(false);

    const enabled = await call<{ recoveryCodes: string[] }>(
      t.app,
      'POST',
      '/api/v1/security/2fa/enable',
      { token: user.token, body: { code: right } },
    );
    expect(enabled.body.code).toBe(0);
    const codes = enabled.body.data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const stored = await queryRows<{ code_hash: string }>(
      t.database.db,
      sql`select code_hash from recovery_codes where user_id = ${Number(user.uid)}`,
    );
    expect(stored).toHaveLength(10);
    // Only hashes are kept.
    expect(stored.map((r) => r.code_hash)).not.toContain(codes[0]);
    const after = await overview(user.token);
    expect(after.twoFactorEnabled).toBe(true);
    expect(after.recoveryCodesLeft).toBe(10);
    expect(
      (await call(t.app, 'POST', '/api/v1/security/2fa/setup', { token: user.token })).body.code,
    ).toBe(3153);
  });

  it('enabling without a setup first is refused', async () => {
    const user = await registerUser(t.app);
    expect(
      (
        await call(t.app, 'POST', '/api/v1/security/2fa/enable', {
          token: user.token,
          body: { code: '123456' },
        })
      ).body.code,
    ).toBe(3155);
  });
});

describe('sign-in with two-factor on', () => {
  it('needs a second step: the password alone gives a challenge, not a session', async () => {
    const user = await registerUser(t.app);
    const { secret } = await enrol(user);
    const first = await login(user.account, PASSWORD, { device: 'Second-step' });
    expect(first.body.code).toBe(0);
    expect(first.body.data.twoFactorRequired).toBe(true);
    expect(first.body.data.token).toBeUndefined();
    const challenge = first.body.data.challenge as string;

    const now = t.clock.now().getTime();
    const wrong = totp(secret, now + 10 * 30_000);
    const refused = await secondStep(challenge, wrong);
    expect(refused.body.code).toBe(422);
    expect(refused.body.errors?.code).toBeDefined();

    const signedIn = await secondStep(challenge, totp(secret, now));
    expect(signedIn.body.code).toBe(0);
    expect(await profileCode(signedIn.body.data.token)).toBe(0);
    // The challenge is spent.
    t.clock.advance(30_000);
    expect((await secondStep(challenge, totp(secret, t.clock.now().getTime()))).body.code).toBe(
      3156,
    );

    expect((await signInRows(user.uid)).map((r) => [r.result, r.method, r.device])).toEqual([
      ['awaiting_code', 'password', 'Second-step'],
      ['wrong_code', 'totp', 'test-browser'],
      ['success', 'totp', 'test-browser'],
    ]);
  });

  it('refuses a code already used within its time step', async () => {
    const user = await registerUser(t.app);
    const { secret } = await enrol(user);
    const code = totp(secret, t.clock.now().getTime());
    const a = (await login(user.account)).body.data.challenge as string;
    expect((await secondStep(a, code)).body.code).toBe(0);
    const b = (await login(user.account)).body.data.challenge as string;
    const replay = await secondStep(b, code, 'en');
    expect(replay.body.code).toBe(422);
    expect(replay.body.errors?.code?.[0]).toContain('already used');
    t.clock.advance(30_000);
    expect((await secondStep(b, totp(secret, t.clock.now().getTime()))).body.code).toBe(0);
  });

  it('accepts each recovery code once', async () => {
    const user = await registerUser(t.app);
    const { recoveryCodes } = await enrol(user);
    const [code] = recoveryCodes;
    const a = (await login(user.account)).body.data.challenge as string;
    // Typed in capitals, with 0 and 1 for o and l, it is the same code.
    const ok = await secondStep(
      a,
      (code as string).toUpperCase().replace(/O/g, '0').replace(/L/g, '1'),
    );
    expect(ok.body.code).toBe(0);
    expect((await overview(ok.body.data.token)).recoveryCodesLeft).toBe(9);
    const b = (await login(user.account)).body.data.challenge as string;
    expect((await secondStep(b, code as string)).body.code).toBe(422);
    const rows = await signInRows(user.uid);
    expect(rows.filter((r) => r.method === 'recovery_code').map((r) => r.result)).toEqual([
      'success',
      'wrong_code',
    ]);
  });

  it('ends a challenge after five wrong codes', async () => {
    const user = await registerUser(t.app);
    const { secret } = await enrol(user);
    const challenge = (await login(user.account)).body.data.challenge as string;
    const wrong = totp(secret, t.clock.now().getTime() + 20 * 30_000);
    for (let i = 0; i < 5; i++) expect((await secondStep(challenge, wrong)).body.code).toBe(422);
    expect((await secondStep(challenge, totp(secret, t.clock.now().getTime()))).body.code).toBe(
      3156,
    );
  });

  it('turning two-factor off needs a code, and sign-in is one step again', async () => {
    const user = await registerUser(t.app);
    const { secret } = await enrol(user);
    expect(
      (
        await call(t.app, 'POST', '/api/v1/security/2fa/disable', {
          token: user.token,
          body: { code: '12345' },
        })
      ).body.code,
    ).toBe(422);
    expect(
      (
        await call(t.app, 'POST', '/api/v1/security/2fa/disable', {
          token: user.token,
          body: { code: totp(secret, t.clock.now().getTime()) },
        })
      ).body.code,
    ).toBe(0);
    const state = await overview(user.token);
    expect(state.twoFactorEnabled).toBe(false);
    expect(state.recoveryCodesLeft).toBe(0);
    expect(state.withdrawalLock?.reason).toBe('two_factor_disabled');
    expect((await login(user.account)).body.data.token).toBeDefined();
  });
});

async function readyForWithdrawal(): Promise<User> {
  const user = await registerUser(t.app);
  await verifyUser(t, Number(user.uid));
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
  await fund(t, Number(user.uid), 100_000_000n);
  return user;
}

const withdraw = (user: User, extra: Record<string, unknown> = {}, lang?: string) =>
  call<{ status: string }>(t.app, 'POST', '/api/v1/withdrawals', {
    token: user.token,
    lang,
    body: { asset: 'USDT', network: 'TRC20', address: TRON, amount: '20', password: PIN, ...extra },
    headers: { 'idempotency-key': idempotencyKey() },
  });

const usdtLocked = async (user: User) => {
  const balances = await call<{ spot: { asset: string; locked: string }[] }>(
    t.app,
    'GET',
    '/api/v1/wallet/balances',
    { token: user.token },
  );
  return balances.body.data.spot.find((s) => s.asset === 'USDT')?.locked;
};

describe('withdrawals with two-factor on', () => {
  it('are paused 24 h after enrolment, then need a fresh authenticator code, once', async () => {
    const user = await readyForWithdrawal();
    const { secret } = await enrol(user);

    const paused = await withdraw(user, { totpCode: totp(secret, t.clock.now().getTime()) }, 'en');
    expect(paused.body.code).toBe(3157);
    expect(paused.body.message).toMatch(
      /paused until .*2026.* because two-factor authentication was turned on/,
    );
    expect(await usdtLocked(user)).toBe('0');

    t.clock.advance(24 * HOUR);
    const missing = await withdraw(user);
    expect(missing.body.code).toBe(422);
    expect(missing.body.errors?.totpCode).toBeDefined();
    const options = await call<{ twoFactorEnabled: boolean; withdrawalLock: unknown }>(
      t.app,
      'GET',
      '/api/v1/withdrawals/options',
      { token: user.token },
    );
    expect(options.body.data).toMatchObject({ twoFactorEnabled: true, withdrawalLock: null });

    const code = totp(secret, t.clock.now().getTime());
    const wrong = totp(secret, t.clock.now().getTime() + 40 * 30_000);
    expect((await withdraw(user, { totpCode: wrong })).body.errors?.totpCode).toBeDefined();
    expect(await usdtLocked(user)).toBe('0');

    const done = await withdraw(user, { totpCode: code });
    expect(done.body.code, JSON.stringify(done.body)).toBe(0);
    expect(done.body.data.status).toBe('under_review');
    expect(await usdtLocked(user)).not.toBe('0');
    const lockedAfterOne = await usdtLocked(user);

    const replay = await withdraw(user, { totpCode: code });
    expect(replay.body.code).toBe(422);
    expect(replay.body.errors?.totpCode?.[0]).toContain('already used');
    expect(await usdtLocked(user)).toBe(lockedAfterOne);
  });

  it('card withdrawals need the code too', async () => {
    const user = await readyForWithdrawal();
    await enrol(user);
    t.clock.advance(24 * HOUR);
    const card = await call<{ id: string }>(t.app, 'POST', '/api/v1/bank-cards', {
      token: user.token,
      body: {
        bankName: 'Bank of Tradewind',
        accountNumber: '6222 0212 3456 7890',
        branchName: 'Harbour Road',
        branchCode: 'TWB-001',
        holderName: 'Mei Lin',
      },
    });
    const reply = await call(t.app, 'POST', '/api/v1/withdrawals/card', {
      token: user.token,
      body: { cardId: card.body.data.id, amount: '20', password: PIN },
      headers: { 'idempotency-key': idempotencyKey() },
    });
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.totpCode).toBeDefined();
  });
});

describe('24 h withdrawal pause after a password change', () => {
  it('changing the password pauses withdrawals for exactly 24 h, with the time and the reason', async () => {
    const user = await readyForWithdrawal();
    const changed = await call(t.app, 'POST', '/api/v1/auth/password/change', {
      token: user.token,
      body: {
        oldPassword: PASSWORD,
        password: 'new-password-77',
        confirmPassword: 'new-password-77',
      },
    });
    expect(changed.body.code).toBe(0);
    const de = await withdraw(user, {}, 'de');
    expect(de.body.code).toBe(3157);
    expect(de.body.message).toContain('weil Ihr Passwort geändert wurde');
    const state = await overview(user.token);
    expect(state.withdrawalLock).toEqual({
      until: new Date(t.clock.now().getTime() + 24 * HOUR).toISOString(),
      reason: 'password_changed',
    });

    t.clock.advance(24 * HOUR - 1000);
    expect((await withdraw(user)).body.code).toBe(3157);
    t.clock.advance(1000);
    const allowed = await withdraw(user);
    expect(allowed.body.code, JSON.stringify(allowed.body)).toBe(0);
    expect((await overview(user.token)).withdrawalLock).toBeNull();
  });

  it('resetting a forgotten password pauses withdrawals too', async () => {
    const user = await readyForWithdrawal();
    t.clock.advance(HOUR);
    await call(t.app, 'POST', '/api/v1/auth/codes', {
      body: { channel: 'email', account: user.account, purpose: 'reset_password' },
    });
    const code = await lastCode(t.app, user.account.toLowerCase());
    const reset = await call(t.app, 'POST', '/api/v1/auth/password/reset', {
      body: {
        channel: 'email',
        account: user.account,
        code,
        password: 'reset-password-8',
        confirmPassword: 'reset-password-8',
      },
    });
    expect(reset.body.code).toBe(0);
    const token = (await login(user.account, 'reset-password-8')).body.data.token as string;
    expect((await overview(token)).withdrawalLock?.reason).toBe('password_reset');
    expect((await withdraw({ ...user, token })).body.code).toBe(3157);
  });
});

describe('anti-phishing code', () => {
  it('appears in every email we send to the user, in their language, and only theirs', async () => {
    const user = await registerUser(t.app);
    const other = await registerUser(t.app);
    expect(
      (
        await call(t.app, 'POST', '/api/v1/security/anti-phishing', {
          token: user.token,
          body: { code: 'ab' },
        })
      ).body.code,
    ).toBe(422);
    expect(
      (
        await call(t.app, 'POST', '/api/v1/security/anti-phishing', {
          token: user.token,
          body: { code: 'Blue42Fox' },
        })
      ).body.code,
    ).toBe(0);
    expect((await overview(user.token)).antiPhishingCode).toBe('Blue42Fox');

    t.clock.advance(2 * 60_000);
    for (const u of [user, other]) {
      await call(t.app, 'POST', '/api/v1/auth/codes', {
        body: { channel: 'email', account: u.account, purpose: 'reset_password' },
        lang: 'de',
      });
    }
    const outbox = async (to: string) =>
      (
        await call<{ items: { body: string }[] }>(
          t.app,
          'GET',
          `/api/v1/dev/outbox?to=${encodeURIComponent(to.toLowerCase())}`,
        )
      ).body.data.items[0]?.body ?? '';
    const mine = await outbox(user.account);
    expect(mine).toContain('Ihr Anti-Phishing-Code: Blue42Fox');
    // The verification code still comes first.
    expect(mine.match(/\b(\d{6})\b/)?.[1]).toBe(await lastCode(t.app, user.account.toLowerCase()));
    expect(await outbox(other.account)).not.toContain('Blue42Fox');

    expect(
      (
        await call(t.app, 'POST', '/api/v1/security/anti-phishing', {
          token: user.token,
          body: { code: '' },
        })
      ).body.code,
    ).toBe(0);
    expect((await overview(user.token)).antiPhishingCode).toBeNull();
  });
});
