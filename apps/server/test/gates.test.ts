import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@tradewind/contract/errors';
import { seedDemo } from '../src/modules/demo/seed.ts';
import { queryRows } from '../src/platform/db.ts';
import { loadConfig } from '../src/platform/config.ts';
import {
  type TestApp,
  TRADE_PIN,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  registerReadyUser,
  registerUser,
  setTradePassword,
  verifyUser,
} from './harness.ts';
import { demoMiner, uploadFor } from './objects.ts';
import { recordPrices } from './prices.ts';

/**
 * Spec §5's gates, as written: KYC before every financial action but deposits and one's own
 * spot ↔ futures transfers; a trading password set before the first order; a bank card only
 * in the verified name. And one answer for "insufficient balance", amounts as the pattern says.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await recordPrices(t, { BTCUSDT: '95000', ETHUSDT: '3500' });
});
afterAll(() => t.close());

type Balances = {
  spot: { asset: string; available: string; locked: string }[];
  futures: { available: string; locked: string };
};
async function balances(token: string): Promise<Balances> {
  return (await call<Balances>(t.app, 'GET', '/api/v1/wallet/balances', { token })).body.data;
}

async function rows(
  table: 'contract_orders' | 'conversion_quotes' | 'mining_rentals' | 'bank_cards',
  uid: string,
) {
  const [row] = await queryRows<{ n: string }>(
    t.database.db,
    sql`select count(*)::text as n from ${sql.identifier(table)} where user_id = ${Number(uid)}`,
  );
  return Number(row?.n);
}

const order = (token: string, body: Record<string, unknown> = {}) =>
  call(t.app, 'POST', '/api/v1/contracts/orders', {
    token,
    body: { symbol: 'BTCUSDT', direction: 'up', periodId: 1, amount: '10', ...body },
    headers: { 'idempotency-key': idempotencyKey() },
  });
const quote = (token: string, body: Record<string, unknown> = {}) =>
  call<{ id: string }>(t.app, 'POST', '/api/v1/convert/quote', {
    token,
    body: { from: 'USDT', to: 'BTC', amount: '10', ...body },
  });
const rent = async (token: string) =>
  call(t.app, 'POST', '/api/v1/mining/rentals', {
    token,
    body: { productId: await demoMiner(t), quantity: 1, amount: '100' },
    headers: { 'idempotency-key': idempotencyKey() },
  });
const transfer = (token: string, amount: string) =>
  call(t.app, 'POST', '/api/v1/wallet/transfer', {
    token,
    body: { from: 'spot', to: 'futures', asset: 'USDT', amount },
    headers: { 'idempotency-key': idempotencyKey() },
  });

/** A user holding 1,000 USDT in spot and in futures; verified and with a trading password as asked. */
async function holder(options: { verified: boolean; tradePassword: boolean }) {
  const user = await registerUser(t.app);
  const uid = Number(user.uid);
  if (options.verified) await verifyUser(t, uid);
  if (options.tradePassword) await setTradePassword(t, uid);
  await fund(t, uid, 1_000_000_000n, 'spot');
  await fund(t, uid, 1_000_000_000n, 'futures');
  return user;
}

describe('a trading password must be set before the first order (spec §5, §8)', () => {
  it('an order without a trading password set is refused with TRADE_PASSWORD_NOT_SET, and nothing is locked', async () => {
    const user = await holder({ verified: true, tradePassword: false });
    const before = await balances(user.token);
    const reply = await order(user.token);
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe(ERROR_CODES.TRADE_PASSWORD_NOT_SET);
    expect(reply.body.message).toBe('Trading password not set. Please set it first.');
    // Sending some password does not stand in for setting one.
    expect((await order(user.token, { tradePassword: TRADE_PIN })).body.code).toBe(
      ERROR_CODES.TRADE_PASSWORD_NOT_SET,
    );
    expect(await balances(user.token)).toEqual(before);
    expect(await rows('contract_orders', user.uid)).toBe(0);
  });

  it('once it is set, the order with it is placed', async () => {
    const user = await holder({ verified: true, tradePassword: true });
    expect((await order(user.token)).body.code).toBe(ERROR_CODES.TRADE_PASSWORD_REQUIRED);
    const placed = await order(user.token, { tradePassword: TRADE_PIN });
    expect(placed.body.code, JSON.stringify(placed.body)).toBe(0);
    expect((await balances(user.token)).futures.locked).not.toBe('0');
  });
});

