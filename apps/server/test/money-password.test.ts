import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  requireMoneyPassword,
  verifyMoneyPassword,
} from '../src/modules/money-password/service.ts';
import { queryRows } from '../src/platform/db.ts';
import { AppError } from '../src/platform/errors.ts';
import { translate } from '../src/platform/i18n.ts';
import {
  PASSWORD,
  type TestApp,
  call,
  createTestApp,
  lastCode,
  registerUser,
  uniquePhone,
} from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Status {
  withdraw: { set: boolean; lockedUntil: string | null };
  trade: { set: boolean; lockedUntil: string | null };
  contacts: { channel: string; masked: string }[];
}

const status = async (token: string) =>
  (await call<Status>(t.app, 'GET', '/api/v1/money-passwords', { token })).body.data;

const setByLogin = (
  token: string,
  kind: string,
  password: string,
  loginPassword = PASSWORD,
  confirmPassword = password,
  lang?: string,
) =>
  call<Status>(t.app, 'POST', '/api/v1/money-passwords', {
    token,
    lang,
    body: { kind, proof: 'login_password', loginPassword, password, confirmPassword },
  });

const sendCode = (token: string, kind: string, channel = 'email') =>
  call<{ sentTo: string }>(t.app, 'POST', '/api/v1/money-passwords/codes', {
    token,
    body: { kind, channel },
  });

const setByCode = (
  token: string,
  kind: string,
  code: string,
  password: string,
  channel = 'email',
) =>
  call<Status>(t.app, 'POST', '/api/v1/money-passwords', {
    token,
    body: { kind, proof: 'code', channel, code, password, confirmPassword: password },
  });

const storedHash = async (uid: string, kind: string) =>
  (
    await queryRows<{ password_hash: string | null }>(
      t.database.db,
      sql`select password_hash from money_passwords where user_id = ${Number(uid)} and kind = ${kind}`,
    )
  )[0]?.password_hash ?? null;

describe('money passwords: status', () => {
  it('a new user has neither password and can receive codes at their own email, masked', async () => {
    const user = await registerUser(t.app);
    const s = await status(user.token);
    expect(s.withdraw).toEqual({ set: false, lockedUntil: null });
    expect(s.trade).toEqual({ set: false, lockedUntil: null });
    expect(s.contacts).toEqual([
      { channel: 'email', masked: `${user.account.slice(0, 2)}***@example.com` },
    ]);
  });
});

describe('setting with the login password', () => {
  it('sets the withdrawal password only; the trading password stays unset; only an argon2id hash is stored', async () => {
    const user = await registerUser(t.app);
    const reply = await setByLogin(user.token, 'withdraw', '480316');
    expect(reply.body.code).toBe(0);
    expect(reply.body.data.withdraw.set).toBe(true);
    expect(reply.body.data.trade.set).toBe(false);
    const hash = await storedHash(user.uid, 'withdraw');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(hash).not.toContain('480316');
    expect(await storedHash(user.uid, 'trade')).toBeNull();
  });

  it('the two passwords are separate secrets: each has its own hash', async () => {
    const user = await registerUser(t.app);
    await setByLogin(user.token, 'withdraw', '480316');
    await setByLogin(user.token, 'trade', '907153');
    const s = await status(user.token);
    expect([s.withdraw.set, s.trade.set]).toEqual([true, true]);
    expect(await storedHash(user.uid, 'withdraw')).not.toBe(await storedHash(user.uid, 'trade'));
  });

  it('a wrong login password changes nothing and says how many attempts are left', async () => {
    const user = await registerUser(t.app);
    const reply = await setByLogin(user.token, 'withdraw', '480316', 'not-my-password');
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.loginPassword).toEqual([
      'Incorrect login password. Attempts left: 4.',
    ]);
    expect((await status(user.token)).withdraw.set).toBe(false);
  });

  it('changing needs the proof again; the new password replaces the old one', async () => {
    const user = await registerUser(t.app);
    await setByLogin(user.token, 'withdraw', '480316');
    const before = await storedHash(user.uid, 'withdraw');
    expect((await setByLogin(user.token, 'withdraw', '551902')).body.code).toBe(0);
    expect(await storedHash(user.uid, 'withdraw')).not.toBe(before);
  });

  it.each([
    [{ password: '12345', confirmPassword: '12345' }, 'password', 'The password is 6 digits.'],
    [{ password: '12a456', confirmPassword: '12a456' }, 'password', 'The password is 6 digits.'],
    [{ password: '1234567', confirmPassword: '1234567' }, 'password', 'The password is 6 digits.'],
    [
      { password: '123456', confirmPassword: '123456' },
      'password',
      'Too easy to guess: avoid repeated digits and runs such as 123456.',
    ],
    [
      { password: '777777', confirmPassword: '777777' },
      'password',
      'Too easy to guess: avoid repeated digits and runs such as 123456.',
    ],
    [
      { password: '876543', confirmPassword: '876543' },
      'password',
      'Too easy to guess: avoid repeated digits and runs such as 123456.',
    ],
    [
      { password: '480316', confirmPassword: '480317' },
      'confirmPassword',
      'Passwords do not match.',
    ],
    [
      { password: '480316', confirmPassword: '480316', loginPassword: undefined },
      'loginPassword',
      'This field is required.',
    ],
  ])(
    'the rule (6 digits, not trivial, entered twice) refuses %j and sets nothing',
    async (fields, field, message) => {
      const user = await registerUser(t.app);
      const reply = await call(t.app, 'POST', '/api/v1/money-passwords', {
        token: user.token,
        body: { kind: 'withdraw', proof: 'login_password', loginPassword: PASSWORD, ...fields },
      });
      expect(reply.body.code).toBe(422);
      expect(reply.body.errors?.[field]).toEqual([message]);
      expect((await status(user.token)).withdraw.set).toBe(false);
    },
  );

  it('messages come in the request language', async () => {
    const user = await registerUser(t.app);
    const reply = await setByLogin(
      user.token,
      'withdraw',
      '480316',
      'wrong-password',
      '480316',
      'zh_CN',
    );
    expect(reply.body.errors?.loginPassword).toEqual(['登录密码错误，剩余尝试次数：4。']);
  });
});

