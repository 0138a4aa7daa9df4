import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from '../../web/e2e/suite-server.ts';
import { SCREENSHOT_DIR, launchBrowser } from '../../web/e2e/browser.ts';
import { DESKTOP, openConsoleAs, operatorApi } from './operator.ts';

/**
 * One configuration for every node (issue 30), in the console: an admin asks for a new
 * open-order limit (a bad value is refused under the field), sees it waiting for someone else,
 * and a second admin, in Chinese, approves it; the value in effect changes on the page.
 */

const baseUrl = suiteServer().baseUrl;
/** Where CI keeps them (artifacts/screenshots), beside every other screenshot. */
const SHOTS = SCREENSHOT_DIR;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function openSettings(page: Page, token: string, language: 'en' | 'zh-CN') {
  await openConsoleAs(page, baseUrl, token, language, 'settings');
  await page.getByTestId('shared-value-CONTRACT_MAX_OPEN_ORDERS').waitFor();
}

describe('install-wide settings in the console', () => {
  it('one admin requests a value, another approves it, and the value in effect changes', async () => {
    const first = suiteServer().operator;
    const second = suiteServer().approver;
    const reason = `More open orders ${Date.now() % 100_000}`;
    fs.mkdirSync(SHOTS, { recursive: true });

    const pageA = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await openSettings(pageA, first.token, 'en');
    const before = await pageA.getByTestId('shared-value-CONTRACT_MAX_OPEN_ORDERS').textContent();
    await pageA.getByTestId('shared-change-CONTRACT_MAX_OPEN_ORDERS').click();
    await pageA.getByTestId('shared-new-value').fill('many');
    await pageA.getByTestId('shared-reason').fill(reason);
    await pageA.getByRole('button', { name: 'Request' }).click();
    await expect
      .poll(() => pageA.getByText('This value is not valid for CONTRACT_MAX_OPEN_ORDERS.').count())
      .toBeGreaterThan(0);
    await pageA.screenshot({ path: `${SHOTS}/admin-shared-settings-invalid-en.png` });
    const target = String(Number(before) + 10);
    await pageA.getByTestId('shared-new-value').fill(target);
    await pageA.getByRole('button', { name: 'Request' }).click();
    const ownRow = pageA.getByTestId('shared-setting-changes').locator('tr', { hasText: reason });
    await ownRow.waitFor();
    expect(await ownRow.textContent()).toContain('Your request: another admin decides');
    expect(await ownRow.getByTestId('decision-approve').count()).toBe(0);
    // Nothing applies before the second admin.
    expect(await pageA.getByTestId('shared-value-CONTRACT_MAX_OPEN_ORDERS').textContent()).toBe(
      before,
    );
    await pageA.screenshot({ path: `${SHOTS}/admin-shared-settings-en.png`, fullPage: true });
    await pageA.context().close();

    const pageB = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await openSettings(pageB, second.token, 'zh-CN');
    const row = pageB.getByTestId('shared-setting-changes').locator('tr', { hasText: reason });
    await row.getByTestId('decision-approve').click();
    // Nothing applies before the confirmation, which names the setting, both values and why.
    await expect.poll(() => pageB.getByTestId('money-confirm').textContent()).toContain(target);
    await pageB.screenshot({
      path: `${SHOTS}/admin-shared-settings-confirm-zh-CN.png`,
      animations: 'disabled',
    });
    await pageB.getByTestId('money-confirm-ok').click();
    await expect
      .poll(() => pageB.getByTestId('shared-value-CONTRACT_MAX_OPEN_ORDERS').textContent())
      .toBe(target);
    await expect.poll(() => row.textContent()).toContain('已批准');
    await pageB.screenshot({ path: `${SHOTS}/admin-shared-settings-zh-CN.png`, fullPage: true });
    await pageB.context().close();

    // Back to what it was, for the suites after this one (two admins again).
    const back = await operatorApi<{ id: string }>(
      baseUrl,
      first.token,
      'POST',
      '/settings/shared',
      {
        name: 'CONTRACT_MAX_OPEN_ORDERS',
        value: before,
        reason: 'restore after the browser test',
      },
    );
    expect(back.code, back.message).toBe(0);
    const restored = await operatorApi(baseUrl, second.token, 'POST', '/settings/shared/decide', {
      id: back.data.id,
      decision: 'approve',
    });
    expect(restored.code, restored.message).toBe(0);
  });
});
