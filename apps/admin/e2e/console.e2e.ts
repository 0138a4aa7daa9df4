import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from '../../web/e2e/browser.ts';
import { DESKTOP, createOperatorAs, operatorApi, signInOperator, totpNow } from './operator.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('operator console: sign-in with TOTP, operators, audit log', () => {
  it('refuses a wrong code, signs in with the right one, and an administrator adds a reviewer who then signs in with the secret shown once', async () => {
    const adminCreds = await createOperatorAs(baseUrl, inject('operator').token, 'admin');
    const context = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
    const page = await context.newPage();

    // A wrong code: a clear message, no session.
    await page.goto('/admin/login');
    await page.getByTestId('login-username').fill(adminCreds.username);
    await page.getByTestId('login-password').fill(adminCreds.password);
    const right = totpNow(adminCreds.totpSecret);
    await page
      .getByTestId('login-code')
      .fill(String((Number(right) + 500_000) % 1_000_000).padStart(6, '0'));
    await page.getByTestId('login-submit').click();
    await expect
      .poll(() => page.getByTestId('login-error').textContent())
      .toContain('That code is not right');
    await screenshot(page, 'admin-login-en');

    await signInOperator(page, baseUrl, adminCreds, 'en');
    await expect
      .poll(() => page.getByTestId('admin-operator').textContent())
      .toContain(adminCreds.username);
    await page.getByRole('link', { name: 'Operators' }).click();
    await page.getByTestId('operator-create').click();
    const reviewerName = `e2e-rev-${Date.now()}`;
    await page.getByTestId('operator-username').fill(reviewerName);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const password = (await page.getByTestId('created-password').textContent())?.trim() ?? '';
    const totpSecret = (await page.getByTestId('created-secret').textContent())?.trim() ?? '';
    expect(password.length).toBeGreaterThan(8);
    expect(totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, 'admin-operators-created-en');
    await page.getByRole('button', { name: 'I have handed them over' }).click();
    await expect
      .poll(() => page.getByRole('cell', { name: reviewerName, exact: true }).count())
      .toBe(1);

    // The audit log shows the creation, filtered by action.
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByTestId('audit-action').fill('operator.create');
    await page.getByTestId('audit-filter').click();
    await expect.poll(() => page.getByTestId('audit-table').textContent()).toContain(reviewerName);
    await screenshot(page, 'admin-audit-en');
    await context.close();

    // The new reviewer signs in (in Chinese) with what was shown once, and sees no system pages.
    const reviewerContext = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
    const reviewerPage = await reviewerContext.newPage();
    await signInOperator(
      reviewerPage,
      baseUrl,
      { username: reviewerName, password, totpSecret },
      'zh-CN',
    );
    await expect
      .poll(() => reviewerPage.getByTestId('admin-operator').textContent())
      .toContain('审核员');
    expect(await reviewerPage.getByRole('link', { name: '操作员' }).count()).toBe(0);
    await reviewerPage.goto('/admin/operators');
    await expect.poll(() => reviewerPage.getByText('您的角色无权打开此页面。').count()).toBe(1);
    await screenshot(reviewerPage, 'admin-forbidden-zh-CN');

    // Signing out ends the session on the server too.
    const token = await reviewerPage.evaluate(() => sessionStorage.getItem('tw-admin-token'));
    await reviewerPage.getByTestId('admin-sign-out').click();
    await reviewerPage.getByTestId('login-submit').waitFor();
    expect((await operatorApi(baseUrl, token ?? '', 'GET', '/me')).code).toBe(411);
    await reviewerContext.close();
  });

  it('in Chinese: the operators page and the audit log', async () => {
    const adminCreds = await createOperatorAs(baseUrl, inject('operator').token, 'admin');
    const context = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
    const page = await context.newPage();
    await signInOperator(page, baseUrl, adminCreds, 'zh-CN');
    await page.getByRole('link', { name: '操作员' }).click();
    await expect
      .poll(() => page.getByRole('cell', { name: adminCreds.username, exact: true }).count())
      .toBe(1);
    await screenshot(page, 'admin-operators-zh-CN');
    await page.getByRole('link', { name: '审计日志' }).click();
    await expect
      .poll(() => page.getByTestId('audit-table').textContent())
      .toContain('operator.sign_in');
    await screenshot(page, 'admin-audit-zh-CN');
    // Settings: read-only, secrets hidden.
    await page.getByRole('link', { name: '系统设置' }).click();
    await expect.poll(() => page.getByText('DEMO_MODE', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('searchbox').count()).toBe(1); // the filter, and nothing editable:
    expect(await page.getByRole('textbox').count()).toBe(0);
    await screenshot(page, 'admin-settings-zh-CN');
    await page.getByLabel('Language').click();
    await page.getByTitle('English').click();
    await expect.poll(() => page.getByText('Value in effect').count()).toBe(1);
    await screenshot(page, 'admin-settings-en');
    await context.close();
  });
});