describe('KYC must be completed before financial actions (spec §5)', () => {
  it('an unverified user cannot place a contract: KYC_REQUIRED, nothing locked', async () => {
    const user = await holder({ verified: false, tradePassword: true });
    const before = await balances(user.token);
    const reply = await order(user.token, { tradePassword: TRADE_PIN });
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe(ERROR_CODES.KYC_REQUIRED);
    expect(reply.body.message).toBe('Complete identity verification first.');
    expect(await balances(user.token)).toEqual(before);
    expect(await rows('contract_orders', user.uid)).toBe(0);
  });

  it('an unverified user cannot convert: the quote is refused, and so is executing an older one', async () => {
    const user = await holder({ verified: false, tradePassword: false });
    const before = await balances(user.token);
    const refused = await quote(user.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(ERROR_CODES.KYC_REQUIRED);
    expect(await rows('conversion_quotes', user.uid)).toBe(0);

    // A quote taken while verified, executed after the flag is gone (e.g. revoked): refused too.
    const other = await holder({ verified: true, tradePassword: false });
    const taken = await quote(other.token);
    expect(taken.body.code).toBe(0);
    await t.database.db.execute(
      sql`update users set verified = false where id = ${Number(other.uid)}`,
    );
    const otherBefore = await balances(other.token);
    const executed = await call(t.app, 'POST', '/api/v1/convert', {
      token: other.token,
      body: { quoteId: taken.body.data.id },
      headers: { 'idempotency-key': idempotencyKey() },
    });
    expect(executed.body.code).toBe(ERROR_CODES.KYC_REQUIRED);
    expect(await balances(other.token)).toEqual(otherBefore);
    expect(await balances(user.token)).toEqual(before);
  });

  it('an unverified user cannot rent a miner: KYC_REQUIRED, nothing paid', async () => {
    const user = await holder({ verified: false, tradePassword: false });
    const before = await balances(user.token);
    const reply = await rent(user.token);
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe(ERROR_CODES.KYC_REQUIRED);
    expect(await balances(user.token)).toEqual(before);
    expect(await rows('mining_rentals', user.uid)).toBe(0);
  });

  it('moving money between one’s own spot and futures accounts needs no KYC', async () => {
    const user = await holder({ verified: false, tradePassword: false });
    expect((await transfer(user.token, '25')).body.code).toBe(0);
    expect((await balances(user.token)).futures.available).toBe('1025');
  });

  it('a verified user does all three', async () => {
    const user = await registerReadyUser(t);
    await fund(t, Number(user.uid), 1_000_000_000n, 'spot');
    await fund(t, Number(user.uid), 1_000_000_000n, 'futures');
    expect((await order(user.token, { tradePassword: TRADE_PIN })).body.code).toBe(0);
    expect((await quote(user.token)).body.code).toBe(0);
    expect((await rent(user.token)).body.code).toBe(0);
  });

  it.each([
    ['en', 'Complete identity verification first.'],
    ['de', 'Schließen Sie zuerst die Identitätsprüfung ab.'],
    ['es', 'Primero completa la verificación de identidad.'],
    ['fr', 'Terminez d’abord la vérification d’identité.'],
    ['it', 'Completa prima la verifica dell’identità.'],
    ['zh-CN', '请先完成身份认证。'],
    ['zh-TW', '請先完成身分認證。'],
  ])('KYC_REQUIRED reads as the spec’s message in %s', async (lang, message) => {
    const user = await holder({ verified: false, tradePassword: false });
    const reply = await call(t.app, 'POST', '/api/v1/convert/quote', {
      token: user.token,
      lang,
      body: { from: 'USDT', to: 'BTC', amount: '10' },
    });
    expect(reply.body.message).toBe(message);
  });

  it('the demo account has passed KYC, in a name its bank card must carry', async () => {
    const deps = {
      db: t.database.db,
      clock: t.clock,
      ledger: t.app.services.ledger,
      fileStore: t.app.services.fileStore,
    };
    await seedDemo(deps);
    await seedDemo(deps);
    const login = await call<{ token: string }>(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account: 'demo@tradewind.app', password: 'demo-pass-2026' },
    });
    expect(login.body.code, JSON.stringify(login.body)).toBe(0);
    const token = login.body.data.token;
    const kyc = await call<{
      verified: boolean;
      state: string;
      submission: { firstName: string; lastName: string; frontFileId: string };
    }>(t.app, 'GET', '/api/v1/kyc', { token });
    expect(kyc.body.data).toMatchObject({
      verified: true,
      state: 'approved',
      submission: { firstName: 'Demo', lastName: 'Trader' },
    });
    // Its document photo is stored (the /RealName page shows it), and seeding twice made one submission.
    const photo = await t.app.inject({
      method: 'GET',
      url: `/api/v1/files/content?id=${kyc.body.data.submission.frontFileId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(photo.statusCode).toBe(200);
    const [count] = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from kyc_submissions k join users u on u.id = k.user_id where u.email = 'demo@tradewind.app'`,
    );
    expect(count?.n).toBe('1');
    const card = (holderName: string, accountNumber: string) =>
      call(t.app, 'POST', '/api/v1/bank-cards', {
        token,
        body: {
          bankName: 'Harbour Bank',
          accountNumber,
          branchName: 'Central',
          branchCode: 'HBK-001',
          holderName,
        },
      });
    expect((await card('Demo Trader', '6222020000000900')).body.code).toBe(0);
    expect((await card('Mei Lin', '6222020000000901')).status).toBe(422);
  });
});

