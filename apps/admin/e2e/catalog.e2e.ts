import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from '../../web/e2e/suite-server.ts';
import {
  PHONE,
  apiCall,
  launchBrowser,
  outboxCode,
  screenshot,
  waitFor,
} from '../../web/e2e/browser.ts';
import {
  DESKTOP,
  type OperatorCredentials,
  createOperatorAs,
  operatorApi,
  signInOperator,
} from './operator.ts';

/**
 * The console's catalog (issue 7) against the real server and the real web client: a
 * catalog operator changes an instrument's mark and a period's payout rate, and a user's
 * phone shows it. The changes touch only DOGEUSDT's "popular" mark and the 120 s period,
 * which no other browser test relies on, and are put back at the end.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
/** The global setup's administrator session (admins hold the catalog roles too): for set-up and clean-up calls. */
const adminToken = () => suiteServer().operator.token;
/** A fresh catalog operator: a TOTP code signs in once, so each sign-in gets its own operator. */
const newCatalogOperator = (): Promise<OperatorCredentials> =>
  createOperatorAs(baseUrl, adminToken(), 'catalog');

interface Period {
  id: string;
  seconds: number;
  payoutRatePpm: number;
  feeRatePpm: number;
  minStake: string;
  maxStake: string;
  enabled: boolean;
  sort: number;
}

beforeAll(async () => {
  browser = await launchBrowser();
  await waitFor(
    'a fresh DOGE price',
    async () =>
      (
        await apiCall<{ price: string | null }>(
          baseUrl,
          'GET',
          '/api/v1/market/ticker?symbol=DOGEUSDT',
        )
      ).data.price !== null,
  );
});
afterAll(() => browser?.close());

