import { publicConfigSchema } from '@tradewind/contract/config';
import { instrumentsSchema, tickersSchema } from '@tradewind/contract/market';
import { articleListSchema } from '@tradewind/contract/messages';
import { configQueryKey } from '@/api/config.ts';
import { articlesQueryKey } from '@/api/news.ts';
import { instrumentsQueryKey, tickersQueryKey } from '@/api/query-keys.ts';

/**
 * Home's GETs that need no session, with the query each one answers: the server renders `/`
 * with their replies (src/prerender.tsx) and sends them inside the page, so the page is painted
 * with news and prices and the app starts with them instead of asking. Each URL is also in the
 * router's HOME_REQUESTS, in the form the query sends it.
 */
export const HOME_PUBLIC_QUERIES = [
  { url: '/api/v1/config', key: () => configQueryKey, schema: publicConfigSchema },
  {
    url: '/api/v1/market/instruments',
    key: (language: string) => instrumentsQueryKey(language),
    schema: instrumentsSchema,
  },
  { url: '/api/v1/market/tickers', key: () => tickersQueryKey, schema: tickersSchema },
  {
    url: '/api/v1/news?kind=notice',
    key: (language: string) => articlesQueryKey('notice', language),
    schema: articleListSchema,
  },
  {
    url: '/api/v1/news?kind=news',
    key: (language: string) => articlesQueryKey('news', language),
    schema: articleListSchema,
  },
] as const;
