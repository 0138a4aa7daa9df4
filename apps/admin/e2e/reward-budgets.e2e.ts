import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from '../../web/e2e/suite-server.ts';
import { SCREENSHOT_DIR, launchBrowser, screenshot } from '../../web/e2e/browser.ts';
import { DESKTOP, openConsoleAs, operatorApi } from './operator.ts';

/**
 * Money from the house needs two people (issue 29), in the console: the reward budgets page
 * shows every asset's approved, paid and remaining budget and the changes waiting for a second
 * admin; the bonus code page shows a code above the threshold as awaiting approval, which its
 * creator cannot approve and another admin approves after a confirmation with the amounts.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Where CI keeps them (artifacts/screenshots), beside every other screenshot. */
const SHOTS = SCREENSHOT_DIR;
const stamp = Date.now() % 100_000;

describe.each(['en', 'zh-CN'] as const)('reward budgets in the console (%s)', (language) => {
  it('the requester sees their change waiting; another admin sees approve and the amounts', async () => {
    const first = suiteServer().operator;
    const second = suiteServer().approver;
    const reason = `Spring campaign ${language} ${stamp}`;
    const requested = await operatorApi<{ id: string }>(
      baseUrl,
      first.token,
      'POST',
      '/reward-budgets',
      { asset: 'USDT', amount: '2500', reason },
    );
    expect(requested.code, requested.message).toBe(0);
    const code = `BIG${language === 'en' ? 'EN' : 'ZH'}${stamp}`;
    const created = await operatorApi<{ approvalStatus: string }>(
      baseUrl,
      first.token,
      'POST',
      '/bonus-codes',
      {
        code,
        asset: 'USDT',
        amount: '50',
        maxRedemptions: 100,
        expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
    );
    expect(created.code, created.message).toBe(0);
    expect(created.data.approvalStatus).toBe('pending');

    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await openConsoleAs(page, baseUrl, first.token, language, 'reward-budgets');
    // The demo seed's budget for WELCOME10 (1,000,000 USDT), minus whatever the suite redeemed.
    await page.getByTestId('budget-remaining-USDT').waitFor();
    const row = page.getByTestId('reward-budget-changes').locator('tr', { hasText: reason });
    await row.waitFor();
    expect(await row.getByTestId('decision-approve').count()).toBe(0);
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({
      path: `${SHOTS}/console-reward-budgets-requester-${language}.png`,
      fullPage: true,
    });

    await page.goto(`${baseUrl}/admin/bonus-codes`);
    await page.getByTestId(`bonus-approval-${code}`).waitFor();
    await page.screenshot({
      path: `${SHOTS}/console-bonus-codes-creator-${language}.png`,
      fullPage: true,
    });
    await context.close();

    const other = await browser.newContext({ viewport: DESKTOP });
    const page2 = await other.newPage();
    await openConsoleAs(page2, baseUrl, second.token, language, 'reward-budgets');
    const pending = page2.getByTestId('reward-budget-changes').locator('tr', { hasText: reason });
    await pending.getByTestId('decision-approve').click();
    // The confirmation names the asset and the amount before anything changes.
    const dialog = page2.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('2500');
    await page2.screenshot({
      path: `${SHOTS}/console-reward-budgets-confirm-${language}.png`,
      fullPage: true,
    });
    await screenshot(page2, `console-reward-budgets-confirm-${language}`);
    // The bonus code page: the other admin may approve the creator's code.
    await page2.goto(`${baseUrl}/admin/bonus-codes`);
    const codeRow = page2.locator('tr', { has: page2.getByTestId(`bonus-approval-${code}`) });
    await codeRow.getByTestId('decision-approve').waitFor();
    await codeRow.getByTestId('decision-approve').click();
    await page2.getByRole('dialog').waitFor();
    expect(await page2.getByRole('dialog').textContent()).toContain('5000');
    await page2.screenshot({
      path: `${SHOTS}/console-bonus-codes-confirm-${language}.png`,
      fullPage: true,
    });
    await other.close();
  }, 180_000);
});
