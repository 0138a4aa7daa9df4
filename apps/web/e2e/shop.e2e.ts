import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, apiCall, launchBrowser, screenshot, signIn } from './browser.ts';
import { admin, registerByApi } from './images.ts';
import { makeReady } from './ready-user.ts';
import { suiteServer } from './suite-server.ts';

const server = suiteServer();
const baseUrl = server.baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const TEXT = {
  en: {
    tag: 'en',
    errors: [
      'Name must be filled in.',
      'Please enter a valid phone number.',
      'Please choose a receiving area.',
      'Address cannot be empty.',
    ],
    sent: 'Sent successfully',
    awaiting: 'Awaiting shipment',
    shipped: 'Shipped',
  },
  zh_CN: {
    tag: 'zh-CN',
    errors: ['请填写姓名。', '请输入有效的手机号码。', '请选择收货地区。', '地址不能为空。'],
    sent: '发送成功',
    awaiting: '待发货',
    shipped: '已发货',
  },
  de: {
    tag: 'de',
    errors: [
      'Bitte geben Sie einen Namen ein.',
      'Bitte geben Sie eine gültige Telefonnummer ein.',
      'Bitte wählen Sie eine Region.',
      'Die Adresse darf nicht leer sein.',
    ],
    sent: 'Erfolgreich gesendet',
    awaiting: 'Wartet auf Versand',
    shipped: 'Versandt',
  },
} as const;

let counter = 0;
const uniqueEmail = () => `shop${Date.now()}${++counter}@example.com`;

const fieldErrors = (page: Page) =>
  page.locator('[data-testid=address-form] .adm-form-item-feedback-error').allTextContents();

describe.each(['en', 'zh_CN', 'de'] as const)('points shop in %s', (language) => {
  it('rewards centre → shop → a physical item: the address form shows each of the four errors, then the order ships', async () => {
    const text = TEXT[language];
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: baseUrl,
      locale: text.tag,
    });
    const page = await context.newPage();
    const session = await registerByApi(baseUrl, uniqueEmail());
    await makeReady(baseUrl, session);
    // 200 points, earned the real way: the identity task's reward.
    const claimed = await apiCall(
      baseUrl,
      'POST',
      '/api/v1/tasks/claim',
      session.token,
      { task: 'kyc_verified' },
      { 'idempotency-key': `shop-${Date.now()}-${counter}` },
    );
    expect(claimed.code).toBe(0);
    await signIn(page, session, language);

    await page.goto('/Rewards');
    await page.getByTestId('rewards-shop-link').click();
    await expect.poll(() => page.getByTestId('shop-points').textContent()).toBe('200');
    expect(await page.getByTestId('shop-buy-mug').isDisabled()).toBe(true);
    await screenshot(page, `${language}-Shop`);

    await page.getByTestId('shop-buy-stickers').click();
    await page.getByTestId('address-add').click();
    const form = page.getByTestId('address-form');
    await form.waitFor();
    await form.locator('input').nth(1).fill('12');
    await form.locator('button[type=submit]').click();
    await expect.poll(() => fieldErrors(page)).toEqual(text.errors);
    await screenshot(page, `${language}-Shop-address-errors`);

    // Each message goes away as soon as its own field changes; the others stay.
    await form.locator('input').nth(0).fill('Erika Muster');
    await expect.poll(() => fieldErrors(page)).toEqual(text.errors.slice(1));
    await form.locator('input').nth(1).fill('+49 151 23456789');
    await expect.poll(() => fieldErrors(page)).toEqual(text.errors.slice(2));
    await form.locator('select').selectOption('DE');
    await expect.poll(() => fieldErrors(page)).toEqual(text.errors.slice(3));
    await form.locator('input').nth(2).fill('Hauptstraße 5, 10115 Berlin');
    await expect.poll(() => fieldErrors(page)).toEqual([]);
    await form.locator('button[type=submit]').click();

    await expect.poll(() => page.getByTestId('address-item').count()).toBe(1);
    await expect.poll(() => page.getByTestId('shop-confirm').isDisabled()).toBe(false);
    await screenshot(page, `${language}-Shop-checkout`);
    await page.getByTestId('shop-confirm').click();
    await expect.poll(() => page.url()).toContain('/Success');
    await expect.poll(() => page.locator('.adm-result-title').textContent()).toBe(text.sent);

    await page.getByTestId('success-next').click();
    await expect.poll(() => page.url()).toContain('/ShopOrders');
    const order = page.getByTestId('shop-order');
    await expect.poll(() => order.count()).toBe(1);
    expect(await order.textContent()).toContain(text.awaiting);
    expect(await order.textContent()).toContain('Hauptstraße 5, 10115 Berlin');

    const shop = await apiCall<{ points: number }>(baseUrl, 'GET', '/api/v1/shop', session.token);
    expect(shop.data.points).toBe(50);
    const orders = await apiCall<{ items: { id: string }[] }>(
      baseUrl,
      'GET',
      '/api/v1/shop/orders',
      session.token,
    );
    const shipped = await admin(baseUrl, server.operator.token, 'POST', '/shop/orders/ship', {
      id: orders.data.items[0]?.id,
      trackingNote: 'DHL 00340434161094042557',
    });
    expect(shipped.code).toBe(0);
    await page.reload();
    await expect.poll(() => order.textContent()).toContain(text.shipped);
    expect(await page.getByTestId('shop-order-tracking').textContent()).toContain(
      'DHL 00340434161094042557',
    );
    await screenshot(page, `${language}-ShopOrders`);
    await context.close();
  }, 180_000);
});
