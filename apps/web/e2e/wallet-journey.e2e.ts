import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import {
  type Envelope,
  PHONE,
  apiCall,
  launchBrowser,
  screenshot,
  signIn,
  waitFor,
} from './browser.ts';
import { PASSWORD, admin, bandedPng, registerByApi } from './images.ts';

/**
 * The wallet issue's whole journey: simulated deposit → balance → transfer → convert →
 * KYC → withdraw → operator approves and completes → the histories and the funds detail
 * show each step, in two languages. Each step runs through the same API the screens call
 * (their own screen journeys are in deposit/transform/kyc/withdrawal.e2e.ts); here the
 * screens are checked for the result of all of them together.
 */

const baseUrl = suiteServer().baseUrl;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let browser: Browser;
let operator: string;

const api = <T>(
  method: 'GET' | 'POST',
  path: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => apiCall<T>(baseUrl, method, path, token, body, headers);

const key = () => `journey-${crypto.randomUUID()}`;

async function uploadPng(token: string, png: Buffer): Promise<string> {
  const form = new FormData();
  form.append('purpose', 'kyc');
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
  const reply = (await (
    await fetch(`${baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
  ).json()) as Envelope<{ id: string }>;
  expect(reply.code, reply.message).toBe(0);
  return reply.data.id;
}

/** The funds detail's event descriptions (issue 32), with the accounts and assets filled in. */
function eventLabels(language: string): Record<string, string> {
  const catalogue = JSON.parse(
    fs.readFileSync(path.join(root, `packages/contract/src/i18n/funds/${language}.json`), 'utf8'),
  ) as { funds_events: Record<string, string> };
  const e = catalogue.funds_events;
  const fill = (template = '', params: Record<string, string>) =>
    template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '');
  return {
    ...e,
    transfer: fill(e.transfer_between, { from: e.wallet_spot ?? '', to: e.wallet_futures ?? '' }),
    conversion: fill(e.conversion_between, { from: 'USDT', to: 'BTC' }),
  };
}

const usdt = async (token: string) =>
  (
    await api<{
      spot: { asset: string; available: string; locked: string }[];
      futures: { available: string };
    }>('GET', '/api/v1/wallet/balances', token)
  ).data;

beforeAll(async () => {
  browser = await launchBrowser();
  operator = suiteServer().operator.token;
  await waitFor(
    'fresh prices',
    async () =>
      (
        await api<{ items: { price: string | null }[] }>('GET', '/api/v1/market/prices')
      ).data.items.every((i) => i.price !== null),
    20_000,
  );
});
afterAll(() => browser?.close());

describe('wallet journey', () => {
  it.each(['en', 'zh_CN'])(
    'deposit → transfer → convert → withdraw → approved, every step on screen (%s)',
    async (language) => {
      const email = `journey-${language.toLowerCase()}-${Date.now()}@example.com`;
      const user = await registerByApi(baseUrl, email);

      // 1. A simulated chain deposit of 500 USDT, credited after 19 confirmations.
      const { address } = (
        await api<{ address: string }>('GET', '/api/v1/deposit/address', user.token)
      ).data;
      expect(
        (await api('POST', '/api/v1/dev/chain/transfer', undefined, { address, amount: '500' }))
          .code,
      ).toBe(0);
      await waitFor(
        'the deposit to be seen',
        async () =>
          (await api<{ items: unknown[] }>('GET', '/api/v1/deposit/history', user.token)).data.items
            .length > 0,
        20_000,
      );
      await api('POST', '/api/v1/dev/chain/mine', undefined, { blocks: 19 });
      await waitFor(
        'the deposit to be credited',
        async () =>
          (await usdt(user.token)).spot.find((s) => s.asset === 'USDT')?.available === '500',
        20_000,
      );

      // 2. Transfer 100 to futures (one's own accounts: no KYC needed).
      const transfer = await api(
        'POST',
        '/api/v1/wallet/transfer',
        user.token,
        { from: 'spot', to: 'futures', asset: 'USDT', amount: '100' },
        { 'idempotency-key': key() },
      );
      expect(transfer.code, transfer.message).toBe(0);

      // 4. KYC, approved by the operator; 5. a withdrawal password.
      const [front, back, face] = await Promise.all([
        uploadPng(
          user.token,
          bandedPng(320, 200, [
            [22, 82, 240],
            [240, 240, 240],
          ]),
        ),
        uploadPng(
          user.token,
          bandedPng(320, 200, [
            [40, 40, 40],
            [230, 200, 60],
          ]),
        ),
        uploadPng(
          user.token,
          bandedPng(200, 240, [
            [250, 220, 190],
            [60, 60, 90],
          ]),
        ),
      ]);
      const kyc = await api('POST', '/api/v1/kyc', user.token, {
        country: 'DE',
        lastName: 'Muster',
        firstName: 'Erika',
        documentType: 'id_card',
        documentNumber: 'T22000129',
        frontFileId: front,
        backFileId: back,
        faceFileId: face,
      });
      expect(kyc.code, kyc.message).toBe(0);
      const queue = await admin<{ items: { id: string; uid: string }[] }>(
        baseUrl,
        operator,
        'GET',
        '/kyc/queue',
      );
      const submission = queue.data.items.find((item) => item.uid === user.uid);
      expect(
        (
          await admin(baseUrl, operator, 'POST', '/kyc/decide', {
            id: submission?.id,
            decision: 'approve',
          })
        ).code,
      ).toBe(0);
      // 3. Convert 50 USDT to BTC: a financial action, so after KYC (spec §5).
      const quote = await api<{ id: string }>('POST', '/api/v1/convert/quote', user.token, {
        from: 'USDT',
        to: 'BTC',
        amount: '50',
      });
      expect(quote.code, quote.message).toBe(0);
      const converted = await api(
        'POST',
        '/api/v1/convert',
        user.token,
        { quoteId: quote.data.id },
        { 'idempotency-key': key() },
      );
      expect(converted.code, converted.message).toBe(0);
      const pin = await api('POST', '/api/v1/money-passwords', user.token, {
        kind: 'withdraw',
        proof: 'login_password',
        loginPassword: PASSWORD,
        password: '246810',
        confirmPassword: '246810',
      });
      expect(pin.code, pin.message).toBe(0);

      // 6. Withdraw 20 USDT (fee 1 locked on top), 7. the operator approves and completes it.
      const withdrawal = await api<{ id: string }>(
        'POST',
        '/api/v1/withdrawals',
        user.token,
        {
          asset: 'USDT',
          network: 'TRC20',
          address: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
          amount: '20',
          password: '246810',
        },
        { 'idempotency-key': key() },
      );
      expect(withdrawal.code, withdrawal.message).toBe(0);
      const locked = (await usdt(user.token)).spot.find((s) => s.asset === 'USDT');
      expect(locked).toMatchObject({ available: '329', locked: '21' });
      const withdrawalId = withdrawal.data.id;
      expect(
        (
          await admin(baseUrl, operator, 'POST', '/withdrawals/review', {
            id: withdrawalId,
            decision: 'approve',
          })
        ).code,
      ).toBe(0);
      const txid = crypto.randomBytes(32).toString('hex');
      expect(
        (
          await admin(baseUrl, operator, 'POST', '/withdrawals/complete', {
            id: withdrawalId,
            txid,
          })
        ).code,
      ).toBe(0);
      const after = await usdt(user.token);
      expect(after.spot.find((s) => s.asset === 'USDT')).toMatchObject({
        available: '329',
        locked: '0',
      });
      expect(after.futures.available).toBe('100');

      // The screens, in the user's language.
      const context = await browser.newContext({ viewport: PHONE, baseURL: baseUrl });
      const page = await context.newPage();
      await signIn(page, user, language);

      await page.goto('/RechargeHistory');
      await expect.poll(() => page.getByText('500', { exact: false }).count()).toBeGreaterThan(0);
      await screenshot(page, `${language}-journey-RechargeHistory`);

      await page.goto('/WithdrawalHistory');
      await expect
        .poll(() => page.getByText(txid.slice(0, 6), { exact: false }).count())
        .toBeGreaterThan(0);
      await screenshot(page, `${language}-journey-WithdrawalHistory`);

      await page.goto('/WalletDetail');
      const labels = eventLabels(language);
      for (const kind of [
        'deposit',
        'transfer',
        'conversion',
        'withdrawal_request',
        'withdrawal_complete',
      ]) {
        await expect
          .poll(() => page.getByText(labels[kind] as string, { exact: true }).count(), {
            message: `${language} ${kind}`,
          })
          .toBeGreaterThan(0);
      }
      await screenshot(page, `${language}-journey-WalletDetail`);

      await page.goto('/Wallet');
      await expect.poll(() => page.getByText('329', { exact: false }).count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await screenshot(page, `${language}-journey-Wallet`);
      await context.close();
    },
  );
});
