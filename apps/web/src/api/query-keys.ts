import type { OrderState } from '@tradewind/contract/instant';
import type { KlineInterval } from '@tradewind/contract/market';

/**
 * Query keys the real-time feed writes to (api/realtime-cache.ts), apart from the fetchers
 * so the feed does not pull in the HTTP client.
 */
export const balancesQueryKey = ['wallet', 'balances'] as const;
/** Names come in the request's language, so the language is part of the key. */
export const instrumentsQueryKey = (language: string) =>
  ['market', 'instruments', language] as const;
export const tickersQueryKey = ['market', 'tickers'] as const;
export const tickerQueryKey = (symbol: string) => ['market', 'ticker', symbol] as const;
export const klinesQueryKey = (symbol: string, interval: KlineInterval) =>
  ['market', 'klines', symbol, interval] as const;
export const favoritesQueryKey = ['market', 'favorites'] as const;
/** The rule text comes in the request's language, so the language is part of the key. */
export const contractConfigQueryKey = (language: string) =>
  ['contracts', 'config', language] as const;
export const ordersQueryKey = (state: OrderState) => ['contracts', 'orders', state] as const;
export const orderQueryKey = (id: string) => ['contracts', 'order', id] as const;
/** Every messages query starts with this, so one invalidation refreshes lists, details and the badge. */
export const messagesQueryRoot = ['messages'] as const;
export const unreadQueryKey = ['messages', 'unread'] as const;
/** Where the server announces an operator's broadcast (every signed-in client listens). */
export const BROADCAST_CHANNEL = 'messages.broadcast';
