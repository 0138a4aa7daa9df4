import {
  cardWithdrawalRequestSchema,
  cryptoWithdrawalRequestSchema,
} from '@tradewind/contract/withdrawal';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totp } from '../src/modules/security/totp.ts';
import {
  type WithdrawalRequest,
  precheckWithdrawal,
  requestWithdrawal,
} from '../src/modules/withdrawal/request.ts';
import { type Tx, queryRows } from '../src/platform/db.ts';
import { AppError } from '../src/platform/errors.ts';
import {
  PASSWORD,
  type TestApp,
  call,
  createTestApp,
  fund,
  registerUser,
  verifyUser,
} from './harness.ts';

/**
 * The withdrawal request's rules hold in its service functions, whoever calls them: these
 * tests skip the route and call `precheckWithdrawal` / `requestWithdrawal` as another caller
 * would, and check that a refusal leaves balances and withdrawal rows as they were.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof registerUser>>;
const HOUR = 3_600_000;
const PIN = '480316';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** A verified user with a withdrawal password and 100 USDT in spot. */
async function readyUser(): Promise<User> {
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

/** Turns two-factor on through the API and returns the secret; withdrawals are then paused 24 h. */
async function enrol(user: User): Promise<string> {
  const setup = await call<{ secret: string }>(t.app, 'POST', '/api/v1/security/2fa/setup', {
    token: user.token,
  });
  const { secret } = setup.body.data;
  const enabled = await call(t.app, 'POST', '/api/v1/security/2fa/enable', {
    token: user.token,
    body: { code: totp(secret, t.clock.now().getTime()) },
  });
  expect(enabled.body.code, JSON.stringify(enabled.body)).toBe(0);
  return secret;
}

async function addCard(user: User): Promise<string> {
  const reply = await call<{ id: string }>(t.app, 'POST', '/api/v1/bank-cards', {
    token: user.token,
    body: {
      bankName: 'Bank of Tradewind',
      accountNumber: '6222 0212 3456 7890',
      branchName: 'Harbour Road',
      branchCode: 'TWB-001',
      holderName: 'Mei Lin',
    },
  });
  expect(reply.body.code).toBe(0);
  return reply.body.data.id;
}

/** Parsed by the route's own schemas, as the route would hand them over. */
const cryptoRequest = (extra: Record<string, unknown> = {}): WithdrawalRequest => ({
  kind: 'crypto',
  input: cryptoWithdrawalRequestSchema.parse({
    asset: 'USDT',
    network: 'TRC20',
    address: TRON,
    amount: '20',
    password: PIN,
    ...extra,
  }),
});
const cardRequest = (cardId: string, extra: Record<string, unknown> = {}): WithdrawalRequest => ({
  kind: 'card',
  input: cardWithdrawalRequestSchema.parse({ cardId, amount: '20', password: PIN, ...extra }),
});

const who = (user: User) => ({ userId: Number(user.uid), lang: 'en' as const });
const deps = () => ({ db: t.database.db, clock: t.clock, ledger: t.app.services.ledger });
const precheck = (user: User, request: WithdrawalRequest) =>
  precheckWithdrawal(deps(), who(user), request);
const request = (user: User, input: WithdrawalRequest) =>
  t.database.db.transaction((tx) =>
    requestWithdrawal(deps(), tx as unknown as Tx, who(user), input),
  );

/** What a refusal must leave untouched: the user's USDT buckets and withdrawal rows. */
async function state(user: User) {
  const balances = await queryRows<{ available: string; locked: string }>(
    t.database.db,
    sql`select available::text, locked::text from ledger_accounts where name = ${`user:${user.uid}:spot:USDT`}`,
  );
  const rows = await queryRows<{ id: string }>(
    t.database.db,
    sql`select id::text from withdrawals where user_id = ${Number(user.uid)}`,
  );
  return { balances, withdrawals: rows.length };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).errorName;
}

