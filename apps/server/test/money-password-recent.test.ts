import { errorName } from '@tradewind/contract/errors';
import type * as Argon2 from '@node-rs/argon2';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../src/modules/auth/passwords.ts';
import {
  VERIFIED_PASSWORD_TTL_MS,
  verifyMoneyPassword,
} from '../src/modules/money-password/service.ts';
import { queryRows } from '../src/platform/db.ts';
import { AppError } from '../src/platform/errors.ts';
import {
  TRADE_PIN,
  type TestApp,
  createTestApp,
  registerUser,
  setTradePassword,
} from './harness.ts';

/** Counts argon2 verifications: the point of remembering a right password is to skip them. */
const argon = vi.hoisted(() => ({ verifications: 0 }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof Argon2>();
  return {
    ...real,
    verify: (...args: Parameters<typeof real.verify>) => {
      argon.verifications += 1;
      return real.verify(...args);
    },
  };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const trader = async () => {
  const user = await registerUser(t.app);
  await setTradePassword(t, Number(user.uid));
  return Number(user.uid);
};
const check = (userId: number, password: string) =>
  verifyMoneyPassword(
    { db: t.database.db, clock: t.clock },
    userId,
    'trade',
    password,
    'tradePassword',
  );
const refusal = (userId: number, password: string) =>
  check(userId, password).then(
    () => null,
    (error: unknown) => (error instanceof AppError ? errorName(error.code) : String(error)),
  );
const failedAttempts = async (userId: number) =>
  (
    await queryRows<{ n: number }>(
      t.database.db,
      sql`select failed_attempts as n from money_passwords where user_id = ${userId} and kind = 'trade'`,
    )
  )[0]?.n;

describe('a trading password sent with every order is hashed once, not once per order', () => {
  it('the same right password again within the window costs no argon2', async () => {
    const userId = await trader();
    const before = argon.verifications;
    for (let i = 0; i < 20; i++) await check(userId, TRADE_PIN);
    expect(argon.verifications - before).toBe(1);
  });

  it('a wrong password is always hashed and counted, and the right one is then checked in full', async () => {
    const userId = await trader();
    await check(userId, TRADE_PIN);
    const before = argon.verifications;
    expect(await refusal(userId, '000000')).toBe('MONEY_PASSWORD_INCORRECT');
    expect(await refusal(userId, '000000')).toBe('MONEY_PASSWORD_INCORRECT');
    expect(argon.verifications - before).toBe(2);
    expect(await failedAttempts(userId)).toBe(2);
    await check(userId, TRADE_PIN);
    expect(argon.verifications - before).toBe(3);
    expect(await failedAttempts(userId)).toBe(0);
  });

  it('a lock is kept though the right password was remembered', async () => {
    const userId = await trader();
    await check(userId, TRADE_PIN);
    for (let i = 0; i < 5; i++) expect(await refusal(userId, '111111')).not.toBeNull();
    expect(await refusal(userId, TRADE_PIN)).toBe('MONEY_PASSWORD_LOCKED');
  });

  it('a changed password makes the remembered one worthless', async () => {
    const userId = await trader();
    await check(userId, TRADE_PIN);
    await t.database.db.execute(
      sql`update money_passwords set password_hash = ${await hashPassword('735902')} where user_id = ${userId} and kind = 'trade'`,
    );
    expect(await refusal(userId, TRADE_PIN)).toBe('MONEY_PASSWORD_INCORRECT');
    await check(userId, '735902');
  });

  it('after the window the password is hashed again', async () => {
    const userId = await trader();
    await check(userId, TRADE_PIN);
    const before = argon.verifications;
    t.clock.advance(VERIFIED_PASSWORD_TTL_MS + 1);
    await check(userId, TRADE_PIN);
    expect(argon.verifications - before).toBe(1);
  });

  it("one user's remembered password does not open another's", async () => {
    const [a, b] = [await trader(), await trader()];
    await check(a, TRADE_PIN);
    await t.database.db.execute(
      sql`update money_passwords set password_hash = ${await hashPassword('246810')} where user_id = ${b} and kind = 'trade'`,
    );
    expect(await refusal(b, TRADE_PIN)).toBe('MONEY_PASSWORD_INCORRECT');
  });
});
