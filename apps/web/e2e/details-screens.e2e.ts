import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, apiCall, launchBrowser, screenshot, signIn } from './browser.ts';
import { registerByApi } from './images.ts';

/**
 * Issue 32's small screen details at 390×844, in English, Chinese and German: the wallet's
 * Transfer opens the transfer form, the funds filter's Apply stays on screen, and the invitee
 * list ends in "No more data" like the app's other lists.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const TEXT = {
  en: { tag: 'en', transfer: 'Transfer', from: 'From', apply: 'Apply', noMore: 'No more data' },
  zh_CN: { tag: 'zh-CN', transfer: '划转', from: '从', apply: '应用', noMore: '没有更多数据了' },
  de: {
    tag: 'de',
    transfer: 'Übertragen',
    from: 'Von',
    apply: 'Anwenden',
    noMore: 'Keine weiteren Daten',
  },
} as const;
type Language = keyof typeof TEXT;

let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}${Date.now()}${++counter}@example.com`;

async function signedInPage(language: Language, session: { token: string; uid: string }) {
  const context = await browser.newContext({
    viewport: PHONE,
    baseURL: baseUrl,
    locale: TEXT[language].tag,
  });
  const page = await context.newPage();
  await signIn(page, session, language);
  return { context, page };
}

/** The element's box lies wholly inside the 390×844 viewport, as the page stands (no scrolling). */
async function inViewport(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  return (
    !!box &&
    box.y >= 0 &&
    box.x >= 0 &&
    box.y + box.height <= PHONE.height &&
    box.x + box.width <= PHONE.width
  );
}

describe.each(['en', 'zh_CN', 'de'] as const)('screen details in %s', (language) => {
  const text = TEXT[language];

  it("the wallet's Transfer opens the transfer form (spot ↔ futures), not Convert", async () => {
    const session = await registerByApi(baseUrl, uniqueEmail('wallet'));
    const { context, page } = await signedInPage(language, session);
    await page.goto('/Wallet');
    await page.getByRole('button', { name: text.transfer, exact: true }).first().click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/Transform');
    expect(new URL(page.url()).searchParams.get('tab')).toBe('transfer');
    const active = page.locator('.adm-tabs-tab-active');
    await expect.poll(() => active.textContent()).toBe(text.transfer);
    // The transfer form: its From and To accounts, not the conversion's coin picker.
    await expect
      .poll(() => page.locator('.adm-form-item-label', { hasText: text.from }).isVisible())
      .toBe(true);
    await page.waitForTimeout(300);
    await screenshot(page, `${language}-details-wallet-transfer`);

    // The futures tab's Transfer button goes to the same form.
    await page.goto('/Wallet?tab=futures');
    await page.getByRole('button', { name: text.transfer, exact: true }).last().click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('transfer');
    // Home's quick menu "Transfer" too.
    await page.goto('/');
    await page
      .locator('.tw-home-menu')
      .getByRole('link', { name: text.transfer, exact: true })
      .click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/Transform');
    expect(new URL(page.url()).searchParams.get('tab')).toBe('transfer');
    await context.close();
  }, 60_000);

  it("the funds filter's Apply is on screen at 390×844 without scrolling", async () => {
    const session = await registerByApi(baseUrl, uniqueEmail('funds'));
    const { context, page } = await signedInPage(language, session);
    await page.goto('/WalletDetail');
    await page.locator('.tw-fd-chip').first().click();
    const apply = '.tw-fd-sheet-footer .adm-button-primary';
    await expect.poll(() => page.locator(apply).textContent()).toBe(text.apply);
    await page.waitForTimeout(500);
    await screenshot(page, `${language}-details-funds-type-sheet`);
    expect(await inViewport(page, apply)).toBe(true);
    // The options scroll inside the sheet; the last one is still reachable.
    const last = page.locator('.tw-fd-sheet-body .adm-selector-item').last();
    await last.scrollIntoViewIfNeeded();
    await last.click();
    expect(await inViewport(page, apply)).toBe(true);
    await page.locator(apply).click();
    await expect.poll(() => page.locator('.tw-fd-sheet').isVisible()).toBe(false);
    await expect.poll(() => page.locator('.tw-fd-chip-on').count()).toBe(1);
    await context.close();
  }, 60_000);

  it('the invitee list ends in "No more data"', async () => {
    const session = await registerByApi(baseUrl, uniqueEmail('inviter'));
    const { inviteCode } = (
      await apiCall<{ inviteCode: string }>(baseUrl, 'GET', '/api/v1/invite', session.token)
    ).data;
    const friend = await registerByApi(baseUrl, uniqueEmail('friend'), inviteCode);
    expect(friend.token).toBeTruthy();
    const { context, page } = await signedInPage(language, session);
    await page.goto('/Invite');
    await expect.poll(() => page.getByTestId('invitees').locator('li').count()).toBe(1);
    const end = page.getByTestId('invitees-end');
    await end.scrollIntoViewIfNeeded();
    await expect.poll(() => end.textContent()).toBe(text.noMore);
    await page.waitForTimeout(300);
    await screenshot(page, `${language}-details-invitees`);
    await context.close();
  }, 60_000);
});
