import type { CardDepositConfig } from '@tradewind/contract/card-deposit';
import type {
  AdminAsset,
  AdminInstrument,
  AdminLoanProduct,
  AdminPayeeAccount,
  AdminPeriod,
} from '@tradewind/contract/catalog';
import type { ContractConfig } from '@tradewind/contract/instant';
import type { LoanProduct } from '@tradewind/contract/loans';
import type { Instrument } from '@tradewind/contract/market';
import type { MiningProduct } from '@tradewind/contract/mining';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/platform/db.ts';
import {
  futures,
  orderRow,
  placeOrder,
  placed,
  recordAt,
  settlement,
  trader,
} from './contracts.ts';
import { type TestApp, call, createTestApp, operatorToken, registerUser } from './harness.ts';
import { recordPrices } from './prices.ts';

/** The operator console's catalog (issue 7): every save audited, bad input refused whole, reviewers refused, the client follows. */

let t: TestApp;
let catalog: string;
let reviewer: string;
beforeAll(async () => {
  t = await createTestApp();
  catalog = (await operatorToken(t, 'catalog')).token;
  reviewer = (await operatorToken(t, 'reviewer')).token;
});
afterAll(() => t.close());

const admin = <T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  token = catalog,
  lang?: string,
) =>
  call<T>(t.app, method, `/api/admin/v1/${path}`, {
    token,
    ...(body === undefined ? {} : { body }),
    ...(lang ? { lang } : {}),
  });

async function auditOf(targetType: string, targetId: string) {
  return queryRows<{ action: string; before: string | null; after: string | null }>(
    t.database.db,
    sql`select action, before, after from audit_log where target_type = ${targetType} and target_id = ${targetId} order by id`,
  );
}
const auditCount = async () =>
  Number(
    (
      await queryRows<{ n: string }>(t.database.db, sql`select count(*)::text as n from audit_log`)
    )[0]?.n,
  );

