import * as z from 'zod/mini';
import { instrumentSymbolSchema } from './market.ts';
import { amountSchema } from './money.ts';
import { moneyPasswordInputSchema } from './money-password.ts';
import { balancesSchema } from './wallet.ts';

/**
 * Instant (fixed-delivery) up/down contracts (ARCHITECTURE §6). The stake and fee are in
 * USDT from the futures account. Outcomes are computed by this one published rule on
 * recorded ticks, never chosen:
 *
 * - the open tick is the latest recorded tick at acceptance (at most 5 s old);
 * - the close tick is the latest recorded tick at or before the delivery instant;
 * - long ("up") wins if close > open, short ("down") wins if close < open;
 * - a win pays stake × (1 + payout rate), a loss forfeits the stake, a tie refunds the stake;
 * - the fee is charged when the order is placed and is not refunded (except on a void);
 * - no tick within the 5 s before delivery → the order is void: stake and fee are refunded.
 */

export const CONTRACT_ASSET = 'USDT';
export const DIRECTIONS = ['up', 'down'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** Stored order state: `open` until the settlement worker settles it, exactly once. */
export const ORDER_STATES = ['open', 'settled'] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export const OUTCOMES = ['win', 'loss', 'tie', 'void'] as const;
export type Outcome = (typeof OUTCOMES)[number];
/**
 * What spec §4's labels show: in progress (before delivery), ended (delivered, being
 * settled: normally for well under a second), completed (settled).
 */
export const ORDER_DISPLAY_STATUSES = ['in_progress', 'ended', 'completed'] as const;
export type OrderDisplayStatus = (typeof ORDER_DISPLAY_STATUSES)[number];

/** The pure rule, shared by settlement, the replay endpoint and the screens. */
export function outcomeOf(
  direction: Direction,
  openMinor: bigint,
  closeMinor: bigint | null,
): Outcome {
  if (closeMinor === null) return 'void';
  if (closeMinor === openMinor) return 'tie';
  const up = closeMinor > openMinor;
  return up === (direction === 'up') ? 'win' : 'loss';
}

/**
 * Break-even win rate, ignoring ties: p·(r − f) = (1 − p)·(1 + f) ⇒ p = (1 + f) / (1 + r).
 * Rates are decimal strings ("0.85"); the result is a percentage with two places, rounded up.
 */
export function breakEvenWinRatePct(payoutRate: string, feeRate: string): string {
  const toPpm = (rate: string) => {
    const [whole = '0', fraction = ''] = rate.split('.');
    return BigInt(whole) * 1_000_000n + BigInt((fraction + '000000').slice(0, 6));
  };
  const numerator = (1_000_000n + toPpm(feeRate)) * 10_000n;
  const denominator = 1_000_000n + toPpm(payoutRate);
  const basisPoints = (numerator + denominator - 1n) / denominator;
  return `${basisPoints / 100n}.${(basisPoints % 100n).toString().padStart(2, '0')}`;
}

/** A configured period (a row; operators configure them, issue 7). Rates are decimal strings. */
export const periodSchema = z.object({
  id: z.number().check(z.int()),
  seconds: z.number().check(z.int()),
  /** Profit on a win as a fraction of the stake, e.g. "0.85". */
  payoutRate: z.string(),
  /** Charged on placement as a fraction of the stake, e.g. "0.002". */
  feeRate: z.string(),
  minStake: z.string(),
  maxStake: z.string(),
  /** `breakEvenWinRatePct(payoutRate, feeRate)`, e.g. "54.16". */
  breakEvenWinRatePct: z.string(),
});
export type Period = z.infer<typeof periodSchema>;

export const contractConfigSchema = z.object({
  periods: z.array(periodSchema),
  /** The most open orders a user may have at once. */
  maxOpenOrders: z.number().check(z.int()),
  /** The user's own daily loss limit in USDT (losses and fees since 00:00 UTC), null when not set. */
  dailyLossLimit: z.nullable(z.string()),
  /** Losses and fees since 00:00 UTC today, in USDT (wins not netted). */
  lossToday: z.string(),
  /** Whether a trading password is set: then every order needs it. */
  tradePasswordRequired: z.boolean(),
  /** The rule in the request's language. */
  rule: z.string(),
});
export type ContractConfig = z.infer<typeof contractConfigSchema>;

/** A rate as the config shows it: a decimal with at most six places ("0.85", "0.002"). */
const rateSchema = z
  .string({ error: 'validation.required' })
  .check(z.regex(/^\d{1,6}(\.\d{1,6})?$/, { error: 'validation.invalid_value' }));

export const placeOrderRequestSchema = z.strictObject({
  symbol: instrumentSymbolSchema,
  direction: z.enum(DIRECTIONS, { error: 'validation.invalid_value' }),
  periodId: z
    .number({ error: 'validation.invalid_type' })
    .check(
      z.int({ error: 'validation.invalid_value' }),
      z.positive({ error: 'validation.invalid_value' }),
    ),
  /** The stake in USDT; the fee comes on top. */
  amount: amountSchema,
  /** Required when the user has set a trading password. */
  tradePassword: z.optional(moneyPasswordInputSchema),
  /**
   * The period's terms as the user was shown them (`contractConfig` periods' payoutRate and
   * feeRate): if an operator changed them since, the order is refused and nothing is locked.
   * The app always sends them; an API client that leaves them out accepts the current terms.
   */
  terms: z.optional(z.strictObject({ payoutRate: rateSchema, feeRate: rateSchema })),
});
export type PlaceOrderRequest = z.infer<typeof placeOrderRequestSchema>;

/** A recorded tick as an order shows it: what the verification section prints. */
/** One source's quote within a tick: the price is the median of these (packages/contract price-index.ts). */
export const tickQuoteSchema = z.object({
  source: z.string(),
  sourceLabel: z.string(),
  price: z.string(),
  /** The source's own time for the quote. */
  sourceTime: z.iso.datetime(),
  /** When the recorder received it. */
  receivedAt: z.iso.datetime(),
});
export type TickQuote = z.infer<typeof tickQuoteSchema>;

export const orderTickSchema = z.object({
  id: z.string(),
  price: z.string(),
  ts: z.iso.datetime(),
  source: z.string(),
  sourceLabel: z.string(),
  /** The quotes the price is the index of; absent in live events (the order's detail has them). */
  quotes: z.optional(z.array(tickQuoteSchema)),
  /**
   * Updates the sources signed, kept with the tick (close ticks; Pyth's: a Wormhole-signed
   * accumulator update cut to the feed, hex), for the browser to check against the
   * source's published keys (packages/contract pyth-proof.ts `verifyPythUpdate`).
   */
  proofs: z.optional(
    z.array(z.object({ source: z.string(), feedId: z.string(), update: z.string() })),
  ),
});
export type OrderTick = z.infer<typeof orderTickSchema>;

export const orderSchema = z.object({
  id: z.string(),
  /** Opaque, for the public replay endpoint: shareable without exposing the order list. */
  publicId: z.string(),
  symbol: z.string(),
  direction: z.enum(DIRECTIONS),
  periodSeconds: z.number().check(z.int()),
  payoutRate: z.string(),
  feeRate: z.string(),
  /** Purchase amount (USDT). */
  stake: z.string(),
  fee: z.string(),
  /** Stake ÷ opening price, in the base unit, 8 places rounded down. */
  quantity: z.string(),
  state: z.enum(ORDER_STATES),
  displayStatus: z.enum(ORDER_DISPLAY_STATUSES),
  outcome: z.nullable(z.enum(OUTCOMES)),
  openTick: orderTickSchema,
  closeTick: z.nullable(orderTickSchema),
  createdAt: z.iso.datetime(),
  deliverAt: z.iso.datetime(),
  settledAt: z.nullable(z.iso.datetime()),
  /** Milliseconds to delivery at the time of this reply (0 once delivered). */
  remainingMs: z.number().check(z.int()),
  /** Credited at settlement: stake × (1 + rate) on a win, the stake on a tie, stake + fee on a void, 0 on a loss; null while open. */
  payout: z.nullable(z.string()),
  /** Payout − stake − fee; null while open. */
  profit: z.nullable(z.string()),
  /** Profit ÷ stake as a percentage with two places; null while open. */
  returnRatePct: z.nullable(z.string()),
  /** While open: the P/L if it were delivered at the latest fresh tick (null without one); once settled, equal to `profit`. */
  currentPnl: z.nullable(z.string()),
});
export type Order = z.infer<typeof orderSchema>;

export const placeOrderResponseSchema = z.object({ order: orderSchema, balances: balancesSchema });
export type PlaceOrderResponse = z.infer<typeof placeOrderResponseSchema>;

export const ORDERS_PAGE_MAX = 50;
export const ordersQuerySchema = z.strictObject({
  /** `open` (in progress or ended) or `settled`. */
  state: z.enum(ORDER_STATES, { error: 'validation.invalid_value' }),
  symbol: z.optional(instrumentSymbolSchema),
  cursor: z.optional(
    z.string().check(z.regex(/^\d{1,18}$/, { error: 'validation.invalid_value' })),
  ),
  limit: z._default(
    z.coerce
      .number({ error: 'validation.invalid_type' })
      .check(
        z.int({ error: 'validation.invalid_value' }),
        z.gte(1, { error: 'validation.too_small' }),
        z.lte(ORDERS_PAGE_MAX, { error: 'validation.too_big' }),
      ),
    20,
  ),
});
export type OrdersQuery = z.infer<typeof ordersQuerySchema>;
export const ordersSchema = z.object({
  items: z.array(orderSchema),
  nextCursor: z.nullable(z.string()),
});
export type Orders = z.infer<typeof ordersSchema>;

export const orderQuerySchema = z.strictObject({
  id: z.string().check(z.regex(/^\d{1,18}$/, { error: 'validation.invalid_value' })),
});

export const contractSettingsRequestSchema = z.strictObject({
  /** Null removes the limit. */
  dailyLossLimit: z.nullable(amountSchema),
});
export type ContractSettingsRequest = z.infer<typeof contractSettingsRequestSchema>;

export const replayQuerySchema = z.strictObject({
  publicId: z.string().check(z.regex(/^[A-Za-z0-9_-]{22}$/, { error: 'validation.invalid_value' })),
});

/**
 * GET /contracts/replay (public): the order's settlement recomputed from the recorded ticks
 * table, next to what was stored. `agrees` is true when they are the same.
 */
export const replaySchema = z.object({
  publicId: z.string(),
  symbol: z.string(),
  direction: z.enum(DIRECTIONS),
  stake: z.string(),
  payoutRate: z.string(),
  deliverAt: z.iso.datetime(),
  openTick: orderTickSchema,
  /** Recomputed: the latest recorded tick at or before delivery, if within the 5 s before it. */
  closeTick: z.nullable(orderTickSchema),
  outcome: z.enum(OUTCOMES),
  payout: z.string(),
  stored: z.object({
    closeTickId: z.nullable(z.string()),
    outcome: z.enum(OUTCOMES),
    payout: z.string(),
  }),
  /** Each tick's price is the median of the source quotes recorded with it, recomputed. */
  indexAgrees: z.boolean(),
  agrees: z.boolean(),
  rule: z.string(),
});
export type Replay = z.infer<typeof replaySchema>;

/**
 * Events on the user's own WebSocket channel `user.<uid>` (ARCHITECTURE §7).
 * `order.settled` is "settlement at expiry completed".
 */
export const userEventSchema = z.discriminatedUnion('type', [
  // requestId: the X-Request-Id of the request that placed it (tracing across logs and sockets).
  z.object({
    type: z.literal('order.placed'),
    order: orderSchema,
    requestId: z.optional(z.string()),
  }),
  z.object({ type: z.literal('order.settled'), order: orderSchema }),
  z.object({ type: z.literal('balance.changed') }),
]);
export type UserEvent = z.infer<typeof userEventSchema>;
