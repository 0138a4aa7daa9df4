import { type Order, type Orders, userEventSchema } from '@tradewind/contract/instant';
import {
  type Klines,
  type Ticker,
  klineMessageSchema,
  tickerSchema,
} from '@tradewind/contract/market';
import { type InfiniteData, type QueryClient, notifyManager } from '@tanstack/react-query';
import { learnServerTime } from '@/lib/server-clock.ts';
import {
  balancesQueryKey,
  BROADCAST_CHANNEL,
  klinesQueryKey,
  messagesQueryRoot,
  orderQueryKey,
  ordersQueryKey,
  tickerQueryKey,
  tickersQueryKey,
} from './query-keys.ts';

/** The chart keeps at most this many candles in memory as live ones are appended. */
export const MAX_CANDLES = 1000;

const newer = (next: Ticker, current: Ticker | undefined) =>
  !current?.ts || !next.ts || next.ts >= current.ts;

/** A ticker message replaces the instrument's ticker, in its own query and in the list. */
export function applyTicker(queryClient: QueryClient, ticker: Ticker): void {
  const current = queryClient.getQueryData<Ticker>(tickerQueryKey(ticker.symbol));
  if (newer(ticker, current)) queryClient.setQueryData(tickerQueryKey(ticker.symbol), ticker);
  queryClient.setQueryData<{ items: Ticker[] }>(tickersQueryKey, (list) => {
    if (!list) return list;
    const index = list.items.findIndex((item) => item.symbol === ticker.symbol);
    if (index < 0) return { items: [...list.items, ticker] };
    if (!newer(ticker, list.items[index])) return list;
    const items = list.items.slice();
    items[index] = ticker;
    return { items };
  });
}

/**
 * A candle joins the chart's data: the current one is replaced, a new one appended. The
 * untouched candles keep their identity, which lets the chart update instead of redraw.
 */
export function mergeCandle(klines: Klines, candle: Klines['items'][number]): Klines {
  const items = klines.items;
  const last = items[items.length - 1];
  if (!last || candle.t > last.t)
    return { ...klines, items: [...items, candle].slice(-MAX_CANDLES) };
  if (candle.t === last.t) return { ...klines, items: [...items.slice(0, -1), candle] };
  const index = items.findIndex((item) => item.t === candle.t);
  if (index < 0) return klines; // older than what the chart holds
  const copy = items.slice();
  copy[index] = candle;
  return { ...klines, items: copy };
}

function removeFromPages(
  data: InfiniteData<Orders> | undefined,
  id: string,
): InfiniteData<Orders> | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.filter((item) => item.id !== id),
    })),
  };
}

function applyOrder(queryClient: QueryClient, order: Order): void {
  learnServerTime(order);
  queryClient.setQueryData(orderQueryKey(order.id), order);
}

/** What a message's event changes, by the kind's group: those queries refetch when it arrives. */
const REFRESHED_BY_MESSAGE: Record<string, readonly (readonly string[])[]> = {
  kyc: [['user', 'profile'], ['kyc'], ['credit']],
  loan: [['loans'], ['credit']],
  mining: [['mining', 'rentals']],
  deposit: [balancesQueryKey],
  withdrawal: [balancesQueryKey],
};

/**
 * How long ticker messages gather before they reach the cache. The feed sends every
 * instrument's ticker in the same instant, one message each: written one by one, they made a
 * price list (Home's, the quotes') render once per instrument, about twenty times in a row a
 * second; gathered, it renders once. Prices move once a second, so 100 ms is not seen.
 */
export const TICKER_GATHER_MS = 100;

/**
 * The cache's feed: each message as `applyRealtimeMessage` applies it, tickers gathered for
 * `TICKER_GATHER_MS` (the latest per instrument) and written in one batch, so that every
 * component they change renders once for all of them. Other messages are applied at once.
 */
export function cacheFeed(queryClient: QueryClient): (channel: string, data: unknown) => void {
  let gathered = new Map<string, unknown>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    const tickers = gathered;
    gathered = new Map();
    notifyManager.batch(() => {
      for (const [channel, data] of tickers) applyRealtimeMessage(queryClient, channel, data);
    });
  };
  return (channel, data) => {
    if (!channel.startsWith('ticker.')) return applyRealtimeMessage(queryClient, channel, data);
    gathered.set(channel, data);
    timer ??= setTimeout(flush, TICKER_GATHER_MS);
  };
}

/**
 * What a real-time message does to the query cache: tickers and candles are written in,
 * the user's events refresh the lists and balances they change.
 */
export function applyRealtimeMessage(
  queryClient: QueryClient,
  channel: string,
  data: unknown,
): void {
  if (channel.startsWith('ticker.')) {
    const ticker = tickerSchema.safeParse(data);
    if (ticker.success) applyTicker(queryClient, ticker.data);
    return;
  }
  if (channel.startsWith('kline.')) {
    const message = klineMessageSchema.safeParse(data);
    if (!message.success) return;
    const { symbol, interval, candle } = message.data;
    queryClient.setQueryData<Klines>(klinesQueryKey(symbol, interval), (klines) =>
      klines ? mergeCandle(klines, candle) : klines,
    );
    return;
  }
  if (
    channel === BROADCAST_CHANNEL ||
    (channel.startsWith('user.') && (data as { type?: unknown } | null)?.type === 'message.new')
  ) {
    // A new message: the badge, the list and the details refetch; and what the message is
    // about, so the screen that shows it is current too (the verified tag, a loan's status).
    void queryClient.invalidateQueries({ queryKey: messagesQueryRoot });
    const kind = (data as { message?: { kind?: unknown } } | null)?.message?.kind;
    for (const key of typeof kind === 'string'
      ? (REFRESHED_BY_MESSAGE[kind.split('.')[0] ?? ''] ?? [])
      : [])
      void queryClient.invalidateQueries({ queryKey: key });
    return;
  }
  if (channel.startsWith('user.')) {
    const event = userEventSchema.safeParse(data);
    if (!event.success) return;
    const userEvent = event.data;
    switch (userEvent.type) {
      case 'order.placed':
        applyOrder(queryClient, userEvent.order);
        void queryClient.invalidateQueries({ queryKey: ordersQueryKey('open') });
        break;
      case 'order.settled': {
        const { order } = userEvent;
        applyOrder(queryClient, order);
        queryClient.setQueryData<InfiniteData<Orders>>(ordersQueryKey('open'), (pages) =>
          removeFromPages(pages, order.id),
        );
        void queryClient.invalidateQueries({ queryKey: ['contracts', 'orders'] });
        void queryClient.invalidateQueries({ queryKey: ['contracts', 'config'] });
        break;
      }
      case 'balance.changed':
        void queryClient.invalidateQueries({ queryKey: balancesQueryKey });
        void queryClient.invalidateQueries({ queryKey: ['funds'] });
        // A miner's daily payout, a refund or a returned principal changes the balance: the rentals show it.
        void queryClient.invalidateQueries({ queryKey: ['mining', 'rentals'] });
        break;
    }
  }
}
