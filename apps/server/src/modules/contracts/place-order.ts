import type { PlaceOrderRequest, PlaceOrderResponse } from '@tradewind/contract/instant';
import type { Language } from '@tradewind/contract/languages';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { isMoneyPasswordSet, verifyMoneyPassword } from '../money-password/service.ts';
import { amountOf } from '../wallet/service.ts';
import type { OrderBatcher } from './batcher.ts';

/**
 * Placing an instant-contract order: the whole check list of one request, in the order it
 * runs. Two steps, because the trading password is checked in a transaction of its own (a
 * wrong attempt counts toward the lock though nothing is placed), while everything else
 * holds under the user's lock in the batch that places the order:
 *
 * - `precheckOrder`, on every attempt (replays too): the trading password, when the user has
 *   set one and the request carries it (MONEY_PASSWORD_INCORRECT on `tradePassword`,
 *   MONEY_PASSWORD_LOCKED);
 * - `placeOrder`: the stake's precision (AMOUNT_PRECISION), then the request joins the next
 *   batch (`batcher.ts`, group commit), which, under the user's lock, takes the
 *   Idempotency-Key (IDEMPOTENCY_KEY_REUSED; a stored reply replays), requires the trading
 *   password where one is set (TRADE_PASSWORD_REQUIRED, replays too), and then refuses by
 *   `orderRefusal`: ACCOUNT_FROZEN, KYC_REQUIRED (the kyc module's gate),
 *   TRADE_PASSWORD_NOT_SET (spec §5: set one before the first order),
 *   INSTRUMENT_NOT_TRADABLE, PERIOD_UNKNOWN, STAKE_OUT_OF_RANGE, PRICE_UNAVAILABLE (no recorded tick fresh enough), OPEN_ORDER_LIMIT,
 *   DAILY_LOSS_LIMIT, INSUFFICIENT_BALANCE.
 *
 * `placeOrder` refuses a request `precheckOrder` has not passed, so no caller can place an
 * order past the trading password.
 */

export interface PlaceOrderDeps {
  db: Db;
  clock: Clock;
  batcher: OrderBatcher;
}

/** Who places the order and the request's Idempotency-Key with its body's hash. */
export interface OrderPlacer {
  userId: number;
  lang: Language;
  key: string;
  hash: string;
  /** The placing request's id, carried into the `order.placed` event (tracing). */
  requestId?: string;
}

/**
 * The requests whose password `precheckOrder` checked. Keyed by the parsed body, which is the
 * same object in a route's precheck and in its handler.
 */
const prechecked = new WeakSet<PlaceOrderRequest>();

/** Before the batch, on every attempt: the trading password, if the user has one and sent it. */
export async function precheckOrder(
  deps: Pick<PlaceOrderDeps, 'db' | 'clock'>,
  userId: number,
  body: PlaceOrderRequest,
): Promise<void> {
  if (body.tradePassword !== undefined && (await isMoneyPasswordSet(deps.db, userId, 'trade'))) {
    await verifyMoneyPassword(deps, userId, 'trade', body.tradePassword, 'tradePassword');
  }
  prechecked.add(body);
}

/** The stake parsed, then the order placed by the next batch: its reply, or its own refusal. */
export async function placeOrder(
  deps: Pick<PlaceOrderDeps, 'batcher'>,
  who: OrderPlacer,
  body: PlaceOrderRequest,
): Promise<PlaceOrderResponse> {
  if (!prechecked.has(body)) throw new Error('an order reached placement without precheckOrder');
  const stakeMinor = amountOf(body.amount, 'USDT');
  return deps.batcher.submit({
    userId: who.userId,
    key: who.key,
    hash: who.hash,
    body,
    stakeMinor,
    lang: who.lang,
    ...(who.requestId ? { requestId: who.requestId } : {}),
  });
}
