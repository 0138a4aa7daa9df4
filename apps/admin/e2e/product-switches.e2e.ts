import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from '../../web/e2e/suite-server.ts';
import { SCREENSHOT_DIR, launchBrowser } from '../../web/e2e/browser.ts';
import { DESKTOP, openConsoleAs, operatorApi } from './operator.ts';

/**
 * Issue 32, in the console: the product switches (loans, mining, IEO, points shop) are
 * install-wide settings, on by default; an admin requests one off on the settings screen and it
 * waits for a second admin, as every other shared setting does.
 */

const baseUrl = suiteServer().baseUrl;
const SWITCHES = [
  'PRODUCT_LOANS_ENABLED',
  'PRODUCT_MINING_ENABLED',
  'PRODUCT_IEO_ENABLED',
  'PRODUCT_SHOP_ENABLED',
];
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('product switches in the console', () => {
  it('shows every switch on, and a request to turn loans off waits for a second admin', async () => {
    const first = suiteServer().operator;
    const second = suiteServer().approver;
    const reason = `Loans paused ${Date.now() % 100_000}`;
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });

    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await openConsoleAs(page, baseUrl, first.token, 'en', 'settings');
    for (const name of SWITCHES)
      await expect.poll(() => page.getByTestId(`shared-value-${name}`).textContent()).toBe('true');
    // The settings table's own row (the changes list below may name the setting too: other
    // suites on this server switch loans off and on).
    const loansRow = page
      .getByTestId('shared-settings')
      .locator('tr', { has: page.getByTestId('shared-value-PRODUCT_LOANS_ENABLED') });
    expect(await loansRow.textContent()).toContain(
      'Loans on (false: "under development", no new applications)',
    );

    await page.getByTestId('shared-change-PRODUCT_LOANS_ENABLED').click();
    await page.getByTestId('shared-new-value').fill('false');
    await page.getByTestId('shared-reason').fill(reason);
    await page.getByRole('button', { name: 'Request' }).click();
    const row = page.getByTestId('shared-setting-changes').locator('tr', { hasText: reason });
    await row.waitFor();
    expect(await row.textContent()).toContain('Your request: another admin decides');
    // Nothing applies before the second admin.
    expect(await page.getByTestId('shared-value-PRODUCT_LOANS_ENABLED').textContent()).toBe('true');
    await page.screenshot({
      path: `${SCREENSHOT_DIR}/admin-product-switches-en.png`,
      fullPage: true,
    });
    await page.context().close();

    // The second admin declines it: the suites after this one keep loans on.
    const changes = await operatorApi<{ changes: { id: string; reason: string }[] }>(
      baseUrl,
      second.token,
      'GET',
      '/settings/shared',
    );
    const id = changes.data.changes.find((c) => c.reason === reason)?.id;
    expect(id).toBeDefined();
    const declined = await operatorApi(baseUrl, second.token, 'POST', '/settings/shared/decide', {
      id,
      decision: 'reject',
      reason: 'not now',
    });
    expect(declined.code, declined.message).toBe(0);
  });
});
