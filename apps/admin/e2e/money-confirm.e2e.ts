import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from '../../web/e2e/suite-server.ts';
import { apiCall, launchBrowser, screenshot, waitFor } from '../../web/e2e/browser.ts';
import { PASSWORD, registerByApi, uploadBandedPng } from '../../web/e2e/images.ts';
import {
  DESKTOP,
  type OperatorCredentials,
  createOperatorAs,
  operatorApi,
  signInOperator,
} from './operator.ts';

/**
 * Issue 29: the console treats money with care. A money button only opens a confirmation that
 * names the user, the asset and the amount (the fee and what the user receives where they
 * apply); nothing is sent and nothing changes until the operator confirms there. The audit log
 * then shows what the action changed, field by field.
 */

const baseUrl = suiteServer().baseUrl;
const PIN = '480316';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const TXID = 'a1'.repeat(32);

let browser: Browser;
const operators: Partial<Record<'en' | 'zh-CN', OperatorCredentials>> = {};
beforeAll(async () => {
  browser = await launchBrowser();
  const adminToken = suiteServer().operator.token;
  operators.en = await createOperatorAs(baseUrl, adminToken, 'admin');
  operators['zh-CN'] = await createOperatorAs(baseUrl, adminToken, 'admin');
});
afterAll(() => browser?.close());

type Session = { token: string; uid: string };
const key = () => crypto.randomUUID();
const api = <T = unknown>(
  method: 'GET' | 'POST',
  path: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => apiCall<T>(baseUrl, method, path, token, body, headers);
const admin = <T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown) =>
  operatorApi<T>(baseUrl, suiteServer().operator.token, method, path, body);

const register = (): Promise<Session> =>
  registerByApi(
    baseUrl,
    `e2e-money-${Date.now()}-${crypto.randomBytes(2).toString('hex')}@example.com`,
  );
const upload = (user: Session, purpose: 'kyc' | 'card_deposit') =>
  uploadBandedPng(baseUrl, user.token, purpose);

const spotUsdt = async (user: Session) =>
  (
    await api<{ spot: { asset: string; available: string; locked: string }[] }>(
      'GET',
      '/api/v1/wallet/balances',
      user.token,
    )
  ).data.spot.find((s) => s.asset === 'USDT') ?? { available: '0', locked: '0' };

/** Counts the console's POSTs to an operator route: none may leave before the confirmation. */
function countPosts(page: Page, route: string) {
  const sent = { n: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith(`/api/admin/v1${route}`)) sent.n++;
  });
  return sent;
}

async function consolePage(language: 'en' | 'zh-CN') {
  const context = await browser.newContext({
    viewport: DESKTOP,
    baseURL: baseUrl,
    locale: language,
  });
  const page = await context.newPage();
  await signInOperator(page, baseUrl, operators[language] as OperatorCredentials, language);
  return { context, page };
}

const text = async (page: Page, testId: string) =>
  (await page.getByTestId(testId).textContent())?.trim();

