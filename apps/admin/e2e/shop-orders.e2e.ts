import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, launchBrowser, screenshot } from '../../web/e2e/browser.ts';
import { registerByApi } from '../../web/e2e/images.ts';
import { makeReady } from '../../web/e2e/ready-user.ts';
import { suiteServer } from '../../web/e2e/suite-server.ts';
import { DESKTOP, openConsoleAs } from './operator.ts';

/**
 * Points-shop shipping (issue 32): a user's physical order waits in Queues → Shop orders; an
 * operator marks it shipped with a tracking note, which the user then reads in their orders.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

let counter = 0;

/** A user who earned 200 points (the identity task) and bought the sticker pack. */
async function physicalOrder(): Promise<{ token: string; orderId: string }> {
  const session = await registerByApi(baseUrl, `shopq${Date.now()}${++counter}@example.com`);
  await makeReady(baseUrl, session);
  const key = () => `shopq-${Date.now()}-${++counter}`;
  const claimed = await apiCall(
    baseUrl,
    'POST',
    '/api/v1/tasks/claim',
    session.token,
    {
      task: 'kyc_verified',
    },
    { 'idempotency-key': key() },
  );
  expect(claimed.code, claimed.message).toBe(0);
  const address = await apiCall<{ id: string }>(
    baseUrl,
    'POST',
    '/api/v1/shop/addresses',
    session.token,
    {
      name: 'Erika Muster',
      phone: '+49 151 23456789',
      region: 'DE',
      address: 'Hauptstraße 5, 10115 Berlin',
    },
  );
  expect(address.code, address.message).toBe(0);
  const bought = await apiCall<{ order: { id: string } }>(
    baseUrl,
    'POST',
    '/api/v1/shop/purchase',
    session.token,
    { item: 'stickers', addressId: address.data.id },
    { 'idempotency-key': key() },
  );
  expect(bought.code, bought.message).toBe(0);
  return { token: session.token, orderId: bought.data.order.id };
}

describe.each(['en', 'zh-CN'] as const)('shop orders queue in the console (%s)', (language) => {
  it('an operator marks a physical order shipped with a tracking note the user then sees', async () => {
    const { token, orderId } = await physicalOrder();
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await openConsoleAs(
      page,
      baseUrl,
      suiteServer().operator.token,
      language,
      'queues/shop-orders',
    );
    const ship = page.getByTestId(`ship-${orderId}`);
    await ship.waitFor();
    expect(await page.getByTestId('shop-orders').textContent()).toContain('Hauptstraße 5');
    await screenshot(page, `console-${language}-shop-orders`);
    await ship.click();
    await page.getByTestId('ship-tracking').fill(`DHL ${orderId}-${language}`);
    await screenshot(page, `console-${language}-shop-orders-ship`);
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    await expect.poll(() => page.getByTestId(`ship-${orderId}`).count()).toBe(0);

    const orders = await apiCall<{ items: { id: string; status: string; trackingNote: string }[] }>(
      baseUrl,
      'GET',
      '/api/v1/shop/orders',
      token,
    );
    expect(orders.data.items[0]).toMatchObject({
      id: orderId,
      status: 'shipped',
      trackingNote: `DHL ${orderId}-${language}`,
    });
    await context.close();
  }, 180_000);
});
