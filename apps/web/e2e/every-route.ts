import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { apiCall, waitFor } from './browser.ts';
import { admin, registerByApi } from './images.ts';
import { TRADE_PIN, makeReady } from './ready-user.ts';

/**
 * The route table and a signed-in user whose account holds one of everything a detail page
 * needs (an open contract order, an approved miner rental, the message its approval wrote),
 * shared by the accessibility and every-screen runs.
 */

const here = path.dirname(fileURLToPath(import.meta.url));

/** ROUTE_PATHS as the router declares it, read from its source so a new route joins these runs by itself. */
export function routePaths(): string[] {
  const source = fs.readFileSync(path.join(here, '../src/app/router.tsx'), 'utf8');
  const table = source.match(/export const ROUTE_PATHS = \[([\s\S]*?)\];/)?.[1];
  if (!table) throw new Error('ROUTE_PATHS not found in router.tsx');
  const paths = [...table.matchAll(/'([^']+)'/g)].map((m) => m[1] as string);
  if (paths.length < 40) throw new Error(`only ${paths.length} routes read from router.tsx`);
  return paths;
}

/** Paths containing one of these are open signed out (apps/web/src/app/guard.ts). */
export const SIGNED_OUT_PATHS = [
  '/Login',
  '/Register',
  '/ForgetPwd',
  '/Agree?type=terms',
  '/Agree?type=privacy',
];

export interface Fixture {
  session: { token: string; uid: string };
  /** Each route with the query it needs to show an object rather than an empty state. */
  urls: { route: string; url: string }[];
}

let counter = 0;

/** Registers a user through the API and gives it an order, a rental and a message; returns each route's URL. */
export async function prepareFixture(
  baseUrl: string,
  operatorToken: string,
  prefix: string,
): Promise<Fixture> {
  const api = <T>(
    method: 'GET' | 'POST',
    p: string,
    token?: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => apiCall<T>(baseUrl, method, p, token, body, headers);
  const key = () => `e2e-${prefix}-${Date.now()}-${++counter}`;
  const session = await registerByApi(
    baseUrl,
    `e2e-${prefix}${Date.now()}${++counter}@example.com`,
  );
  const { token } = session;
  await makeReady(baseUrl, session);

  // 500 USDT by a simulated-chain deposit, 50 of it moved to futures for one contract order.
  const { address } = (await api<{ address: string }>('GET', '/api/v1/deposit/address', token))
    .data;
  await api('POST', '/api/v1/dev/chain/transfer', undefined, { address, amount: '500' });
  await waitFor(
    'the deposit to be seen',
    async () =>
      (await api<{ items: unknown[] }>('GET', '/api/v1/deposit/history', token)).data.items.length >
      0,
  );
  await api('POST', '/api/v1/dev/chain/mine', undefined, { blocks: 19 });
  await waitFor('the deposit to be credited', async () =>
    (
      await api<{ spot: { asset: string; available: string }[] }>(
        'GET',
        '/api/v1/wallet/balances',
        token,
      )
    ).data.spot.some((s) => s.asset === 'USDT' && s.available === '500'),
  );
  const moved = await api(
    'POST',
    '/api/v1/wallet/transfer',
    token,
    { from: 'spot', to: 'futures', asset: 'USDT', amount: '50' },
    { 'idempotency-key': key() },
  );
  if (moved.code !== 0) throw new Error(`transfer: ${JSON.stringify(moved)}`);

  const { periods } = (
    await api<{ periods: { id: number; seconds: number }[] }>(
      'GET',
      '/api/v1/contracts/config',
      token,
    )
  ).data;
  const longest = periods.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  const order = await api<{ order: { id: string } }>(
    'POST',
    '/api/v1/contracts/orders',
    token,
    {
      symbol: 'BTCUSDT',
      direction: 'up',
      periodId: longest.id,
      amount: '10',
      tradePassword: TRADE_PIN,
    },
    { 'idempotency-key': key() },
  );
  if (order.code !== 0) throw new Error(`order: ${JSON.stringify(order)}`);

  const products = (
    await api<{ items: { id: string; unitPrice: string }[] }>(
      'GET',
      '/api/v1/mining/products',
      token,
    )
  ).data.items;
  const miner = products[0];
  if (!miner) throw new Error('no demo miner');
  const rental = await api<{ id: string }>(
    'POST',
    '/api/v1/mining/rentals',
    token,
    { productId: miner.id, quantity: 1, amount: miner.unitPrice },
    { 'idempotency-key': key() },
  );
  if (rental.code !== 0) throw new Error(`rental: ${JSON.stringify(rental)}`);
  const decided = await admin(baseUrl, operatorToken, 'POST', '/mining/rentals/decide', {
    id: rental.data.id,
    decision: 'approve',
  });
  if (decided.code !== 0) throw new Error(`rental decision: ${JSON.stringify(decided)}`);
  await waitFor(
    'the rental message',
    async () =>
      (await api<{ items: unknown[] }>('GET', '/api/v1/messages', token)).data.items.length > 0,
  );
  const message = (await api<{ items: { id: string }[] }>('GET', '/api/v1/messages', token)).data
    .items[0];
  const news = (await api<{ items: { id: string }[] }>('GET', '/api/v1/news?kind=news')).data
    .items[0];
  const notice = (await api<{ items: { id: string }[] }>('GET', '/api/v1/news?kind=notice')).data
    .items[0];
  if (!message || !news || !notice) throw new Error('no message, news or notice to open');

  const queries: Record<string, string> = {
    '/Detail': '?symbol=BTCUSDT',
    '/ContractDetail': `?id=${order.data.order.id}`,
    '/MiningInfo': `?id=${miner.id}`,
    '/MiningDetail': `?id=${rental.data.id}`,
    '/MsgDetail': `?id=${message.id}`,
    '/NewsDetail': `?id=${news.id}`,
    '/NoticeDetail': `?id=${notice.id}`,
    '/Agree': '?type=terms',
  };
  return {
    session,
    urls: routePaths().map((route) => ({ route, url: route + (queries[route] ?? '') })),
  };
}

/** A file-name-safe name for a route ("/" is Home). */
export const routeName = (route: string) =>
  route === '/' ? 'Home' : route.slice(1).replace(/[^A-Za-z0-9]+/g, '-');

/** Opens a URL and waits until the app has rendered it: the network is quiet and no loading skeleton remains. */
export async function openRoute(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  await page
    .waitForFunction(
      () =>
        !document.querySelector('.adm-skeleton, .adm-spin-loading, .adm-dot-loading') &&
        (document.querySelector('#root')?.textContent ?? '').trim().length > 0,
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
}