describe('setting with a verification code', () => {
  it('sends the code to the account’s own address and sets the password with it', async () => {
    const user = await registerUser(t.app);
    const sent = await sendCode(user.token, 'trade');
    expect(sent.body.code).toBe(0);
    expect(sent.body.data.sentTo).toBe(`${user.account.slice(0, 2)}***@example.com`);
    const code = await lastCode(t.app, user.account);
    const reply = await setByCode(user.token, 'trade', code, '907153');
    expect(reply.body.code).toBe(0);
    expect(reply.body.data.trade.set).toBe(true);
    // A code is used once.
    expect((await setByCode(user.token, 'trade', code, '551902')).body.errors?.code).toEqual([
      'The verification code is incorrect.',
    ]);
  });

  it('a code sent for one password cannot set the other', async () => {
    const user = await registerUser(t.app);
    await sendCode(user.token, 'trade');
    const code = await lastCode(t.app, user.account);
    const reply = await setByCode(user.token, 'withdraw', code, '480316');
    expect(reply.body.errors?.code).toEqual(['The verification code is incorrect.']);
    expect((await status(user.token)).withdraw.set).toBe(false);
  });

  it('a wrong code is refused and sets nothing', async () => {
    const user = await registerUser(t.app);
    await sendCode(user.token, 'withdraw');
    const real = await lastCode(t.app, user.account);
    const reply = await setByCode(
      user.token,
      'withdraw',
      real === '000000' ? '111111' : '000000',
      '480316',
    );
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.code).toEqual(['The verification code is incorrect.']);
    expect((await status(user.token)).withdraw.set).toBe(false);
  });

  it('a channel the account has no address on is refused', async () => {
    const user = await registerUser(t.app);
    const reply = await sendCode(user.token, 'withdraw', 'phone');
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.channel).toEqual([
      'Your account has no address for this method. Choose another one.',
    ]);
  });

  it('a phone account gets its code by SMS', async () => {
    const phone = uniquePhone();
    const user = await registerUser(t.app, phone, 'phone');
    expect((await sendCode(user.token, 'withdraw', 'phone')).body.data.sentTo).toBe(
      `***${phone.slice(-4)}`,
    );
    const code = await lastCode(t.app, phone);
    expect((await setByCode(user.token, 'withdraw', code, '480316', 'phone')).body.code).toBe(0);
  });

  it('the sign-in code route does not hand out money-password codes', async () => {
    const user = await registerUser(t.app);
    const reply = await call(t.app, 'POST', '/api/v1/auth/codes', {
      body: { channel: 'email', account: user.account, purpose: 'withdraw_password' },
    });
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.purpose).toBeDefined();
  });
});

