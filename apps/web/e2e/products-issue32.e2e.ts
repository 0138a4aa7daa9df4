import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IeoProject } from '@tradewind/contract/ieo';
import type { LoanProduct } from '@tradewind/contract/loans';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, apiCall, launchBrowser, screenshot, signIn, waitFor } from './browser.ts';
import { admin, bandedPng, registerByApi } from './images.ts';
import { makeReady } from './ready-user.ts';
import { suiteServer } from './suite-server.ts';

/**
 * Issue 32 in the browser, in English, simplified Chinese and German: /Loan says an unsettled
 * loan up front (no form, a link to the loan); /IEOHis shows a cancelled subscription's reason
 * on its own line; the miner sheet promises review or an immediate start as the install's
 * MINING_AUTO_APPROVE says; with loans switched off, /Loan and Home's menu say "Loan feature
 * under development". Settings changed here are set back before the test ends.
 */

const server = suiteServer();
const baseUrl = server.baseUrl;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let browser: Browser;

const api = <T>(method: 'GET' | 'POST', url: string, token?: string, body?: unknown) =>
  apiCall<T>(baseUrl, method, url, token, body);

type Language = 'en' | 'zh_CN' | 'de';
/** The screens' own words, from the feature's locale file (nothing restated here can drift). */
function words(feature: string, language: Language): Record<string, string> {
  const file = path.join(root, `src/features/${feature}/locales/${language}.json`);
  return JSON.parse(fs.readFileSync(file, 'utf8'))[feature === 'home' ? 'home' : feature];
}
const TAG: Record<Language, string> = { en: 'en', zh_CN: 'zh-CN', de: 'de' };
/** A fixed part of each rent-sheet text ({{amount}} and {{days}} left out). */
const SHEET: Record<Language, { review: string; instant: string }> = {
  en: { review: 'After review the rental runs', instant: 'The rental starts at once' },
  zh_CN: { review: '审核通过后运行', instant: '租用立即开始' },
  de: { review: 'Nach der Prüfung läuft die Miete', instant: 'Die Miete beginnt sofort' },
};

/** One admin requests, the other approves: as the console does it. */
async function setShared(name: string, value: string): Promise<void> {
  const requested = await admin<{ id: string }>(
    baseUrl,
    server.operator.token,
    'POST',
    '/settings/shared',
    { name, value, reason: 'issue 32 browser test' },
  );
  if (requested.code === 3744) return; // already this value
  expect(requested.code).toBe(0);
  const decided = await admin(baseUrl, server.approver.token, 'POST', '/settings/shared/decide', {
    id: requested.data.id,
    decision: 'approve',
  });
  expect(decided.code).toBe(0);
}

