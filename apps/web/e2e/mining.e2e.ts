import type { MiningProduct, MiningRentalDetail } from '@tradewind/contract/mining';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, apiCall, launchBrowser, screenshot, signIn, waitFor } from './browser.ts';
import { admin, registerByApi } from './images.ts';
import { makeReady } from './ready-user.ts';

/**
 * Cloud-miner rental against the real server and its demo miners: rent on /MiningInfo
 * (paid from spot USDT), the operator approves through the API, the payout worker pays
 * day 1 (the e2e server runs MINING_DAY_SECONDS=5, a demo-mode-only setting) and
 * /MiningDetail shows it; /Mining and /MiningHis along the way.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
let operator: string;
beforeAll(async () => {
  browser = await launchBrowser();
  operator = suiteServer().operator.token;
});
afterAll(() => browser?.close());

const api = <T>(
  method: 'GET' | 'POST',
  path: string,
  token?: string,
  body?: unknown,
  lang = 'en',
) => apiCall<T>(baseUrl, method, path, token, body, { 'accept-language': lang });

const TEXT = {
  en: {
    tag: 'en',
    name: 'Antminer S19 XP cloud miner',
    rent: 'Rent',
    pay: 'Pay 200 USDT',
    rented: 'Rental submitted for review',
    review: 'Under review',
    active: 'Active',
    day1: 'Day 1',
    yield: '+0.6 USDT',
    amount: '200 USDT',
    all: 'All',
    terms: 'Description, costs and risks',
    risk: 'this is not a bank deposit',
  },
  de: {
    tag: 'de',
    name: 'Antminer S19 XP Cloud-Miner',
    rent: 'Mieten',
    pay: '200 USDT bezahlen',
    rented: 'Miete zur Prüfung eingereicht',
    review: 'In Prüfung',
    active: 'Aktiv',
    day1: 'Tag 1',
    yield: '+0,6 USDT',
    amount: '200 USDT',
    all: 'Alle',
    terms: 'Beschreibung, Kosten und Risiken',
    risk: 'Dies ist keine Bankeinlage',
  },
} as const;

let counter = 0;

/** A new user holding `usdt` in spot: a simulated-chain deposit. */
async function fundedUser(usdt: string) {
  const user = await registerByApi(baseUrl, `e2e-mining${Date.now()}${++counter}@example.com`);
  await makeReady(baseUrl, user);
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
  await waitFor('the deposit to be credited', async () => (await spotUsdt(user.token)) === usdt);
  return user;
}

const spotUsdt = async (token: string) =>
  (
    await api<{ spot: { asset: string; available: string }[] }>(
      'GET',
      '/api/v1/wallet/balances',
      token,
    )
  ).data.spot.find((s) => s.asset === 'USDT')?.available;

async function fitsPhone(page: Page, what: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), what).toBeLessThanOrEqual(
    PHONE.width,
  );
}

describe.each(['en', 'de'] as const)('renting a miner in %s', (language) => {
  it(
    'rent → operator approves → day 1 is paid → /MiningDetail shows the payout',
    { timeout: 120_000 },
    async () => {
      const text = TEXT[language];
      const context = await browser.newContext({
        viewport: PHONE,
        baseURL: baseUrl,
        locale: text.tag,
      });
      const user = await fundedUser('500');
      const products = (
        await api<{ items: MiningProduct[] }>(
          'GET',
          '/api/v1/mining/products',
          user.token,
          undefined,
          language,
        )
      ).data.items;
      const miner = products.find((p) => p.name === text.name) as MiningProduct;
      expect(miner).toBeDefined();

      const page = await context.newPage();
      await signIn(page, user, language);

      // The Mining tab: the three demo miners with their terms.
      await page.goto('/Mining');
      await expect.poll(() => page.locator('section[data-product-id]').count()).toBe(3);
      await expect
        .poll(() => page.locator(`section[data-product-id="${miner.id}"] h2`).textContent())
        .toBe(text.name);
      await fitsPhone(page, 'Mining');
      await screenshot(page, `${language}-Mining`);

      // /MiningInfo: the description with its costs and risks, as plain text.
      await page.goto(`/MiningInfo?id=${miner.id}`);
      await expect.poll(() => page.getByText(text.terms, { exact: true }).count()).toBe(1);
      await expect
        .poll(() => page.locator('.tw-mining-description').textContent())
        .toContain(text.risk);
      await fitsPhone(page, 'MiningInfo');
      await screenshot(page, `${language}-MiningInfo`);

      // Rent two units (200 USDT) from the popup.
      await page.getByRole('button', { name: text.rent, exact: true }).click();
      await expect.poll(() => page.locator('.tw-mining-popup').isVisible()).toBe(true);
      await page.locator('.tw-mining-popup .adm-stepper-plus').click();
      await expect.poll(() => page.getByTestId('rent-amount').textContent()).toBe(text.amount);
      await screenshot(page, `${language}-MiningInfo-rent`);
      await page.getByRole('button', { name: text.pay }).click();
      await expect
        .poll(() => page.locator('.adm-toast-main', { hasText: text.rented }).count())
        .toBe(1);
      await page.waitForURL(/\/MiningDetail\?id=\d+/);
      const id = new URL(page.url()).searchParams.get('id') as string;
      await expect
        .poll(() => page.locator('[data-testid="rental-summary"] [data-status]').textContent())
        .toBe(text.review);
      expect(await spotUsdt(user.token)).toBe('300');

      // The operator approves it through the API.
      const queue = await admin<{ items: { id: string; uid: string }[] }>(
        baseUrl,
        operator,
        'GET',
        '/mining/rentals/queue',
      );
      expect(queue.data.items.find((i) => i.id === id)?.uid).toBe(user.uid);
      expect(
        (
          await admin(baseUrl, operator, 'POST', '/mining/rentals/decide', {
            id,
            decision: 'approve',
          })
        ).code,
      ).toBe(0);

      // The payout worker pays day 1 once its (5 s demo) day is over.
      await waitFor(
        'day 1 to be paid',
        async () =>
          (await api<MiningRentalDetail>('GET', `/api/v1/mining/rental?id=${id}`, user.token)).data
            .paidDays >= 1,
        30_000,
      );
      await page.reload();
      await expect
        .poll(() =>
          page.locator('[data-testid="payouts"] li', { hasText: text.day1 }).textContent(),
        )
        .toContain(text.yield);
      const seen = (
        await api<MiningRentalDetail>('GET', `/api/v1/mining/rental?id=${id}`, user.token)
      ).data;
      expect(seen.payouts.find((p) => p.day === 1)?.amount).toBe('0.6');
      expect(Number(await spotUsdt(user.token))).toBeGreaterThanOrEqual(300.6);
      await fitsPhone(page, 'MiningDetail');
      await screenshot(page, `${language}-MiningDetail`);

      // /MiningHis lists it.
      await page.goto('/MiningHis?tab=all');
      await expect.poll(() => page.locator(`a[data-rental-id="${id}"]`).count()).toBe(1);
      await expect
        .poll(() => page.getByRole('tab', { name: text.all }).getAttribute('aria-selected'))
        .toBe('true');
      await fitsPhone(page, 'MiningHis');
      await screenshot(page, `${language}-MiningHis`);
      await context.close();
    },
  );
});
