import type { Order, PlaceOrderResponse, Replay } from '@tradewind/contract/instant';
import type { InstrumentSymbol } from '@tradewind/contract/market';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { Settlement } from '../src/modules/contracts/settlement.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  type Reply,
  TRADE_PIN,
  type TestApp,
  call,
  fund,
  idempotencyKey,
  registerReadyUser,
  type registerUser,
} from './harness.ts';
import { recordPrices } from './prices.ts';

/** Test helpers for instant contracts: traders, orders, recorded prices at chosen instants, settlement. */

export type Trader = Awaited<ReturnType<typeof registerUser>> & { id: number };

/** A signed-in, verified user with a trading password and `usdt` (a decimal string) in the futures account. */
export async function trader(t: TestApp, usdt = '1000'): Promise<Trader> {
  const user = await registerReadyUser(t);
  const [whole = '0', fraction = ''] = usdt.split('.');
  const minor = BigInt(whole) * 1_000_000n + BigInt((fraction + '000000').slice(0, 6));
  if (minor > 0n) await fund(t, Number(user.uid), minor, 'futures');
  return { ...user, id: Number(user.uid) };
}

export interface OrderBody {
  symbol?: string;
  direction?: 'up' | 'down';
  periodId?: number;
  amount?: string;
  tradePassword?: string;
  terms?: { payoutRate: string; feeRate: string };
}

export function placeOrder(
  t: TestApp,
  token: string,
  body: OrderBody,
  key: string | null = idempotencyKey(),
): Promise<Reply<PlaceOrderResponse>> {
  return call<PlaceOrderResponse>(t.app, 'POST', '/api/v1/contracts/orders', {
    token,
    body: {
      symbol: 'BTCUSDT',
      direction: 'up',
      periodId: 1,
      amount: '100',
      tradePassword: TRADE_PIN,
      ...body,
    },
    headers: key ? { 'idempotency-key': key } : {},
  });
}

/** Places an order that must be accepted; returns it. */
export async function placed(t: TestApp, token: string, body: OrderBody = {}): Promise<Order> {
  const reply = await placeOrder(t, token, body);
  expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
  return reply.body.data.order;
}

export async function futures(
  t: TestApp,
  token: string,
): Promise<{ available: string; locked: string }> {
  const reply = await call<{ futures: { available: string; locked: string } }>(
    t.app,
    'GET',
    '/api/v1/wallet/balances',
    { token },
  );
  const { available, locked } = reply.body.data.futures;
  return { available, locked };
}

/**
 * Records prices so that the tick lands exactly at `atMs` (a whole second after the
 * clock), leaving the clock there.
 */
export async function recordAt(
  t: TestApp,
  atMs: number,
  prices: Partial<Record<InstrumentSymbol, string>>,
): Promise<void> {
  if (atMs % 1000 !== 0 || atMs <= t.clock.now().getTime())
    throw new Error(`recordAt: ${atMs} is not a whole second after the clock`);
  t.clock.set(atMs - 1000);
  await recordPrices(t, prices);
}

/** A settlement worker on the test's database and clock; `errors` collects what it logs as errors. */
export function settlement(t: TestApp, batchSize?: number, errors?: unknown[]): Settlement {
  const { ledger, hub } = t.app.services;
  const log = errors
    ? { error: (detail: unknown) => void errors.push(detail), info: () => undefined }
    : undefined;
  return new Settlement(
    { db: t.database.db, clock: t.clock, ledger, hub, ...(log ? { log } : {}) },
    batchSize === undefined ? {} : { batchSize },
  );
}

export async function orderRow(t: TestApp, id: string) {
  const [row] = await queryRows<{
    state: string;
    outcome: string | null;
    payout_minor: string | null;
    close_tick_id: string | null;
    open_tick_id: string;
    stake_minor: string;
    fee_minor: string;
  }>(
    t.database.db,
    sql`select state, outcome, payout_minor::text, close_tick_id::text, open_tick_id::text, stake_minor::text, fee_minor::text from contract_orders where id = ${Number(id)}`,
  );
  return row;
}

/** Every settled order of the database, replayed through the public endpoint: each must agree. */
export async function expectEveryReplayAgrees(t: TestApp): Promise<number> {
  const rows = await queryRows<{ public_id: string; outcome: string; payout: string }>(
    t.database.db,
    sql`select public_id, outcome, payout_minor::text as payout from contract_orders where state = 'settled' order by id`,
  );
  for (const row of rows) {
    const reply = await call<Replay>(
      t.app,
      'GET',
      `/api/v1/contracts/replay?publicId=${row.public_id}`,
    );
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
    expect(reply.body.data.agrees, row.public_id).toBe(true);
    expect(reply.body.data.outcome).toBe(row.outcome);
    expect(reply.body.data.stored.outcome).toBe(row.outcome);
  }
  return rows.length;
}