describe('KYC_AUTO_APPROVE: a demo user’s identity is approved at once (demo mode only)', () => {
  it('is refused at boot outside demo mode', () => {
    expect(() => loadConfig({ DEMO_MODE: 'false', KYC_AUTO_APPROVE: 'true' })).toThrow(
      /KYC_AUTO_APPROVE/,
    );
    expect(loadConfig({ DEMO_MODE: 'true' }).kycAutoApprove).toBe(false);
  });

  it('with it, a submission is approved and the user may trade at once; without it, it waits', async () => {
    const auto = await createTestApp({ env: { KYC_AUTO_APPROVE: 'true' } });
    try {
      for (const [app, expected] of [
        [auto, { verified: true, state: 'approved' }],
        [t, { verified: false, state: 'pending' }],
      ] as const) {
        const user = await registerUser(app.app);
        const reply = await call<{ verified: boolean; state: string }>(
          app.app,
          'POST',
          '/api/v1/kyc',
          {
            token: user.token,
            body: {
              country: 'DE',
              lastName: 'Muster',
              firstName: 'Demo',
              documentType: 'passport',
              documentNumber: 'C01X00T47',
              frontFileId: await uploadFor(app, user, 'kyc'),
              faceFileId: await uploadFor(app, user, 'kyc'),
            },
          },
        );
        expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
        expect(reply.body.data).toMatchObject(expected);
      }
    } finally {
      await auto.close();
    }
  });
});