describe('instruments', () => {
  const list = async () =>
    (await admin<{ items: AdminInstrument[] }>('GET', 'market/instruments')).body.data.items;
  const btc = async () => (await list()).find((i) => i.symbol === 'BTCUSDT') as AdminInstrument;
  const base = {
    symbol: 'BTCUSDT',
    displayName: null,
    tradable: true,
    recommended: true,
    popular: true,
    sort: 0,
  };

  it("lists every instrument with today's marks and order, and no price", async () => {
    const items = await list();
    expect(items).toHaveLength(17);
    expect(items[0]).toEqual({
      symbol: 'BTCUSDT',
      kind: 'crypto',
      base: 'BTC',
      quote: 'USDT',
      priceScale: 2,
      defaultName: expect.any(String),
      displayName: null,
      tradable: true,
      recommended: true,
      popular: true,
      sort: 0,
    });
    expect(items.filter((i) => i.popular).map((i) => i.symbol)).toEqual([
      'BTCUSDT',
      'ETHUSDT',
      'SOLUSDT',
      'XRPUSDT',
      'DOGEUSDT',
    ]);
    expect(JSON.stringify(items)).not.toMatch(/price"/i);
  });

  it('a save is audited with before and after, and the client follows: a closed instrument refuses orders, marks and name show', async () => {
    const user = await trader(t);
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const saved = await admin<AdminInstrument>('POST', 'market/instruments', {
      ...base,
      tradable: false,
      popular: false,
      displayName: 'Bitcoin (test)',
    });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(0);
    expect(saved.body.data).toMatchObject({
      tradable: false,
      popular: false,
      displayName: 'Bitcoin (test)',
    });
    const [entry] = await auditOf('instrument', 'BTCUSDT');
    expect(entry?.action).toBe('instrument.update');
    expect(JSON.parse(entry?.before ?? '{}')).toMatchObject({
      tradable: true,
      popular: true,
      displayName: null,
    });
    expect(JSON.parse(entry?.after ?? '{}')).toMatchObject({
      tradable: false,
      popular: false,
      displayName: 'Bitcoin (test)',
    });

    const client = (
      await call<{ items: Instrument[] }>(t.app, 'GET', '/api/v1/market/instruments', {
        lang: 'de',
      })
    ).body.data.items;
    expect(client.find((i) => i.symbol === 'BTCUSDT')).toMatchObject({
      tradable: false,
      popular: false,
      recommended: true,
      name: 'Bitcoin (test)',
    });
    const refused = await placeOrder(t, user.token, { symbol: 'BTCUSDT' });
    expect(refused.body.code).toBe(2601);
    expect(await futures(t, user.token)).toEqual({ available: '1000', locked: '0' });

    expect((await admin('POST', 'market/instruments', base)).body.code).toBe(0);
    await recordPrices(t, { BTCUSDT: '95000.00' });
    await placed(t, user.token, { symbol: 'BTCUSDT' });
    expect(
      (await call<{ items: Instrument[] }>(t.app, 'GET', '/api/v1/market/instruments')).body.data
        .items[0],
    ).toMatchObject({ symbol: 'BTCUSDT', tradable: true, popular: true });
  });

  it("the sort order is the client's order", async () => {
    expect(
      (
        await admin('POST', 'market/instruments', {
          ...base,
          symbol: 'XAGUSD',
          recommended: false,
          popular: false,
          sort: 0,
        })
      ).body.code,
    ).toBe(0);
    expect((await admin('POST', 'market/instruments', { ...base, sort: 1 })).body.code).toBe(0);
    const client = (await call<{ items: Instrument[] }>(t.app, 'GET', '/api/v1/market/instruments'))
      .body.data.items;
    expect(client.slice(0, 2).map((i) => i.symbol)).toEqual(['XAGUSD', 'BTCUSDT']);
    await admin('POST', 'market/instruments', {
      ...base,
      symbol: 'XAGUSD',
      recommended: false,
      popular: false,
      sort: 16,
    });
    await admin('POST', 'market/instruments', base);
  });

  it('refuses a price field, an unknown instrument, HTML and a bad sort, localized, changing nothing', async () => {
    const before = await btc();
    const audits = await auditCount();
    const bad = [
      { ...base, price: '1' },
      { ...base, symbol: 'NOPEUSDT' },
      { ...base, displayName: '<b>x</b>' },
      { ...base, sort: -1 },
      { ...base, tradable: 'yes' },
    ];
    for (const body of bad) {
      const reply = await admin('POST', 'market/instruments', body, catalog, 'zh-CN');
      expect(reply.body.code, JSON.stringify(body)).toBe(422);
      expect(Object.keys(reply.body.errors ?? {})).toHaveLength(1);
    }
    expect(
      (await admin('POST', 'market/instruments', { ...base, sort: -1 }, catalog, 'en')).body.errors,
    ).toEqual({ sort: ['Must be at least 0.'] });
    expect(await btc()).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });

  it('a reviewer gets 403 and changes nothing; no token gets 401', async () => {
    const before = await btc();
    expect(
      (await admin('POST', 'market/instruments', { ...base, tradable: false }, reviewer)).status,
    ).toBe(403);
    expect((await admin('GET', 'market/instruments', undefined, reviewer)).status).toBe(403);
    expect(
      (await call(t.app, 'POST', '/api/admin/v1/market/instruments', { body: base })).body.code,
    ).toBe(401);
    expect(await btc()).toEqual(before);
  });
});

describe('contract periods', () => {
  const list = async () =>
    (await admin<{ items: AdminPeriod[] }>('GET', 'contracts/periods')).body.data.items;
  const sixty = async () => (await list()).find((p) => p.seconds === 60) as AdminPeriod;
  const clientPeriods = async (token: string) =>
    (await call<ContractConfig>(t.app, 'GET', '/api/v1/contracts/config', { token })).body.data
      .periods;

  it('lists the periods in parts per million with stakes in USDT', async () => {
    expect(await sixty()).toEqual({
      id: '2',
      seconds: 60,
      payoutRatePpm: 850_000,
      feeRatePpm: 2_000,
      minStake: '10',
      maxStake: '10000',
      enabled: true,
      sort: 2,
    });
  });

  it('a changed payout rate applies to new orders; an open order settles with the terms it was placed with', async () => {
    const user = await trader(t, '1000');
    const start = Math.floor(t.clock.now().getTime() / 1000) * 1000 + 1000;
    await recordAt(t, start, { BTCUSDT: '95000.00' });
    const order = await placed(t, user.token, { periodId: 2, amount: '100', direction: 'up' });
    expect(order).toMatchObject({ payoutRate: '0.85' });

    const period = await sixty();
    const saved = await admin<AdminPeriod>('POST', 'contracts/periods', {
      ...period,
      payoutRatePpm: 900_000,
      feeRatePpm: 5_000,
    });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(0);
    const [entry] = await auditOf('contract_period', period.id);
    expect(entry).toMatchObject({ action: 'contract_period.update' });
    expect(JSON.parse(entry?.before ?? '{}')).toMatchObject({
      payoutRatePpm: 850_000,
      feeRatePpm: 2_000,
    });
    expect(JSON.parse(entry?.after ?? '{}')).toMatchObject({
      payoutRatePpm: 900_000,
      feeRatePpm: 5_000,
    });
    expect((await clientPeriods(user.token)).find((p) => p.seconds === 60)).toMatchObject({
      payoutRate: '0.9',
      feeRate: '0.005',
    });

    // Settles up at 0.85 (stake 100 → payout 185), not at the new 0.9.
    await recordAt(t, start + 60_000, { BTCUSDT: '95100.00' });
    await settlement(t).settleDue();
    expect(await orderRow(t, order.id)).toMatchObject({
      state: 'settled',
      outcome: 'win',
      payout_minor: '185000000',
      fee_minor: '200000',
    });
    const [terms] = await queryRows<{ payout_rate_ppm: number; fee_rate_ppm: number }>(
      t.database.db,
      sql`select payout_rate_ppm, fee_rate_ppm from contract_orders where id = ${Number(order.id)}`,
    );
    expect(terms).toEqual({ payout_rate_ppm: 850_000, fee_rate_ppm: 2_000 });

    await recordPrices(t, { BTCUSDT: '95100.00' });
    expect(await placed(t, user.token, { periodId: 2, amount: '100' })).toMatchObject({
      payoutRate: '0.9',
      feeRate: '0.005',
    });
    expect((await admin('POST', 'contracts/periods', period)).body.code).toBe(0);
  });

  it('a disabled period is not offered and refuses orders; a new period is offered', async () => {
    const user = await trader(t);
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const period = await sixty();
    expect(
      (await admin('POST', 'contracts/periods', { ...period, enabled: false })).body.code,
    ).toBe(0);
    expect((await clientPeriods(user.token)).map((p) => p.seconds)).not.toContain(60);
    expect((await placeOrder(t, user.token, { periodId: Number(period.id) })).body.code).toBe(2602);
    expect((await admin('POST', 'contracts/periods', period)).body.code).toBe(0);

    const { id: _id, ...fresh } = { ...period, seconds: 600, sort: 9 };
    const created = await admin<AdminPeriod>('POST', 'contracts/periods', fresh);
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    expect((await auditOf('contract_period', created.body.data.id))[0]).toMatchObject({
      action: 'contract_period.create',
      before: null,
    });
    expect((await clientPeriods(user.token)).map((p) => p.seconds)).toContain(600);
    expect(
      (await admin('POST', 'contracts/periods', { ...created.body.data, enabled: false })).body
        .code,
    ).toBe(0);
  });

  it('refuses min above max, rates out of bounds, too many decimals and an unknown id, changing nothing', async () => {
    const before = await list();
    const audits = await auditCount();
    const period = await sixty();
    const reply = await admin(
      'POST',
      'contracts/periods',
      { ...period, minStake: '500', maxStake: '100' },
      catalog,
      'en',
    );
    expect(reply.body).toMatchObject({
      code: 422,
      errors: { minStake: ['The minimum must not be above the maximum.'] },
    });
    expect(
      (
        await admin(
          'POST',
          'contracts/periods',
          { ...period, minStake: '500', maxStake: '100' },
          catalog,
          'zh-CN',
        )
      ).body.errors,
    ).toEqual({ minStake: ['最小值不能大于最大值。'] });
    for (const body of [
      { ...period, payoutRatePpm: 0 },
      { ...period, payoutRatePpm: 10_000_001 },
      { ...period, feeRatePpm: -1 },
      { ...period, feeRatePpm: 1_000_000 },
      { ...period, seconds: 86_401 },
      { ...period, minStake: '0' },
      { ...period, payoutRatePpm: 0.5 },
    ]) {
      expect((await admin('POST', 'contracts/periods', body)).body.code, JSON.stringify(body)).toBe(
        422,
      );
    }
    expect(
      (await admin('POST', 'contracts/periods', { ...period, minStake: '10.0000001' })).body,
    ).toMatchObject({ code: 422, errors: { minStake: [expect.any(String)] } });
    expect(
      (await admin('POST', 'contracts/periods', { ...period, id: '999' }, catalog, 'en')).body,
    ).toMatchObject({ code: 3560, message: 'This contract period does not exist.' });
    expect(await list()).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });

  it('a reviewer gets 403', async () => {
    const period = await sixty();
    expect(
      (await admin('POST', 'contracts/periods', { ...period, payoutRatePpm: 100 }, reviewer))
        .status,
    ).toBe(403);
    expect(await sixty()).toEqual(period);
  });
});

describe('assets', () => {
  const list = async () =>
    (await admin<{ items: AdminAsset[] }>('GET', 'wallet/assets')).body.data.items;
  const usdt = async () => (await list()).find((a) => a.code === 'USDT') as AdminAsset;
  const {
    code: _c,
    name: _n,
    scale: _s,
    ...usdtDefaults
  } = {
    code: 'USDT',
    name: '',
    scale: 6,
    depositEnabled: true,
    withdrawEnabled: true,
    withdrawFee: '1',
    withdrawMin: '10',
    depositMin: '1',
    confirmations: 19,
  };
  const body = { code: 'USDT', ...usdtDefaults };

  it("lists today's settings, the deposit minimum included (seeded from DEPOSIT_MIN_USDT)", async () => {
    expect(await usdt()).toEqual({ code: 'USDT', name: 'Tether USD', scale: 6, ...usdtDefaults });
    expect((await list()).find((a) => a.code === 'BTC')).toMatchObject({
      withdrawFee: '0.0002',
      withdrawMin: '0.001',
      depositMin: '0',
      confirmations: 2,
      depositEnabled: false,
    });
  });

  it('a save is audited, and withdrawal options and the deposit address follow', async () => {
    const user = await registerUser(t.app);
    const saved = await admin<AdminAsset>('POST', 'wallet/assets', {
      ...body,
      withdrawFee: '2.5',
      withdrawMin: '20',
      depositMin: '5',
      confirmations: 25,
    });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(0);
    const [entry] = await auditOf('asset', 'USDT');
    expect(JSON.parse(entry?.before ?? '{}')).toMatchObject({
      withdrawFee: '1',
      depositMin: '1',
      confirmations: 19,
    });
    expect(JSON.parse(entry?.after ?? '{}')).toMatchObject({
      withdrawFee: '2.5',
      depositMin: '5',
      confirmations: 25,
    });
    const options = await call<{
      assets: { asset: string; fee: string; minAmount: string; enabled: boolean }[];
    }>(t.app, 'GET', '/api/v1/withdrawals/options', { token: user.token });
    expect(options.body.data.assets[0]).toMatchObject({
      asset: 'USDT',
      fee: '2.5',
      minAmount: '20',
      enabled: true,
    });
    const address = await call<{ minDeposit: string; confirmations: number }>(
      t.app,
      'GET',
      '/api/v1/deposit/address',
      { token: user.token },
    );
    expect(address.body.data).toMatchObject({ minDeposit: '5', confirmations: 25 });

    expect(
      (await admin('POST', 'wallet/assets', { ...body, withdrawEnabled: false })).body.code,
    ).toBe(0);
    const closed = await call<{ assets: { asset: string; enabled: boolean }[] }>(
      t.app,
      'GET',
      '/api/v1/withdrawals/options',
      { token: user.token },
    );
    expect(closed.body.data.assets[0]).toMatchObject({ asset: 'USDT', enabled: false });
    expect((await admin('POST', 'wallet/assets', body)).body.code).toBe(0);
  });

  it('refuses a negative fee, too many decimals, an unknown asset and a scale change, changing nothing', async () => {
    const before = await list();
    const audits = await auditCount();
    for (const bad of [
      { ...body, withdrawFee: '-1' },
      { ...body, withdrawFee: '0.0000001' },
      { ...body, code: 'FOO' },
      { ...body, scale: 2 },
      { ...body, confirmations: -1 },
      { ...body, confirmations: 1.5 },
    ]) {
      const reply = await admin('POST', 'wallet/assets', bad, catalog, 'de');
      expect(reply.body.code, JSON.stringify(bad)).toBe(422);
      expect(reply.body.errors, JSON.stringify(bad)).toBeDefined();
    }
    expect(await list()).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });

  it('a reviewer gets 403', async () => {
    expect(
      (await admin('POST', 'wallet/assets', { ...body, withdrawFee: '0' }, reviewer)).status,
    ).toBe(403);
    expect((await usdt()).withdrawFee).toBe('1');
  });
});

describe('card-deposit payee accounts', () => {
  const list = async () =>
    (await admin<{ items: AdminPayeeAccount[] }>('GET', 'card-deposits/payees')).body.data.items;
  const clientConfig = async (token: string) =>
    (await call<CardDepositConfig>(t.app, 'GET', '/api/v1/card-deposits/config', { token })).body
      .data;
  const account = {
    bankName: 'Harbour Bank',
    accountName: 'Tradewind Ltd',
    accountNumber: '6222 0000 1111 2222',
    phone: '+1 415 555 0100',
    enabled: true,
    sort: 0,
  };

  it('none yet: the demo payee applies; the first enabled account replaces it; none enabled: unavailable', async () => {
    const user = await registerUser(t.app);
    expect(await list()).toEqual([]);
    expect(await clientConfig(user.token)).toMatchObject({ available: true, demo: true });

    const created = await admin<AdminPayeeAccount>('POST', 'card-deposits/payees', account);
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    expect((await auditOf('payee_account', created.body.data.id))[0]).toMatchObject({
      action: 'payee_account.create',
      before: null,
    });
    expect(await clientConfig(user.token)).toMatchObject({
      available: true,
      demo: false,
      payee: {
        bank: 'Harbour Bank',
        cardNumber: '6222 0000 1111 2222',
        name: 'Tradewind Ltd',
        phone: '+1 415 555 0100',
      },
    });

    const second = await admin<AdminPayeeAccount>('POST', 'card-deposits/payees', {
      ...account,
      bankName: 'Second Bank',
      sort: 1,
    });
    expect(second.body.code).toBe(0);
    const edited = await admin<AdminPayeeAccount>('POST', 'card-deposits/payees', {
      ...account,
      id: created.body.data.id,
      enabled: false,
    });
    expect(edited.body.code).toBe(0);
    const [, update] = await auditOf('payee_account', created.body.data.id);
    expect(JSON.parse(update?.before ?? '{}')).toMatchObject({ enabled: true });
    expect(JSON.parse(update?.after ?? '{}')).toMatchObject({ enabled: false });
    expect((await clientConfig(user.token)).payee?.bank).toBe('Second Bank');

    expect(
      (
        await admin('POST', 'card-deposits/payees', {
          ...account,
          bankName: 'Second Bank',
          sort: 1,
          id: second.body.data.id,
          enabled: false,
        })
      ).body.code,
    ).toBe(0);
    expect(await clientConfig(user.token)).toMatchObject({ available: false, payee: null });
    expect(
      (await admin('POST', 'card-deposits/payees', { ...account, id: created.body.data.id })).body
        .code,
    ).toBe(0);
  });

  it('refuses a bad account number, HTML, a missing bank and an unknown id, changing nothing', async () => {
    const before = await list();
    const audits = await auditCount();
    expect(
      (
        await admin(
          'POST',
          'card-deposits/payees',
          { ...account, accountNumber: 'abc' },
          catalog,
          'en',
        )
      ).body,
    ).toMatchObject({
      code: 422,
      errors: { accountNumber: ['Enter the account number: digits, spaces or dashes.'] },
    });
    for (const bad of [
      { ...account, bankName: '<script>' },
      { ...account, bankName: '' },
      { ...account, enabled: undefined },
      { ...account, extra: 1 },
    ]) {
      expect(
        (await admin('POST', 'card-deposits/payees', bad)).body.code,
        JSON.stringify(bad),
      ).toBe(422);
    }
    expect(
      (await admin('POST', 'card-deposits/payees', { ...account, id: '424242' })).body.code,
    ).toBe(3561);
    expect(await list()).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });

  it('a reviewer gets 403', async () => {
    const before = await list();
    expect((await admin('POST', 'card-deposits/payees', account, reviewer)).status).toBe(403);
    expect(await list()).toEqual(before);
  });
});

describe('loan products', () => {
  const list = async () =>
    (await admin<{ items: AdminLoanProduct[] }>('GET', 'loans/products')).body.data.items;
  const product = {
    slug: 'catalog-test-loan',
    name: { en: 'Quick test loan', zh_CN: '测试贷款' },
    institution: { en: 'Test Finance' },
    description: { en: 'Interest first.' },
    minAmount: '100',
    maxAmount: '5000',
    periods: [30, 7],
    dailyRatePpm: 500,
    overdueRatePpm: 1_000,
    method: 'interest_first',
    enabled: true,
    sort: 5,
  };

  it('a new product is audited and appears in the client list; disabled, it disappears', async () => {
    const user = await registerUser(t.app);
    const created = await admin<AdminLoanProduct>('POST', 'loans/products', product);
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    expect(created.body.data).toMatchObject({
      periods: [7, 30],
      minAmount: '100',
      name: { en: 'Quick test loan', zh_CN: '测试贷款' },
    });
    expect((await auditOf('loan_product', created.body.data.id))[0]).toMatchObject({
      action: 'loan_product.create',
      before: null,
    });
    const client = async (lang = 'en') =>
      (
        await call<{ items: LoanProduct[] }>(t.app, 'GET', '/api/v1/loans/products', {
          token: user.token,
          lang,
        })
      ).body.data.items;
    expect((await client('zh-CN')).find((p) => p.id === created.body.data.id)).toMatchObject({
      name: '测试贷款',
      periods: [7, 30],
      dailyRate: '0.0005',
    });

    expect(
      (
        await admin('POST', 'loans/products', {
          ...product,
          id: created.body.data.id,
          enabled: false,
        })
      ).body.code,
    ).toBe(0);
    const [, update] = await auditOf('loan_product', created.body.data.id);
    expect(JSON.parse(update?.before ?? '{}')).toMatchObject({ enabled: true });
    expect(JSON.parse(update?.after ?? '{}')).toMatchObject({ enabled: false });
    expect((await client()).map((p) => p.id)).not.toContain(created.body.data.id);
  });

  it('refuses min above max, bad rates, duplicate periods, a taken slug, changing nothing', async () => {
    const before = await list();
    const audits = await auditCount();
    expect(
      (
        await admin(
          'POST',
          'loans/products',
          { ...product, slug: 'other', minAmount: '6000' },
          catalog,
          'en',
        )
      ).body,
    ).toMatchObject({
      code: 422,
      errors: { minAmount: ['The minimum must not be above the maximum.'] },
    });
    for (const bad of [
      { ...product, slug: 'other', dailyRatePpm: 0 },
      { ...product, slug: 'other', overdueRatePpm: 100_001 },
      { ...product, slug: 'other', periods: [7, 7] },
      { ...product, slug: 'other', periods: [] },
      { ...product, slug: 'other', name: { en: '<i>x</i>' } },
      { ...product, slug: 'Bad Slug' },
    ]) {
      expect((await admin('POST', 'loans/products', bad)).body.code, JSON.stringify(bad)).toBe(422);
    }
    expect((await admin('POST', 'loans/products', product, catalog, 'en')).body).toMatchObject({
      code: 422,
      errors: { slug: ['Another loan product already uses this slug.'] },
    });
    expect((await admin('POST', 'loans/products', { ...product, id: '9999' })).body.code).toBe(
      3450,
    );
    expect(await list()).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });

  it('a reviewer gets 403', async () => {
    expect(
      (await admin('POST', 'loans/products', { ...product, slug: 'reviewer-loan' }, reviewer))
        .status,
    ).toBe(403);
    expect((await list()).map((p) => p.slug)).not.toContain('reviewer-loan');
  });
});

describe('miner products', () => {
  const product = {
    slug: 'catalog-test-miner',
    name: { en: 'Catalog miner', zh_CN: '目录矿机' },
    description: { en: 'Fixed yield.' },
    output: 'BTC',
    hashrate: '100 TH/s',
    power: '3000 W',
    periodDays: 10,
    unitPrice: '50',
    minInvestment: '50',
    maxQuantity: 10,
    dailyRatePpm: 2_000,
    enabled: true,
    sort: 9,
  };

  it('a new miner is audited, appears in the client list, and the console sees its texts in every language', async () => {
    const user = await registerUser(t.app);
    const created = await admin<{ id: string }>('POST', 'mining/products', product);
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    expect((await auditOf('mining_product', created.body.data.id))[0]).toMatchObject({
      action: 'mining_product.create',
    });
    const client = (
      await call<{ items: MiningProduct[] }>(t.app, 'GET', '/api/v1/mining/products', {
        token: user.token,
        lang: 'zh-CN',
      })
    ).body.data.items;
    expect(client.find((p) => p.id === created.body.data.id)).toMatchObject({
      name: '目录矿机',
      periodDays: 10,
    });
    const listed = (
      await admin<{ items: { id: string; texts: unknown }[] }>('GET', 'mining/products')
    ).body.data.items.find((p) => p.id === created.body.data.id);
    expect(listed?.texts).toEqual({ name: product.name, description: product.description });
    expect((await admin('POST', 'mining/products', product, reviewer)).status).toBe(403);
  });
});