describe('wrong login passwords are limited', () => {
  it('5 wrong → locked 15 minutes by the clock (even the right one is refused); a code still works and lifts the lock', async () => {
    const user = await registerUser(t.app);
    for (let i = 1; i <= 4; i++) {
      expect(
        (await setByLogin(user.token, 'withdraw', '480316', 'wrong-password')).body.errors
          ?.loginPassword,
      ).toEqual([`Incorrect login password. Attempts left: ${5 - i}.`]);
    }
    const fifth = await setByLogin(user.token, 'withdraw', '480316', 'wrong-password');
    expect(fifth.status).toBe(429);
    expect(fifth.body.code).toBe(2304);
    expect(fifth.body.message).toBe('Too many wrong attempts. Try again in 15 min.');
    expect((await status(user.token)).withdraw.lockedUntil).toBe(
      new Date(t.clock.now().getTime() + 15 * 60_000).toISOString(),
    );
    const right = await setByLogin(user.token, 'withdraw', '480316');
    expect(right.body.code).toBe(2304);
    expect((await status(user.token)).withdraw.set).toBe(false);

    // The trading password has its own counter.
    expect((await setByLogin(user.token, 'trade', '907153')).body.code).toBe(0);

    await sendCode(user.token, 'withdraw');
    expect(
      (await setByCode(user.token, 'withdraw', await lastCode(t.app, user.account), '480316')).body
        .code,
    ).toBe(0);
    expect((await status(user.token)).withdraw).toEqual({ set: true, lockedUntil: null });
  });

  it('the lock ends after 15 minutes', async () => {
    const user = await registerUser(t.app);
    for (let i = 0; i < 5; i++) await setByLogin(user.token, 'trade', '907153', 'wrong-password');
    t.clock.advance(14 * 60_000);
    expect((await setByLogin(user.token, 'trade', '907153')).body.message).toBe(
      'Too many wrong attempts. Try again in 1 min.',
    );
    t.clock.advance(60_000);
    expect((await setByLogin(user.token, 'trade', '907153')).body.code).toBe(0);
  });
});

describe('what other modules call (trading will ask for the trading password)', () => {
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
    return {
      name: error.errorName,
      status: error.httpStatus,
      field: error.field,
      en: translate('en', `errors.${error.errorName}`, error.params),
    };
  };

  it('a missing trading password is a clear business error (spec §8)', async () => {
    const user = await registerUser(t.app);
    expect(
      await refusal(requireMoneyPassword(t.database.db, Number(user.uid), 'trade')),
    ).toMatchObject({
      name: 'TRADE_PASSWORD_NOT_SET',
      status: 403,
      en: 'Trading password not set. Please set it first.',
    });
    expect(
      await refusal(
        verifyMoneyPassword(
          { db: t.database.db, clock: t.clock },
          Number(user.uid),
          'trade',
          '907153',
        ),
      ),
    ).toMatchObject({ name: 'TRADE_PASSWORD_NOT_SET' });
  });

  it('verifies the trading password with its own counter and lock', async () => {
    const user = await registerUser(t.app);
    await setByLogin(user.token, 'trade', '907153');
    const deps = { db: t.database.db, clock: t.clock };
    await expect(
      verifyMoneyPassword(deps, Number(user.uid), 'trade', '907153'),
    ).resolves.toBeUndefined();
    expect(
      await refusal(verifyMoneyPassword(deps, Number(user.uid), 'trade', '480316')),
    ).toMatchObject({
      name: 'MONEY_PASSWORD_INCORRECT',
      field: 'password',
      en: 'Incorrect password. Attempts left before a 15-minute lock: 4.',
    });
    for (let i = 0; i < 3; i++)
      await verifyMoneyPassword(deps, Number(user.uid), 'trade', '480316').catch(() => undefined);
    expect(
      await refusal(verifyMoneyPassword(deps, Number(user.uid), 'trade', '480316')),
    ).toMatchObject({ name: 'MONEY_PASSWORD_LOCKED', status: 429 });
    expect(
      await refusal(verifyMoneyPassword(deps, Number(user.uid), 'trade', '907153')),
    ).toMatchObject({ name: 'MONEY_PASSWORD_LOCKED' });
    // The withdrawal password is not set and not affected.
    expect((await status(user.token)).withdraw).toEqual({ set: false, lockedUntil: null });
  });
});
