import { expect } from 'vitest';
import { apiCall, outboxCode, waitFor } from './browser.ts';
import { makeReady } from './ready-user.ts';

export interface Session {
  token: string;
  uid: string;
}

let counter = 0;

/**
 * A new user holding `usdt` in the futures account, as a user gets there: registered by an
 * emailed code, a deposit on the simulated chain mined to its confirmations, then a transfer
 * from spot. `prefix` names the suite in the email and the idempotency key.
 */
export async function fundedFuturesUser(
  baseUrl: string,
  usdt: string,
  prefix: string,
): Promise<Session> {
  const api = <T>(
    method: 'GET' | 'POST',
    url: string,
    token?: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => apiCall<T>(baseUrl, method, url, token, body, headers);
  const email = `e2e-${prefix}${Date.now()}${++counter}@example.com`;
  await api('POST', '/api/v1/auth/codes', undefined, {
    channel: 'email',
    account: email,
    purpose: 'register',
  });
  const code = await outboxCode(baseUrl, email);
  const user = (
    await api<Session>('POST', '/api/v1/auth/register', undefined, {
      mode: 'code',
      channel: 'email',
      account: email,
      code,
      password: 'e2e-password-1',
      confirmPassword: 'e2e-password-1',
    })
  ).data;
  // Verified, with a trading password: ready to trade (spec §5).
  await makeReady(baseUrl, user, 'e2e-password-1');
  const { address } = (await api<{ address: string }>('GET', '/api/v1/deposit/address', user.token))
    .data;
  expect(
    (await api('POST', '/api/v1/dev/chain/transfer', undefined, { address, amount: usdt })).code,
  ).toBe(0);
  await waitFor(
    'the deposit to be seen',
    async () =>
      (await api<{ items: unknown[] }>('GET', '/api/v1/deposit/history', user.token)).data.items
        .length > 0,
  );
  await api('POST', '/api/v1/dev/chain/mine', undefined, { blocks: 19 });
  await waitFor('the deposit to be credited', async () => {
    const spot = (
      await api<{ spot: { asset: string; available: string }[] }>(
        'GET',
        '/api/v1/wallet/balances',
        user.token,
      )
    ).data.spot;
    return spot.find((s) => s.asset === 'USDT')?.available === usdt;
  });
  const moved = await api(
    'POST',
    '/api/v1/wallet/transfer',
    user.token,
    { from: 'spot', to: 'futures', asset: 'USDT', amount: usdt },
    { 'idempotency-key': `e2e-${prefix}-${Date.now()}-${++counter}` },
  );
  expect(moved.code).toBe(0);
  return user;
}
