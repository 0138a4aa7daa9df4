import crypto from 'node:crypto';
import type { Loan, LoanList } from '@tradewind/contract/loans';
import type { Browser, Page } from 'playwright-core';
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
import { admin, bandedPng, registerByApi } from './images.ts';

/**
 * Assisted loans (/Loan, /LoansHistory) against the real server and its demo loan
 * products: a verified user applies on /Loan with three ID photos, the operator approves
 * and disburses through the API (500 USDT credited to spot), and the user repays from
 * /LoansHistory (principal + one day's interest), in two languages.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
let operator: string;

const api = <T>(method: 'GET' | 'POST', path: string, token?: string, body?: unknown) =>
  apiCall<T>(baseUrl, method, path, token, body);

const TEXT = {
  en: {
    tag: 'en',
    product: 'Quick loan',
    uploaded: 'Uploaded',
    apply: 'Apply',
    applied: 'Application for 500 USDT sent for review',
    review: 'Under review',
    disbursed: 'Disbursed',
    repaid: 'Repaid',
    repay: 'Repay',
    done: 'Loan repaid',
    due: '500.5 USDT',
    interest: '3.5 USDT',
  },
  de: {
    tag: 'de',
    product: 'Schnellkredit',
    uploaded: 'Hochgeladen',
    apply: 'Beantragen',
    applied: 'Antrag über 500 USDT zur Prüfung gesendet',
    review: 'In Prüfung',
    disbursed: 'Ausgezahlt',
    repaid: 'Zurückgezahlt',
    repay: 'Zurückzahlen',
    done: 'Kredit zurückgezahlt',
    due: '500,5 USDT',
    interest: '3,5 USDT',
  },
} as const;

const PHOTOS = {
  front: bandedPng(320, 200, [
    [22, 82, 240],
    [240, 240, 240],
    [200, 60, 60],
  ]),
  back: bandedPng(320, 200, [
    [40, 40, 40],
    [230, 200, 60],
  ]),
  holding: bandedPng(200, 240, [
    [250, 220, 190],
    [120, 80, 50],
    [60, 60, 90],
  ]),
};

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

const spotUsdt = async (token: string) =>
  (
    await api<{ spot: { asset: string; available: string }[] }>(
      'GET',
      '/api/v1/wallet/balances',
      token,
    )
  ).data.spot.find((s) => s.asset === 'USDT')?.available;

/** A new user with 100 USDT in spot (simulated chain deposit) and KYC approved by the operator. */
async function readyUser(language: string) {
  const user = await registerByApi(
    baseUrl,
    `loan-${language}-${crypto.randomBytes(4).toString('hex')}@example.com`,
  );
  const { address } = (await api<{ address: string }>('GET', '/api/v1/deposit/address', user.token))
    .data;
  expect(
    (await api('POST', '/api/v1/dev/chain/transfer', undefined, { address, amount: '100' })).code,
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
    async () => (await spotUsdt(user.token)) === '100',
    20_000,
  );
  const [front, face] = await Promise.all([
    uploadPng(user.token, PHOTOS.front),
    uploadPng(user.token, PHOTOS.holding),
  ]);
  const kyc = await api('POST', '/api/v1/kyc', user.token, {
    country: 'DE',
    lastName: 'Muster',
    firstName: 'Erika',
    documentType: 'passport',
    documentNumber: 'C01X00T47',
    frontFileId: front,
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
  return user;
}

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );

beforeAll(async () => {
  browser = await launchBrowser();
  operator = suiteServer().operator.token;
});
afterAll(() => browser?.close());

describe.each(['en', 'de'] as const)('an assisted loan in %s', (language) => {
  it(
    'apply with ID photos → operator approves and disburses → repay from /LoansHistory',
    { timeout: 120_000 },
    async () => {
      const text = TEXT[language];
      const user = await readyUser(language);
      const context = await browser.newContext({
        viewport: PHONE,
        baseURL: baseUrl,
        locale: text.tag,
      });
      const page = await context.newPage();
      await signIn(page, user, language);

      await page.goto('/Loan');
      await expect
        .poll(() => page.locator('.tw-loan-title').first().textContent())
        .toBe(text.product);
      await noSidewaysScroll(page);
      await screenshot(page, `${language}-Loan`);

      await page.locator('input[name="amount"]').fill('500');
      await expect.poll(() => page.getByTestId('loan-interest').textContent()).toBe(text.interest);
      for (const field of ['front', 'back', 'holding'] as const) {
        await page
          .locator(`input[name="${field}"]`)
          .setInputFiles({ name: `${field}.png`, mimeType: 'image/png', buffer: PHOTOS[field] });
      }
      await expect.poll(() => page.getByText(text.uploaded, { exact: true }).count()).toBe(3);
      await noSidewaysScroll(page);
      await screenshot(page, `${language}-Loan-application`);
      await page.getByRole('button', { name: text.apply, exact: true }).click();
      await expect
        .poll(() => page.locator('.adm-toast-main', { hasText: text.applied }).count())
        .toBe(1);
      await page.waitForURL(/\/LoansHistory$/);
      await expect
        .poll(() => page.locator('section[data-loan-id] [data-status]').textContent())
        .toBe(text.review);

      // The operator approves and disburses through the API.
      const mine = (await api<LoanList>('GET', '/api/v1/loans', user.token)).data.items;
      const id = mine[0]?.id as string;
      const queue = await admin<{ items: { id: string; uid: string }[] }>(
        baseUrl,
        operator,
        'GET',
        '/loans/queue',
      );
      expect(queue.data.items.find((i) => i.id === id)?.uid).toBe(user.uid);
      expect(
        (await admin(baseUrl, operator, 'POST', '/loans/decide', { id, decision: 'approve' })).code,
      ).toBe(0);
      expect((await admin(baseUrl, operator, 'POST', '/loans/disburse', { id })).code).toBe(0);
      expect(await spotUsdt(user.token)).toBe('600');

      await page.reload();
      await expect
        .poll(() => page.locator(`section[data-loan-id="${id}"] [data-status]`).textContent())
        .toBe(text.disbursed);
      await expect.poll(() => page.getByTestId('loan-due-now').textContent()).toBe(text.due);
      await noSidewaysScroll(page);
      await screenshot(page, `${language}-LoansHistory`);

      // Repay: one day's interest (500 × 0.1 %) with the principal.
      await page
        .locator(`section[data-loan-id="${id}"]`)
        .getByRole('button', { name: text.repay })
        .click();
      await page.locator('.adm-dialog').getByRole('button', { name: text.repay }).click();
      await expect
        .poll(() => page.locator('.adm-toast-main', { hasText: text.done }).count())
        .toBe(1);
      await expect
        .poll(() => page.locator(`section[data-loan-id="${id}"] [data-status]`).textContent())
        .toBe(text.repaid);
      expect((await api<Loan>('GET', `/api/v1/loan?id=${id}`, user.token)).data).toMatchObject({
        status: 'repaid',
        repaidAmount: '500.5',
      });
      expect(await spotUsdt(user.token)).toBe('99.5');
      // The toast (2 s) and the dialog have gone.
      await expect.poll(() => page.locator('.adm-toast-main').count(), { timeout: 5_000 }).toBe(0);
      await expect.poll(() => page.locator('.adm-dialog-body').isVisible()).toBe(false);
      await screenshot(page, `${language}-LoansHistory-repaid`);
      await context.close();
    },
  );
});
