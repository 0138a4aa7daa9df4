import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, launchBrowser, screenshot, signIn } from './browser.ts';
import { admin, bandedPng, registerByApi } from './images.ts';

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
let operator: string;
beforeAll(async () => {
  browser = await launchBrowser();
  operator = suiteServer().operator.token;
});
afterAll(() => browser?.close());

const TEXT = {
  en: {
    tag: 'en',
    uploaded: 'Uploaded',
    submit: 'Submit',
    pending: 'Pending payment',
    paid: 'Paid',
    rejected: 'Rejected',
    demo: 'Do not send real money',
    none: 'No deposits yet',
  },
  zh_CN: {
    tag: 'zh-CN',
    uploaded: '已上传',
    submit: '提交',
    pending: '待确认付款',
    paid: '已到账',
    rejected: '已驳回',
    demo: '请勿转入真实款项',
    none: '暂无充值记录',
  },
} as const;

let counter = 0;
const uniqueEmail = () => `card${Date.now()}${++counter}@example.com`;
const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );

const screenshotImage = () =>
  bandedPng(180, 320, [
    [245, 245, 245],
    [22, 82, 240],
    [245, 245, 245],
    [10, 143, 90],
  ]);

async function report(page: Page, amount: string, submit: string, uploaded: string) {
  await page.locator('input[inputmode="decimal"]').fill(amount);
  await page
    .locator('input[name="screenshot"]')
    .setInputFiles({ name: 'payment.png', mimeType: 'image/png', buffer: screenshotImage() });
  await expect.poll(() => page.getByText(uploaded, { exact: true }).count()).toBe(1);
  await page.getByRole('button', { name: submit, exact: true }).click();
}

describe.each(['en', 'zh_CN'] as const)('bank-card deposit in %s', (language) => {
  it('payee shown → amount with fee and actual amount → screenshot → pending → operator confirms → balance and status on screen', async () => {
    const text = TEXT[language];
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: baseUrl,
      locale: text.tag,
    });
    const page = await context.newPage();
    const session = await registerByApi(baseUrl, uniqueEmail());
    await signIn(page, session, language);

    await page.goto('/RechargeCard');
    await expect.poll(() => page.getByText('DEMO PAYEE - DO NOT PAY').count()).toBe(1);
    await expect.poll(() => page.getByText(text.demo, { exact: false }).count()).toBe(1);
    await expect.poll(() => page.getByText(text.none).count()).toBe(1);
    await expect
      .poll(() => page.locator('.tw-quote-row', { hasText: '0 USDT' }).count())
      .toBeGreaterThan(0);
    // Styled as designed: the quote is a tinted box, the copy buttons are 40 px targets.
    expect(
      await page.locator('.tw-quote').evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe('rgb(246, 247, 249)');
    expect(
      await page
        .locator('.tw-icon-button')
        .first()
        .evaluate((el) => el.getBoundingClientRect().width),
    ).toBe(40);
    await noSidewaysScroll(page);
    await screenshot(page, `${language}-RechargeCard-empty`);

    // The fee (1.5% in the e2e server, rounded up) and the actual amount appear as the amount is typed.
    await page.locator('input[inputmode="decimal"]').fill('100.000001');
    await expect.poll(() => page.getByTestId('fee').textContent()).toBe('1.500001 USDT');
    await expect.poll(() => page.getByTestId('actual').textContent()).toBe('98.5 USDT');

    await report(page, '100', text.submit, text.uploaded);
    await expect
      .poll(() =>
        page.locator('[data-testid="card-deposit-record"]', { hasText: text.pending }).count(),
      )
      .toBe(1);
    // The form is cleared for the next one.
    await expect.poll(() => page.locator('input[inputmode="decimal"]').inputValue()).toBe('');
    await expect.poll(() => page.locator('.adm-toast-mask').count()).toBe(0);
    await screenshot(page, `${language}-RechargeCard-pending`);

    // The operator confirms it: the user's spot USDT is credited 98.5 (100 less the 1.5 fee).
    const queue = await admin<{
      items: { id: string; uid: string; amount: string; fee: string; actualAmount: string }[];
    }>(baseUrl, operator, 'GET', '/card-deposits/queue');
    const mine = queue.data.items.find((item) => item.uid === session.uid);
    expect(mine).toMatchObject({ amount: '100', fee: '1.5', actualAmount: '98.5' });
    expect(
      (
        await admin(baseUrl, operator, 'POST', '/card-deposits/decide', {
          id: mine?.id,
          decision: 'approve',
        })
      ).code,
    ).toBe(0);
    // A second one is rejected with a reason the user sees.
    await report(page, '20', text.submit, text.uploaded);
    await expect.poll(() => page.locator('[data-testid="card-deposit-record"]').count()).toBe(2);
    const next = await admin<{ items: { id: string; uid: string }[] }>(
      baseUrl,
      operator,
      'GET',
      '/card-deposits/queue',
    );
    const second = next.data.items.find((item) => item.uid === session.uid);
    const reason = language === 'en' ? 'No payment of 20 USDT arrived.' : '未收到 20 USDT 的付款。';
    expect(
      (
        await admin(baseUrl, operator, 'POST', '/card-deposits/decide', {
          id: second?.id,
          decision: 'reject',
          reason,
        })
      ).code,
    ).toBe(0);

    await page.reload();
    await expect
      .poll(() => page.locator('.tw-quote-row', { hasText: '98.5 USDT' }).count())
      .toBe(1);
    await expect
      .poll(() =>
        page.locator('[data-testid="card-deposit-record"]', { hasText: text.paid }).count(),
      )
      .toBe(1);
    await expect
      .poll(() =>
        page.locator('[data-testid="card-deposit-record"]', { hasText: text.rejected }).count(),
      )
      .toBe(1);
    await expect.poll(() => page.getByText(reason).count()).toBe(1);
    await noSidewaysScroll(page);
    await screenshot(page, `${language}-RechargeCard-paid`);

    const balances = (await (
      await fetch(`${baseUrl}/api/v1/wallet/balances`, {
        headers: { authorization: `Bearer ${session.token}` },
      })
    ).json()) as {
      data: { spot: { asset: string; available: string }[] };
    };
    expect(balances.data.spot.find((s) => s.asset === 'USDT')?.available).toBe('98.5');
    await context.close();
  });
});