describe('the console treats money with care', () => {
  it(
    'crediting a card deposit asks first with user, asset, amount, fee and credit; the audit log shows the change field by field',
    { timeout: 180_000 },
    async () => {
      for (const language of ['en', 'zh-CN'] as const) {
        const user = await register();
        const reported = await api<{ id: string; fee: string; actualAmount: string }>(
          'POST',
          '/api/v1/card-deposits',
          user.token,
          { amount: '500', screenshotFileId: await upload(user, 'card_deposit') },
          { 'idempotency-key': key() },
        );
        expect(reported.code, reported.message).toBe(0);
        const { id, fee, actualAmount } = reported.data;

        const { context, page } = await consolePage(language);
        const decisions = countPosts(page, '/card-deposits/decide');
        await page.goto('/admin/queues/card-deposits');
        await page.getByTestId(`card-deposit-row-${id}`).click();
        await page.getByTestId('card-deposit-drawer').getByTestId('decision-approve').click();

        // The confirmation names who, what and how much; nothing has been sent or credited.
        await page.getByTestId('money-confirm-ok').waitFor();
        expect(await text(page, 'money-user')).toBe(user.uid);
        expect(await text(page, 'money-asset')).toBe('USDT');
        expect(await text(page, 'money-amount')).toBe('500 USDT');
        expect(await text(page, 'money-fee')).toBe(`${fee} USDT`);
        expect(await text(page, 'money-receives')).toBe(`${actualAmount} USDT`);
        await page.waitForTimeout(400);
        await screenshot(page, `admin-money-confirm-card-deposit-${language}`);
        expect(decisions.n).toBe(0);
        expect(await spotUsdt(user)).toMatchObject({ available: '0' });

        // Cancel: still nothing. Then approve again and confirm: credited once.
        await page.getByTestId('money-confirm-cancel').click();
        await expect.poll(() => page.getByTestId('money-confirm-ok').count()).toBe(0);
        expect(decisions.n).toBe(0);
        expect(await page.getByTestId(`card-deposit-row-${id}`).count()).toBe(1);
        await page.getByTestId('card-deposit-drawer').getByTestId('decision-approve').click();
        await page.getByTestId('money-confirm-ok').dblclick();
        await expect.poll(() => page.getByTestId(`card-deposit-row-${id}`).count()).toBe(0);
        expect(decisions.n).toBe(1);
        expect(await spotUsdt(user)).toMatchObject({ available: actualAmount });

        // The audit log: the status change and the credited amount with its asset, as a table.
        await page.goto('/admin/audit');
        await page.getByTestId('audit-action').fill('card_deposit.approve');
        await page.getByTestId('audit-filter').click();
        const entry = page.locator('[data-testid="audit-table"] tr[data-row-key]').first();
        await expect.poll(() => entry.textContent()).toContain(`card_deposit #${id}`);
        const status = entry.getByTestId('audit-change-status');
        expect(await status.getByTestId('before').textContent()).toBe('pending');
        expect(await status.getByTestId('after').textContent()).toBe('paid');
        expect(
          await entry.getByTestId('audit-change-credited').getByTestId('after').textContent(),
        ).toBe(`${actualAmount} USDT`);
        // Readable at 1280 px: no page-wide sideways scroll, and no cell squeezed to a few characters.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          DESKTOP.width,
        );
        const width = await entry.getByTestId('audit-changes').evaluate((el) => el.clientWidth);
        expect(width).toBeGreaterThan(360);
        await screenshot(page, `admin-audit-log-${language}`);
        await context.close();
      }
    },
  );

  it(
    'approving a withdrawal and recording it sent each ask first; only the confirmation acts',
    { timeout: 180_000 },
    async () => {
      // A verified user with a withdrawal password and 100 USDT asks to withdraw 30.
      const user = await register();
      const kyc = await api<{ submission: { id: string } }>('POST', '/api/v1/kyc', user.token, {
        country: 'DE',
        lastName: 'Vogel',
        firstName: 'Mara',
        documentType: 'passport',
        documentNumber: 'C01X00T48',
        frontFileId: await upload(user, 'kyc'),
        faceFileId: await upload(user, 'kyc'),
      });
      expect(kyc.code, kyc.message).toBe(0);
      const verified = await admin('POST', '/kyc/decide', {
        id: kyc.data.submission.id,
        decision: 'approve',
      });
      expect(verified.code, verified.message).toBe(0);
      const pin = await api('POST', '/api/v1/money-passwords', user.token, {
        kind: 'withdraw',
        proof: 'login_password',
        loginPassword: PASSWORD,
        password: PIN,
        confirmPassword: PIN,
      });
      expect(pin.code, pin.message).toBe(0);
      const { address } = (
        await api<{ address: string }>('GET', '/api/v1/deposit/address', user.token)
      ).data;
      await api('POST', '/api/v1/dev/chain/transfer', undefined, { address, amount: '100' });
      await waitFor(
        'the deposit to be seen',
        async () =>
          (await api<{ items: unknown[] }>('GET', '/api/v1/deposit/history', user.token)).data.items
            .length > 0,
      );
      await api('POST', '/api/v1/dev/chain/mine', undefined, { blocks: 19 });
      await waitFor(
        'the deposit to be credited',
        async () => (await spotUsdt(user)).available === '100',
      );
      const asked = await api<{ id: string; fee: string }>(
        'POST',
        '/api/v1/withdrawals',
        user.token,
        { asset: 'USDT', network: 'TRC20', address: TRON, amount: '30', password: PIN },
        { 'idempotency-key': key() },
      );
      expect(asked.code, asked.message).toBe(0);
      const { id, fee } = asked.data;
      const locked = (await spotUsdt(user)).locked;
      const status = async () =>
        (
          await admin<{ items: { id: string; status: string }[] }>(
            'GET',
            '/withdrawals/queue?status=processing',
          )
        ).data.items.find((item) => item.id === id)?.status ?? 'not processing';

      const { context, page } = await consolePage('en');
      const reviews = countPosts(page, '/withdrawals/review');
      const completions = countPosts(page, '/withdrawals/complete');
      await page.goto('/admin/queues/withdrawals');
      await page.getByTestId(`withdrawal-row-${id}`).click();
      await page.getByTestId('withdrawal-drawer').getByTestId('decision-approve').click();
      await page.getByTestId('money-confirm-ok').waitFor();
      expect(await text(page, 'money-user')).toBe(user.uid);
      expect(await text(page, 'money-asset')).toBe('USDT');
      expect(await text(page, 'money-amount')).toBe(`${locked} USDT`);
      expect(await text(page, 'money-fee')).toBe(`${fee} USDT`);
      expect(await text(page, 'money-receives')).toBe('30 USDT');
      expect(await page.getByTestId('money-confirm').textContent()).toContain(TRON);
      await page.waitForTimeout(400);
      await screenshot(page, 'admin-money-confirm-withdrawal-en');
      expect(reviews.n).toBe(0);
      expect(await status()).toBe('not processing');

      await page.getByTestId('money-confirm-ok').click();
      await expect.poll(() => page.getByTestId(`withdrawal-row-${id}`).count()).toBe(0);
      expect(reviews.n).toBe(1);
      expect(await status()).toBe('processing');

      // Recording the transfer as sent asks again, with the transaction id.
      await page.getByTestId('withdrawal-status').getByText('To send (processing)').click();
      await page.getByTestId(`withdrawal-row-${id}`).click();
      await page.getByTestId('withdrawal-txid').fill(TXID);
      await page.getByTestId('withdrawal-complete').click();
      await page.getByTestId('money-confirm-ok').waitFor();
      expect(await text(page, 'money-receives')).toBe('30 USDT');
      expect(await page.getByTestId('money-confirm').textContent()).toContain(TXID);
      expect(completions.n).toBe(0);
      expect(await spotUsdt(user)).toMatchObject({ locked });
      await page.getByTestId('money-confirm-ok').click();
      await expect.poll(() => page.getByTestId(`withdrawal-row-${id}`).count()).toBe(0);
      expect(completions.n).toBe(1);
      expect(await spotUsdt(user)).toMatchObject({ locked: '0' });
      await context.close();
    },
  );
});
