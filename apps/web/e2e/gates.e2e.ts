import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, apiCall, launchBrowser, screenshot } from './browser.ts';
import { registerByApi } from './images.ts';
import { makeReady } from './ready-user.ts';

/**
 * Spec §5's gates on screen (issue 29): the order popup without a trading password sends the
 * user to set one; KYC_REQUIRED, wherever it comes from, offers the way to /RealName; a bank
 * card in another name than the verified one is refused under the field. At 390×844 in
 * English, Simplified Chinese and German.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
let counter = 0;

const TEXT = {
  en: {
    buyUp: 'Buy up',
    notSet: 'Set a trading password before your first order: every order is confirmed with it.',
    setIt: 'Set trading password',
    kyc: 'Complete identity verification first.',
    verify: 'Verify now',
    amount: 'Amount',
    quote: 'Get quote',
    mismatch:
      'The account must be in your name: the holder must match your verified identity (Erika Muster).',
  },
  zh_CN: {
    buyUp: '买涨',
    notSet: '首次下单前请先设置交易密码：每笔订单都需用它确认。',
    setIt: '设置交易密码',
    kyc: '请先完成身份认证。',
    verify: '去认证',
    amount: '数量',
    quote: '获取报价',
    mismatch: '账户必须在您本人名下：户名须与您已认证的身份一致（Erika Muster）。',
  },
  de: {
    buyUp: 'Steigend kaufen',
    notSet:
      'Legen Sie vor Ihrer ersten Order ein Handelspasswort fest: Jede Order wird damit bestätigt.',
    setIt: 'Handelspasswort festlegen',
    kyc: 'Schließen Sie zuerst die Identitätsprüfung ab.',
    verify: 'Jetzt verifizieren',
    amount: 'Betrag',
    quote: 'Angebot anfordern',
    mismatch:
      'Das Konto muss auf Ihren Namen lauten: Der Kontoinhaber muss Ihrer verifizierten Identität entsprechen (Erika Muster).',
  },
} as const;
type Language = keyof typeof TEXT;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const newUser = (what: string) =>
  registerByApi(baseUrl, `e2e-gates-${what}${Date.now()}${++counter}@example.com`);

async function phonePage(language: Language, session: { token: string; uid: string }) {
  const context = await browser.newContext({ viewport: PHONE, baseURL: baseUrl });
  await context.addInitScript(
    ([token, uid, lang]) => {
      localStorage.setItem('token', token as string);
      localStorage.setItem('uid', uid as string);
      localStorage.setItem('lang', lang as string);
    },
    [session.token, session.uid, language],
  );
  return { context, page: await context.newPage() };
}

async function fitsPhone(page: Page, what: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), what).toBeLessThanOrEqual(
    PHONE.width,
  );
}

describe.each(['en', 'zh_CN', 'de'] as const)('spec §5 gates on screen in %s', (language) => {
  const text = TEXT[language];

  it('the order popup without a trading password says so and sends the user to set it', async () => {
    const { context, page } = await phonePage(language, await newUser('pin'));
    try {
      await page.goto('/Detail?symbol=BTCUSDT');
      await expect
        .poll(async () => (await page.getByTestId('detail-price').first().textContent()) ?? '')
        .toMatch(/\d/);
      const notice = page.getByTestId('trade-password-missing');
      // The buttons re-render with the live price: tap again until the popup is up.
      await expect
        .poll(async () => {
          await page
            .getByRole('button', { name: text.buyUp, exact: true })
            .click({ timeout: 2_000 })
            .catch(() => undefined);
          return (await notice.count()) > 0;
        })
        .toBe(true);
      await expect.poll(() => notice.textContent()).toContain(text.notSet);
      expect(await page.locator('.tw-order-confirm').isDisabled()).toBe(true);
      await page.waitForTimeout(300); // the sheet slides up
      await fitsPhone(page, 'order popup');
      await screenshot(page, `gates/${language}-order-no-trade-password`);
      await notice.getByRole('button', { name: text.setIt }).click();
      await page.waitForURL(/\/TradePassword\?back=/);
    } finally {
      await context.close();
    }
  });

  it('KYC_REQUIRED shows the spec’s message with a button to /RealName', async () => {
    const { context, page } = await phonePage(language, await newUser('kyc'));
    try {
      await page.goto('/Transform');
      await page.getByRole('textbox', { name: text.amount }).fill('10');
      await page.getByRole('button', { name: text.quote }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.textContent()).toContain(text.kyc);
      await page.waitForTimeout(300);
      await fitsPhone(page, 'KYC dialog');
      await screenshot(page, `gates/${language}-kyc-required`);
      await dialog.getByRole('button', { name: text.verify }).click();
      await page.waitForURL(/\/RealName$/);
    } finally {
      await context.close();
    }
  });

  it('a bank card in another name than the verified identity is refused under the field', async () => {
    const user = await newUser('card');
    await makeReady(baseUrl, user);
    const { context, page } = await phonePage(language, user);
    try {
      await page.goto('/AddCard');
      const inputs = page.locator('.tw-flat-form input');
      await inputs.nth(0).fill('Harbour Bank');
      await inputs.nth(1).fill('6222 0212 3456 7890');
      await inputs.nth(2).fill('Central branch');
      await inputs.nth(3).fill('HBK-001');
      await inputs.nth(4).fill('Mei Lin');
      await page.locator('button[type="submit"]').click();
      await expect
        .poll(() => page.locator('.adm-form-item-feedback-error').allTextContents())
        .toContain(text.mismatch);
      await fitsPhone(page, 'add card');
      await screenshot(page, `gates/${language}-card-name-mismatch`);
      const cards = await apiCall<{ items: unknown[] }>(
        baseUrl,
        'GET',
        '/api/v1/bank-cards',
        user.token,
      );
      expect(cards.data.items).toEqual([]);
      // In the verified name, names swapped and in other case, the same card is linked.
      await inputs.nth(4).fill('MUSTER erika');
      await page.locator('button[type="submit"]').click();
      await page.waitForURL(/\/Card$/);
    } finally {
      await context.close();
    }
  });
});
