import type { ContractConfig } from '@tradewind/contract/instant';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/platform/db.ts';
import { futures, placeOrder, trader } from './contracts.ts';
import { TRADE_PIN, type TestApp, call, createTestApp } from './harness.ts';
import { recordPrices } from './prices.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the terms the user saw', () => {
  it('an order sent with terms an operator changed since is refused, localized, and locks nothing', async () => {
    const user = await trader(t, '1000');
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const config = (
      await call<ContractConfig>(t.app, 'GET', '/api/v1/contracts/config', { token: user.token })
    ).body.data;
    const period = config.periods.find((p) => p.seconds === 30);
    expect(period).toMatchObject({ payoutRate: '0.8', feeRate: '0.002' });
    const shown = { payoutRate: period?.payoutRate ?? '', feeRate: period?.feeRate ?? '' };
    // Meanwhile an operator makes the period ruinous: a payout of 1 ppm and a fee of 99.99 %.
    await t.database.db.execute(
      sql`update contract_periods set payout_rate_ppm = 1, fee_rate_ppm = 999900 where seconds = 30`,
    );
    try {
      const before = await futures(t, user.token);
      const count = async () =>
        (
          await queryRows<{ n: number }>(
            t.database.db,
            sql`select count(*)::int as n from contract_orders where user_id = ${user.id}`,
          )
        )[0]?.n;
      const refused = await call(t.app, 'POST', '/api/v1/contracts/orders', {
        token: user.token,
        lang: 'de',
        headers: { 'idempotency-key': 'terms-first-1' },
        body: {
          symbol: 'BTCUSDT',
          direction: 'up',
          periodId: period?.id,
          amount: '100',
          terms: shown,
          tradePassword: TRADE_PIN,
        },
      });
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body.code).toBe(2608);
      expect(refused.body.message).toContain('Auszahlungsrate oder Gebühr');
      expect(await futures(t, user.token)).toEqual(before);
      expect(await count()).toBe(0);
      // With the terms now shown, the order goes through on them.
      await recordPrices(t, { BTCUSDT: '95000.00' });
      const accepted = await placeOrder(t, user.token, {
        periodId: period?.id ?? 0,
        amount: '100',
        terms: { payoutRate: '0.000001', feeRate: '0.9999' },
      });
      expect(accepted.body.code, JSON.stringify(accepted.body)).toBe(0);
      expect(accepted.body.data.order).toMatchObject({ payoutRate: '0.000001', feeRate: '0.9999' });
      expect(await count()).toBe(1);
    } finally {
      await t.database.db.execute(
        sql`update contract_periods set payout_rate_ppm = 800000, fee_rate_ppm = 2000 where seconds = 30`,
      );
    }
  });

  it('terms that are not rates are refused as invalid input', async () => {
    const user = await trader(t, '1000');
    const reply = await call(t.app, 'POST', '/api/v1/contracts/orders', {
      token: user.token,
      headers: { 'idempotency-key': 'terms-second-2' },
      body: {
        symbol: 'BTCUSDT',
        direction: 'up',
        periodId: 1,
        amount: '100',
        terms: { payoutRate: '-1', feeRate: 'x' },
      },
    });
    expect(reply.status).toBe(422);
    expect(await futures(t, user.token)).toEqual({ available: '1000', locked: '0' });
  });
});