describe('a bank card must be in the verified name', () => {
  const card = (token: string, holderName: string, accountNumber: string) =>
    call<{ id: string }>(t.app, 'POST', '/api/v1/bank-cards', {
      token,
      body: {
        bankName: 'Harbour Bank',
        accountNumber,
        branchName: 'Central',
        branchCode: 'HBK-001',
        holderName,
      },
    });

  it('an unverified user cannot link one: KYC_REQUIRED', async () => {
    const user = await registerUser(t.app);
    expect((await card(user.token, 'Mei Lin', '6222020000000001')).body.code).toBe(
      ERROR_CODES.KYC_REQUIRED,
    );
    expect(await rows('bank_cards', user.uid)).toBe(0);
  });

  it('case, spacing and the order of given and family names do not matter', async () => {
    const user = await registerUser(t.app);
    await verifyUser(t, Number(user.uid), { firstName: 'Muster', lastName: 'Demo' });
    for (const [i, name] of ['Muster Demo', 'Demo Muster', 'DEMO   muster'].entries())
      expect((await card(user.token, name, `622202000000010${i}`)).body.code).toBe(0);
    expect(await rows('bank_cards', user.uid)).toBe(3);
  });

  it('CJK names match with or without a space, in either order', async () => {
    const user = await registerUser(t.app);
    await verifyUser(t, Number(user.uid), { firstName: '梅', lastName: '李' });
    for (const [i, name] of ['李梅', '李 梅', '梅李'].entries())
      expect((await card(user.token, name, `622202000000020${i}`)).body.code).toBe(0);
  });

  it.each(['Mei Lin', 'Demo Muster Jr', 'Demo', 'Demo-Muster', 'Demo Mustermann'])(
    'an account in another name (%s for Muster Demo) is refused with a clear message under the field',
    async (name) => {
      const user = await registerUser(t.app);
      await verifyUser(t, Number(user.uid), { firstName: 'Muster', lastName: 'Demo' });
      const reply = await card(user.token, name, '6222020000000300');
      expect(reply.status).toBe(422);
      // A field's refusal is the spec's 422 with the message under the field.
      expect(reply.body.code).toBe(ERROR_CODES.VALIDATION_FAILED);
      expect(reply.body.errors?.holderName?.[0]).toBe(
        'The account must be in your name: the holder must match your verified identity (Muster Demo).',
      );
      expect(await rows('bank_cards', user.uid)).toBe(0);
    },
  );

  it('the message is localized', async () => {
    const user = await registerUser(t.app);
    await verifyUser(t, Number(user.uid), { firstName: 'Muster', lastName: 'Demo' });
    const reply = await call(t.app, 'POST', '/api/v1/bank-cards', {
      token: user.token,
      lang: 'zh-CN',
      body: {
        bankName: 'Harbour Bank',
        accountNumber: '6222020000000400',
        branchName: 'Central',
        branchCode: 'HBK-001',
        holderName: 'Mei Lin',
      },
    });
    expect(reply.body.errors?.holderName?.[0]).toBe(
      '账户必须在您本人名下：户名须与您已认证的身份一致（Muster Demo）。',
    );
  });
});

describe('one answer for insufficient balance, amounts as the pattern says', () => {
  it('INSUFFICIENT_BALANCE is code 2001 with HTTP 409 on every route, and nothing moves', async () => {
    const user = await registerReadyUser(t);
    await fund(t, Number(user.uid), 5_000_000n, 'spot');
    await fund(t, Number(user.uid), 5_000_000n, 'futures');
    const before = await balances(user.token);
    const replies = {
      transfer: await transfer(user.token, '50'),
      quote: await quote(user.token, { amount: '50' }),
      order: await order(user.token, { tradePassword: TRADE_PIN, amount: '50' }),
      rent: await rent(user.token),
    };
    for (const [route, reply] of Object.entries(replies)) {
      expect([route, reply.body.code, reply.status]).toEqual([
        route,
        ERROR_CODES.INSUFFICIENT_BALANCE,
        409,
      ]);
      expect(reply.body.message).toBe('Insufficient balance.');
    }
    expect(await balances(user.token)).toEqual(before);
  });

  it.each([' 10', '10 ', '\t10', '1 0'])(
    'an amount with whitespace (%j) is refused as the published pattern forbids',
    async (amount) => {
      const user = await holder({ verified: false, tradePassword: false });
      const before = await balances(user.token);
      const reply = await transfer(user.token, amount);
      expect(reply.status).toBe(422);
      expect(reply.body.code).toBe(ERROR_CODES.VALIDATION_FAILED);
      expect(reply.body.errors?.amount).toBeDefined();
      expect(await balances(user.token)).toEqual(before);
    },
  );
});
