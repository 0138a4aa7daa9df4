import type { PlaceOrderRequest } from '@tradewind/contract/instant';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractsModule } from '../src/modules/contracts/module.ts';
import { placeOrder, precheckOrder } from '../src/modules/contracts/place-order.ts';
import { queryRows } from '../src/platform/db.ts';
import { futures, trader } from './contracts.ts';
import { TRADE_PIN, type TestApp, createTestApp, idempotencyKey } from './harness.ts';
import { recordPrices } from './prices.ts';

/**
 * Placing an order is a use case of its own (`place-order.ts`): these tests call it as another
 * caller than the route would, and build the contracts module as app.ts does.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const body = (extra: Partial<PlaceOrderRequest> = {}): PlaceOrderRequest => ({
  symbol: 'BTCUSDT',
  direction: 'up',
  periodId: 1,
  amount: '100',
  tradePassword: TRADE_PIN,
  ...extra,
});
const ordersOf = async (userId: number) =>
  Number(
    (
      await queryRows<{ n: string }>(
        t.database.db,
        sql`select count(*)::text as n from contract_orders where user_id = ${userId}`,
      )
    )[0]?.n,
  );

describe('placing an order, past the route', () => {
  it('refuses an order whose precheck did not run: nothing placed, nothing locked', async () => {
    const user = await trader(t, '1000');
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const who = { userId: user.id, lang: 'en' as const, key: idempotencyKey(), hash: 'h' };
    await expect(placeOrder(t.app.contracts, who, body())).rejects.toThrow(/without precheckOrder/);
    expect(await ordersOf(user.id)).toBe(0);
    expect(await futures(t, user.token)).toEqual({ available: '1000', locked: '0' });

    // The same request, prechecked, is placed: stake 100 and fee 0.2 locked.
    const request = body();
    await precheckOrder({ db: t.database.db, clock: t.clock }, user.id, request);
    const reply = await placeOrder(t.app.contracts, who, request);
    expect(reply.order.stake).toBe('100');
    expect(await ordersOf(user.id)).toBe(1);
    expect(await futures(t, user.token)).toEqual({ available: '899.8', locked: '100.2' });
  });

  it('the precheck verifies the trading password: a wrong one is refused and counted, and the order is not placed', async () => {
    const user = await trader(t, '1000');
    await recordPrices(t, { BTCUSDT: '95000.00' });
    // trader() set the trading password, TRADE_PIN (spec §5: before the first order).
    const wrong = body({ tradePassword: '135792' });
    await expect(
      precheckOrder({ db: t.database.db, clock: t.clock }, user.id, wrong),
    ).rejects.toMatchObject({ errorName: 'MONEY_PASSWORD_INCORRECT' });
    await expect(
      placeOrder(
        t.app.contracts,
        { userId: user.id, lang: 'en', key: idempotencyKey(), hash: 'h' },
        wrong,
      ),
    ).rejects.toThrow(/without precheckOrder/);
    const [attempts] = await queryRows<{ failed_attempts: number }>(
      t.database.db,
      sql`select failed_attempts from money_passwords where user_id = ${user.id} and kind = 'trade'`,
    );
    expect(attempts?.failed_attempts).toBe(1);
    expect(await ordersOf(user.id)).toBe(0);
    expect(await futures(t, user.token)).toEqual({ available: '1000', locked: '0' });
  });
});

describe('the contracts module', () => {
  it('built for a worker process, its batcher wakes its settlement worker at each placed order’s delivery', async () => {
    const { config, ledger, hub } = t.app.services;
    const deps = { db: t.database.db, clock: t.clock, config, ledger, hub };
    expect(createContractsModule(deps, { worker: false, log: t.app.log }).settlement).toBeNull();
    const module = createContractsModule(deps, { worker: true, log: t.app.log });
    const settlement = module.settlement;
    if (!settlement) throw new Error('a worker process builds its settlement worker');
    const woken: Date[] = [];
    settlement.notePlaced = (deliverAt) => void woken.push(deliverAt);
    const user = await trader(t, '1000');
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const reply = await module.batcher.submit({
      userId: user.id,
      key: idempotencyKey(),
      hash: 'h',
      body: body(),
      stakeMinor: 100_000_000n,
      lang: 'en',
    });
    expect(woken.map((d) => d.toISOString())).toEqual([reply.order.deliverAt]);
    await module.batcher.drain();
  });
});