/** A signed-in user of the web client on a phone. */
async function phoneUser(language: string): Promise<Page> {
  const email = `e2e-catalog${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
  await apiCall(baseUrl, 'POST', '/api/v1/auth/codes', undefined, {
    channel: 'email',
    account: email,
    purpose: 'register',
  });
  const code = await outboxCode(baseUrl, email);
  const { data: session } = await apiCall<{ token: string; uid: string }>(
    baseUrl,
    'POST',
    '/api/v1/auth/register',
    undefined,
    {
      mode: 'code',
      channel: 'email',
      account: email,
      code,
      password: 'e2e-password-1',
      confirmPassword: 'e2e-password-1',
    },
  );
  const context = await browser.newContext({ viewport: PHONE, baseURL: baseUrl });
  await context.addInitScript(
    ([token, uid, lang]) => {
      localStorage.setItem('token', token as string);
      localStorage.setItem('uid', uid as string);
      localStorage.setItem('lang', lang as string);
    },
    [session.token, session.uid, language],
  );
  return context.newPage();
}

const popularDoge = (page: Page) =>
  page.locator('section[aria-labelledby="home-popular"] [data-testid="price-DOGEUSDT"]').count();

describe('catalog: the operator changes the catalog and the client follows', () => {
  it('turns off DOGE/USDT\'s "popular" mark: Home no longer lists it under popular', async () => {
    const user = await phoneUser('en');
    await user.goto('/');
    await expect.poll(() => popularDoge(user), { timeout: 15_000 }).toBe(1);

    const context = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
    const page = await context.newPage();
    await signInOperator(page, baseUrl, await newCatalogOperator(), 'en');
    await page.getByRole('link', { name: 'Instruments' }).click();
    await page.getByTestId('instruments-edit-DOGEUSDT').click();
    await expect
      .poll(() => page.getByTestId('instrument-popular').getAttribute('aria-checked'))
      .toBe('true');
    await page.getByTestId('instrument-popular').click();
    await screenshot(page, 'admin-catalog-instruments-edit-en');
    await page.getByTestId('instruments-save').click();
    await expect.poll(() => page.getByText('Saved.').count()).toBeGreaterThan(0);

    // The audit log has the change with before and after.
    const audit = await operatorApi<{
      items: { action: string; targetId: string; before: string; after: string }[];
    }>(baseUrl, adminToken(), 'GET', '/audit?targetType=instrument&targetId=DOGEUSDT');
    expect(JSON.parse(audit.data.items[0]?.before ?? '{}')).toMatchObject({ popular: true });
    expect(JSON.parse(audit.data.items[0]?.after ?? '{}')).toMatchObject({ popular: false });

    await user.goto('/');
    await expect
      .poll(
        () =>
          user.locator('section[aria-labelledby="home-popular"] [data-testid^="price-"]').count(),
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    expect(await popularDoge(user)).toBe(0);
    await screenshot(user, 'admin-catalog-client-home-en');

    const restored = await operatorApi(baseUrl, adminToken(), 'POST', '/market/instruments', {
      symbol: 'DOGEUSDT',
      displayName: null,
      tradable: true,
      recommended: false,
      popular: true,
      sort: 5,
    });
    expect(restored.code).toBe(0);
    await context.close();
    await user.context().close();
  });

  it("changes the 120 s period's payout rate: the order popup shows the new rate", async () => {
    const periods = (
      await operatorApi<{ items: Period[] }>(baseUrl, adminToken(), 'GET', '/contracts/periods')
    ).data.items;
    const period = periods.find((p) => p.seconds === 120);
    if (!period) throw new Error('no 120 s period');
    const newPpm = period.payoutRatePpm === 870_000 ? 860_000 : 870_000;
    const newPct = String(newPpm / 10_000);

    const context = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
    const page = await context.newPage();
    await signInOperator(page, baseUrl, await newCatalogOperator(), 'en');
    await page.getByRole('link', { name: 'Contract periods' }).click();
    await page.getByTestId(`periods-edit-${period.id}`).click();
    await page.getByTestId('period-payout').fill('0');
    await page.getByTestId('periods-save').click();
    await expect.poll(() => page.getByText('A whole number from 1 to').count()).toBeGreaterThan(0);
    await screenshot(page, 'admin-catalog-periods-invalid-en');
    await page.getByTestId('period-payout').fill(String(newPpm));
    await page.getByTestId('periods-save').click();
    await expect.poll(() => page.getByText('Saved.').count()).toBeGreaterThan(0);

    const user = await phoneUser('en');
    await user.goto('/Detail?symbol=ETHUSDT');
    await user.getByRole('button', { name: 'Buy up' }).click();
    await user.locator('.tw-periods .adm-selector-item', { hasText: '120' }).click();
    await expect
      .poll(() => user.getByTestId('order-figures').textContent())
      .toContain(`${newPct}%`);
    expect(
      await user.locator('.tw-periods .adm-selector-item', { hasText: '120' }).textContent(),
    ).toContain(`Payout ${newPct}%`);
    await screenshot(user, 'admin-catalog-client-order-en');

    expect(
      (await operatorApi(baseUrl, adminToken(), 'POST', '/contracts/periods', period)).code,
    ).toBe(0);
    await context.close();
    await user.context().close();
  });

  it("shows each instrument's price sources, read-only, with no price field", async () => {
    const context = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
    const page = await context.newPage();
    await signInOperator(page, baseUrl, await newCatalogOperator(), 'en');
    await page.goto('/admin/catalog/price-sources');
    const rows = page.locator('[data-testid="sources-table"] .ant-table-row');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(17);
    // The e2e server runs in demo mode: every instrument is priced by the keyed walk, and its latest tick names it.
    const gold = rows.filter({ hasText: 'XAUUSD' });
    await expect.poll(() => gold.innerText()).toContain('simulated');
    await expect
      .poll(async () => (await gold.innerText()).includes('None in the last 24 h'))
      .toBe(false);
    expect(await page.getByTestId('sources-summary').innerText()).toContain('5 s');
    // Configuration, not a form: nothing on the page takes input.
    expect(
      await page.locator('.ant-layout-content input, .ant-layout-content textarea').count(),
    ).toBe(0);
    await screenshot(page, 'admin-catalog-price-sources-detail-en');
    await context.close();
  });

  it.each(['en', 'zh-CN'] as const)(
    'every catalog page, in %s',
    async (lang) => {
      const context = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
      const page = await context.newPage();
      // A code signs in once: a fresh operator per language.
      await signInOperator(page, baseUrl, await newCatalogOperator(), lang);
      for (const [path, table, name] of [
        ['catalog/instruments', 'instruments', 'instruments'],
        ['catalog/price-sources', 'sources', 'price-sources'],
        ['catalog/periods', 'periods', 'periods'],
        ['catalog/assets', 'assets', 'assets'],
        ['catalog/payee-accounts', 'payees', 'payee-accounts'],
        ['catalog/miners', 'miners', 'miners'],
        ['catalog/loans', 'loans', 'loans'],
      ] as const) {
        await page.goto(`/admin/${path}`);
        await expect
          .poll(
            () =>
              page
                .locator(
                  `[data-testid="${table}-table"] .ant-table-row, [data-testid="${table}-table"] .ant-empty`,
                )
                .count(),
            { timeout: 15_000 },
          )
          .toBeGreaterThan(0);
        await expect.poll(() => page.locator('.ant-spin-spinning').count()).toBe(0);
        await screenshot(page, `admin-catalog-${name}-${lang}`);
      }
      // The edit drawer of a product, with its form.
      await page.goto('/admin/catalog/loans');
      await page.locator('[data-testid^="loans-edit-"]').first().click();
      await page.waitForTimeout(500);
      await screenshot(page, `admin-catalog-loans-edit-${lang}`);
      await context.close();
    },
    120_000,
  );
});