async function uploadPng(token: string, purpose: string, seed: number): Promise<string> {
  const png = bandedPng(240, 160, [
    [20 + seed * 30, 82, 240],
    [240, 240, 240],
  ]);
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
  const reply = (await (
    await fetch(`${baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
  ).json()) as { code: number; data: { id: string } };
  expect(reply.code).toBe(0);
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

/** A verified user (KYC approved by the operator) with `usdt` in spot from a mined deposit. */
async function readyUser(language: Language, usdt = '0') {
  const user = await registerByApi(
    baseUrl,
    `i32-${language.toLowerCase()}-${crypto.randomBytes(4).toString('hex')}@example.com`,
  );
  await makeReady(baseUrl, user);
  if (usdt === '0') return user;
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
    20_000,
  );
  await api('POST', '/api/v1/dev/chain/mine', undefined, { blocks: 19 });
  await waitFor(
    'the deposit to be credited',
    async () => (await spotUsdt(user.token)) === usdt,
    20_000,
  );
  return user;
}

async function openPage(
  language: Language,
  user: { token: string; uid: string },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: PHONE,
    baseURL: baseUrl,
    locale: TAG[language],
  });
  const page = await context.newPage();
  await signIn(page, user, language);
  return { context, page };
}

const fitsPhone = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await setShared('PRODUCT_LOANS_ENABLED', 'true');
  await setShared('MINING_AUTO_APPROVE', 'false');
  await browser?.close();
});

describe.each(['en', 'zh_CN', 'de'] as const)('issue 32 in %s', (language) => {
  it('/Loan says an unsettled loan up front with a link to it, and shows no form', async () => {
    const loans = words('loans', language);
    const user = await readyUser(language);
    const product = (
      await api<{ items: LoanProduct[] }>('GET', '/api/v1/loans/products', user.token)
    ).data.items[0] as LoanProduct;
    const applied = await api<{ id: string }>('POST', '/api/v1/loans', user.token, {
      productId: product.id,
      amount: product.minAmount,
      periodDays: product.periods[0],
      frontFileId: await uploadPng(user.token, 'loan', 1),
      backFileId: await uploadPng(user.token, 'loan', 2),
      holdingFileId: await uploadPng(user.token, 'loan', 3),
    });
    expect(applied.code).toBe(0);

    const { context, page } = await openPage(language, user);
    await page.goto('/Loan');
    const notice = page.getByTestId('loan-unsettled');
    await expect.poll(() => notice.textContent()).toContain(loans.unsettled);
    // Nothing to fill in: no amount field, no photo upload, no Apply button.
    expect(await page.locator('input[name="amount"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: loans.apply, exact: true }).count()).toBe(0);
    await fitsPhone(page);
    await screenshot(page, `${language}-Loan-unsettled`);

    await notice.getByRole('link', { name: loans.view_loan }).click();
    await page.waitForURL(new RegExp(`/LoansHistory\\?id=${applied.data.id}$`));
    await expect
      .poll(() =>
        page.locator(`section[data-loan-id="${applied.data.id}"].tw-loan-highlight`).count(),
      )
      .toBe(1);
    await screenshot(page, `${language}-LoansHistory-focused`);
    await context.close();
  });

  it('/IEOHis shows why a subscription was cancelled, in plain words', async () => {
    const ieo = words('ieo', language);
    const user = await readyUser(language, '50');
    const now = Date.now();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const token = `C${crypto.randomBytes(3).toString('hex').toUpperCase()}`.replace(
      /[^A-Z0-9]/g,
      'X',
    );
    const created = await admin<IeoProject>(baseUrl, server.operator.token, 'POST', '/ieo/create', {
      slug: `i32-${language.toLowerCase().replace('_', '-')}-${now}`,
      token,
      tokenName: `Cancelled ${token}`,
      name: { en: `Cancelled ${token}`, zh_CN: `已取消 ${token}`, de: `Abgesagt ${token}` },
      description: { en: 'A project that will be cancelled.' },
      supply: '1000',
      unitPrice: '1',
      priceMin: '1',
      priceMax: '1',
      perUserCap: '100',
      startsAt: at(-60_000),
      endsAt: at(86_400_000),
      listsAt: at(2 * 86_400_000),
      announcedAt: at(-120_000),
    });
    expect(created.code).toBe(0);
    const subscribed = await apiCall(
      baseUrl,
      'POST',
      '/api/v1/ieo/subscribe',
      user.token,
      { projectId: created.data.id, price: '1', quantity: '20' },
      { 'idempotency-key': crypto.randomUUID() },
    );
    expect(subscribed.code).toBe(0);
    // A reason that ends with a full stop: it once ran into the next sentence ("refunded.. All").
    const reason = 'The issuer withdrew the token. Funds refunded.';
    const cancelled = await admin(baseUrl, server.operator.token, 'POST', '/ieo/cancel', {
      id: created.data.id,
      reason,
    });
    expect(cancelled.code).toBe(0);

    const { context, page } = await openPage(language, user);
    await page.goto('/IEOHis');
    const card = page.locator(`section[data-application-id]`, { hasText: token });
    const note = card.getByTestId('ieo-cancel-note');
    await expect.poll(() => note.textContent()).toContain(reason);
    const text = (await note.textContent()) ?? '';
    expect(text).toContain(ieo.cancelled_note);
    expect(text).not.toContain('..');
    await fitsPhone(page);
    await screenshot(page, `${language}-IEOHis-cancelled`);
    await context.close();
  });

  it('the miner sheet promises review, or an immediate start when rentals skip review', async () => {
    const mining = words('mining', language);
    const user = await readyUser(language);
    const { context, page } = await openPage(language, user);
    const openSheet = async () => {
      await page.goto('/Mining');
      await page.getByRole('button', { name: mining.rent, exact: true }).first().click();
      await expect.poll(() => page.locator('.tw-mining-popup').isVisible()).toBe(true);
      return page.locator('.tw-mining-disclosure');
    };
    try {
      await setShared('MINING_AUTO_APPROVE', 'false');
      const reviewed = await openSheet();
      await expect.poll(() => reviewed.textContent()).toContain(SHEET[language].review);
      expect(await reviewed.textContent()).not.toContain(SHEET[language].instant);
      await screenshot(page, `${language}-Mining-sheet-review`);

      await setShared('MINING_AUTO_APPROVE', 'true');
      await page.reload();
      const instant = await openSheet();
      await expect.poll(() => instant.textContent()).toContain(SHEET[language].instant);
      expect(await instant.textContent()).not.toContain(SHEET[language].review);
      await screenshot(page, `${language}-Mining-sheet-instant`);
    } finally {
      await setShared('MINING_AUTO_APPROVE', 'false');
      await context.close();
    }
  });

  it('loans switched off: /Loan and the Home menu say "Loan feature under development"', async () => {
    const loans = words('loans', language);
    const home = words('home', language);
    const user = await readyUser(language);
    const { context, page } = await openPage(language, user);
    try {
      await setShared('PRODUCT_LOANS_ENABLED', 'false');
      await page.goto('/Loan');
      await expect.poll(() => page.getByTestId('product-off').textContent()).toBe(loans.off);
      expect(await page.locator('input[name="amount"]').count()).toBe(0);
      await screenshot(page, `${language}-Loan-off`);

      await page.goto('/');
      const entry = page.locator('button[data-product-off="loans"]');
      await entry.click();
      await expect
        .poll(() =>
          page
            .locator('.adm-toast-main', {
              hasText: (home.product_off as unknown as Record<string, string>).loans,
            })
            .count(),
        )
        .toBe(1);
      await screenshot(page, `${language}-Home-loans-off`);
      if (language === 'en') expect(loans.off).toBe('Loan feature under development');
    } finally {
      await setShared('PRODUCT_LOANS_ENABLED', 'true');
      await context.close();
    }
  });
});