describe('a withdrawal requested through the service, not the route', () => {
  it('goes through with the precheck, the password and the transaction: the row and amount + fee locked', async () => {
    const user = await readyUser();
    const input = cryptoRequest();
    await precheck(user, input);
    const withdrawal = await request(user, input);
    expect(withdrawal).toMatchObject({
      kind: 'crypto',
      status: 'under_review',
      amount: '20',
      fee: '1',
      total: '21',
      address: TRON,
    });
    expect(await state(user)).toEqual({
      balances: [{ available: '79000000', locked: '21000000' }],
      withdrawals: 1,
    });
  });

  it('without its precheck (the password never verified) is refused and nothing changes', async () => {
    const user = await readyUser();
    const before = await state(user);
    await expect(request(user, cryptoRequest())).rejects.toThrow(/without precheckWithdrawal/);
    // A wrong password, had it been checked, would have been refused the same way: nothing was checked, nothing moved.
    await expect(request(user, cryptoRequest({ password: '000000' }))).rejects.toThrow(
      /without precheckWithdrawal/,
    );
    expect(await state(user)).toEqual(before);
  });

  it('on an account locked after a security change, is refused in the transaction too, and nothing changes', async () => {
    const user = await readyUser();
    const input = cryptoRequest();
    await precheck(user, input);
    // The login password changes between the precheck and the transaction: withdrawals pause 24 h.
    const changed = await call(t.app, 'POST', '/api/v1/auth/password/change', {
      token: user.token,
      body: {
        oldPassword: PASSWORD,
        password: 'new-password-77',
        confirmPassword: 'new-password-77',
      },
    });
    expect(changed.body.code).toBe(0);
    const before = await state(user);
    expect(await refusal(request(user, input))).toBe('WITHDRAWALS_LOCKED');
    expect(await state(user)).toEqual(before);
    // The precheck refuses it as well, before any password is tried.
    expect(await refusal(precheck(user, cryptoRequest({ password: '000000' })))).toBe(
      'WITHDRAWALS_LOCKED',
    );
    const attempts = await queryRows<{ failed: number }>(
      t.database.db,
      sql`select failed_attempts as failed from money_passwords where user_id = ${Number(user.uid)} and kind = 'withdraw'`,
    );
    expect(attempts).toEqual([{ failed: 0 }]);
  });

  it('with two-factor on and a wrong code (crypto or card: one flow), is refused in the transaction, and nothing changes', async () => {
    const user = await readyUser();
    const cardId = await addCard(user);
    const secret = await enrol(user);
    t.clock.advance(24 * HOUR);
    const wrong = totp(secret, t.clock.now().getTime() + 40 * 30_000);
    const before = await state(user);
    const [lastStep] = await queryRows<{ step: string | null }>(
      t.database.db,
      sql`select totp_last_step::text as step from user_security where user_id = ${Number(user.uid)}`,
    );
    for (const input of [
      cryptoRequest({ totpCode: wrong }),
      cardRequest(cardId, { totpCode: wrong }),
    ]) {
      // The precheck only asks that a code be there; the code itself is spent in the transaction.
      await precheck(user, input);
      expect(await refusal(request(user, input))).toBe('TWO_FACTOR_CODE_INVALID');
    }
    expect(await state(user)).toEqual(before);
    expect(
      await queryRows(
        t.database.db,
        sql`select totp_last_step::text as step from user_security where user_id = ${Number(user.uid)}`,
      ),
    ).toEqual([lastStep]);
    // The right code goes through the same functions.
    const right = cardRequest(cardId, { totpCode: totp(secret, t.clock.now().getTime()) });
    await precheck(user, right);
    expect(await request(user, right)).toMatchObject({
      kind: 'card',
      status: 'under_review',
      total: '21',
    });
  });

  it('with two-factor on and no code, is refused before the password and in the transaction, and nothing changes', async () => {
    const user = await readyUser();
    // Prechecked while two-factor is still off, so the precheck lets a request without a code through.
    const input = cryptoRequest();
    await precheck(user, input);
    await enrol(user);
    t.clock.advance(24 * HOUR);
    const before = await state(user);
    expect(await refusal(request(user, input))).toBe('TWO_FACTOR_REQUIRED');
    expect(await refusal(precheck(user, cryptoRequest()))).toBe('TWO_FACTOR_REQUIRED');
    expect(await state(user)).toEqual(before);
  });
});
