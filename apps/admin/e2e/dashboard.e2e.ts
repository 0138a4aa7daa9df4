import type { Dashboard } from '@tradewind/contract/dashboard';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from '../../web/e2e/suite-server.ts';
import { apiCall, launchBrowser, screenshot, waitFor } from '../../web/e2e/browser.ts';
import { registerByApi } from '../../web/e2e/images.ts';
import {
  DESKTOP,
  createOperatorAs,
  operatorApi,
  operatorApiLogin,
  signInOperator,
} from './operator.ts';

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('operator console: the dashboard', () => {
  it('opens first, shows a deposit of today, the queues and the ledger check (run on demand, green), in English and Chinese', async () => {
    // Some money in: a simulated on-chain deposit, credited by the watcher.
    const user = await registerByApi(baseUrl, `dash-${Date.now()}@example.com`);
    const { address } = (
      await apiCall<{ address: string }>(baseUrl, 'GET', '/api/v1/deposit/address', user.token)
    ).data;
    expect(
      (
        await apiCall(baseUrl, 'POST', '/api/v1/dev/chain/transfer', undefined, {
          address,
          amount: '120.5',
        })
      ).code,
    ).toBe(0);
    expect(
      (await apiCall(baseUrl, 'POST', '/api/v1/dev/chain/mine', undefined, { blocks: 19 })).code,
    ).toBe(0);

    const adminCreds = await createOperatorAs(baseUrl, suiteServer().operator.token, 'admin');
    const reviewerCreds = await createOperatorAs(baseUrl, suiteServer().operator.token, 'reviewer');
    const apiToken = await operatorApiLogin(
      baseUrl,
      await createOperatorAs(baseUrl, suiteServer().operator.token, 'catalog'),
    );
    const today = new Date().toISOString().slice(0, 10);
    let board: Dashboard | undefined;
    await waitFor('the deposit on the dashboard', async () => {
      board = (await operatorApi<Dashboard>(baseUrl, apiToken, 'GET', '/dashboard')).data;
      const usdt = board.flows.find((f) => f.asset === 'USDT');
      return Number(usdt?.days.find((d) => d.day === today)?.chainDeposits ?? 0) >= 120.5;
    });

    const context = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
    const page = await context.newPage();
    await signInOperator(page, baseUrl, adminCreds, 'en');
    // The console opens on the dashboard.
    await page.getByTestId('dashboard').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/dashboard');
    await expect.poll(() => page.getByTestId('flows-USDT').textContent()).toContain(today);
    await page.getByTestId('ledger-check-run').click();
    await expect
      .poll(() => page.getByTestId('ledger-check').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('ok');
    // The stored result is now this operator's run.
    await expect
      .poll(() => page.getByTestId('ledger-check').textContent(), { timeout: 30_000 })
      .toContain(`by ${adminCreds.username}`);
    expect(await page.getByTestId('ledger-check').textContent()).toContain('All invariants hold');
    // A queue card leads to its queue page.
    expect(await page.getByTestId('queue-withdrawals').getAttribute('href')).toBe(
      '/admin/queues/withdrawals',
    );
    await screenshot(page, 'admin-dashboard-en');

    // How a broken invariant, a losing day and locked funds look: the server's reply, altered in
    // the browser only (the server's own red state is proved in apps/server/test/dashboard.test.ts).
    const real = (await operatorApi<Dashboard>(baseUrl, apiToken, 'GET', '/dashboard')).data;
    const days = real.house.days.map((d, i) =>
      i === 27
        ? { ...d, settlement: '-80', fees: '0.2', net: '-79.8' }
        : i === 29
          ? { ...d, settlement: '120', fees: '0.6', net: '120.6' }
          : d,
    );
    const altered: Dashboard = {
      ...real,
      house: { ...real.house, days },
      obligations: [
        {
          asset: 'USDT',
          scale: 6,
          usersLocked: '292.4',
          openOrders: 1,
          openStakes: '200',
          openFees: '0.4',
          openMaxPayouts: '384',
        },
      ],
      ledgerCheck: {
        id: '1',
        status: 'violations',
        startedAt: new Date().toISOString(),
        durationMs: 42,
        trigger: 'schedule',
        violations: [
          {
            rule: 'locked funds equal open obligations',
            detail: '{"account":"user:7:spot:USDT","locked":"0","obligations":"1"}',
          },
        ],
      },
    };
    await page.route('**/api/admin/v1/dashboard', (route) =>
      route.fulfill({ json: { code: 0, message: 'ok', data: altered } }),
    );
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect
      .poll(() => page.getByTestId('ledger-check').getAttribute('data-status'))
      .toBe('violations');
    expect(await page.getByTestId('ledger-check').textContent()).toContain('1 violation(s)');
    expect(await page.getByTestId('house').textContent()).toContain('-79.8');
    await screenshot(page, 'admin-dashboard-red-en');
    await context.close();

    const zhContext = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
    const zhPage = await zhContext.newPage();
    await signInOperator(zhPage, baseUrl, reviewerCreds, 'zh-CN');
    await zhPage.getByTestId('dashboard').waitFor();
    await expect
      .poll(() => zhPage.getByTestId('ledger-check').textContent())
      .toContain('所有不变量成立');
    await expect
      .poll(() => zhPage.getByTestId('dashboard').textContent())
      .toContain('每日充值与提现');
    await screenshot(zhPage, 'admin-dashboard-zh-CN');
    await zhContext.close();
  });
});
