import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, launchBrowser, outboxCode, screenshot } from './browser.ts';
import { scanQr } from './images.ts';

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

let counter = 0;
const PASSWORD = 'e2e-password-1';

async function api<T>(path: string, options: { token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.body === undefined ? 'GET' : 'POST',
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const envelope = (await response.json()) as { code: number; data: T };
  if (envelope.code !== 0) throw new Error(`${path}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

async function newUser(): Promise<{ token: string; uid: string }> {
  const email = `e2e-deposit${Date.now()}${++counter}@example.com`;
  await api('/api/v1/auth/codes', {
    body: { channel: 'email', account: email, purpose: 'register' },
  });
  const code = await outboxCode(baseUrl, email);
  return api('/api/v1/auth/register', {
    body: {
      mode: 'code',
      channel: 'email',
      account: email,
      code,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    },
  });
}

const TEXT = {
  en: {
    title: 'Deposit',
    badge: 'Network: TRC20',
    warning: 'Send only USDT on the TRON (TRC20) network',
    simulate: 'Simulate deposit',
    copied: 'Copied',
    empty: 'No deposits yet',
    pending: 'Pending payment',
    paid: 'Paid',
    rejected: 'Rejected',
    belowMinimum: 'Below the minimum deposit: not credited.',
    historyTitle: 'Deposit history',
  },
  zh_CN: {
    title: '充值',
    badge: '网络：TRC20',
    warning: '请仅向此地址发送 TRON（TRC20）网络上的 USDT',
    simulate: '模拟充值',
    copied: '已复制',
    empty: '暂无充值记录',
    pending: '待支付',
    paid: '已支付',
    rejected: '已拒绝',
    belowMinimum: '低于最低充值金额，未入账。',
    historyTitle: '充值记录',
  },
} as const;

describe('crypto deposit in Chromium at 390×844', () => {
  it.each(['en', 'zh_CN'] as const)(
    '%s: /Recharge shows the address and a QR code that scans; a simulated deposit is credited once confirmed',
    async (language) => {
      const text = TEXT[language];
      const user = await newUser();
      const context = await browser.newContext({
        viewport: PHONE,
        baseURL: baseUrl,
        locale: 'en-US',
      });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
      await context.addInitScript(
        ({ token, uid, lang }) => {
          localStorage.setItem('token', token);
          localStorage.setItem('uid', uid);
          localStorage.setItem('lang', lang);
        },
        { ...user, lang: language },
      );
      const page = await context.newPage();
      await page.goto('/RechargeHistory');
      await expect.poll(() => page.getByText(text.empty, { exact: true }).count()).toBe(1);
      await screenshot(page, `${language}-deposit-history-empty`);
      await page.goto('/Recharge');

      const { address } = await api<{ address: string }>('/api/v1/deposit/address', {
        token: user.token,
      });
      await expect.poll(() => page.getByTestId('deposit-address').textContent()).toBe(address);
      expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      expect(await page.locator('h1').first().textContent()).toBe(text.title);
      expect(await page.getByText(text.badge).count()).toBe(1);
      expect(await page.getByText(text.warning).count()).toBe(1);
      expect(await scanQr(page, 'deposit-qr')).toBe(address);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await screenshot(page, `${language}-deposit-recharge`);

      await page.getByTestId('deposit-copy').click();
      await expect.poll(() => page.getByText(text.copied, { exact: true }).count()).toBe(1);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);

      // Demo: send 100 USDT to this address on the simulated chain.
      await page.getByRole('button', { name: text.simulate }).click();
      // The worker records it within a few seconds: pending until 19 blocks confirm it.
      await expect
        .poll(
          async () =>
            (
              await api<{ items: { status: string }[] }>('/api/v1/deposit/history', {
                token: user.token,
              })
            ).items.map((i) => i.status),
          { timeout: 15_000 },
        )
        .toEqual(['pending_payment']);
      await page.goto('/RechargeHistory');
      await expect.poll(() => page.getByText(text.pending, { exact: true }).count()).toBe(1);
      expect(await page.getByText('+100 USDT').count()).toBe(1);
      await screenshot(page, `${language}-deposit-history-pending`);

      // Mine 19 blocks at once; the worker then credits the deposit, once.
      await api('/api/v1/dev/chain/mine', { body: { blocks: 19 } });
      const spotUsdt = async () =>
        (
          await api<{ spot: { asset: string; available: string }[] }>('/api/v1/wallet/balances', {
            token: user.token,
          })
        ).spot.find((s) => s.asset === 'USDT')?.available;
      await expect.poll(spotUsdt, { timeout: 15_000 }).toBe('100');
      // The history page refreshes itself while a deposit is pending.
      await expect
        .poll(() => page.getByText(text.paid, { exact: true }).count(), { timeout: 15_000 })
        .toBe(1);
      expect(await page.getByText('19/19').count()).toBe(1);
      expect(await page.locator('h1').first().textContent()).toBe(text.historyTitle);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await screenshot(page, `${language}-deposit-history`);

      // Below the 1 USDT minimum: rejected with its reason, never credited; later runs change nothing.
      await api('/api/v1/dev/chain/transfer', { body: { address, amount: '0.5' } });
      await expect
        .poll(
          async () =>
            (
              await api<{ items: { status: string }[] }>('/api/v1/deposit/history', {
                token: user.token,
              })
            ).items.map((i) => i.status),
          { timeout: 15_000 },
        )
        .toEqual(['rejected', 'paid']);
      await page.reload();
      await expect.poll(() => page.getByText(text.rejected, { exact: true }).count()).toBe(1);
      expect(await page.getByText(text.belowMinimum).count()).toBe(1);
      await screenshot(page, `${language}-deposit-history-rejected`);
      await api('/api/v1/dev/chain/mine', { body: { blocks: 19 } });
      await new Promise((resolve) => setTimeout(resolve, 4000));
      expect(await spotUsdt()).toBe('100');
      await context.close();
    },
  );
});
