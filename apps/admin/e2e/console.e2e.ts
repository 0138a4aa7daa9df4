import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from '../../web/e2e/suite-server.ts';
import { totp, totpStep } from '../../server/src/modules/security/totp.ts';
import { launchBrowser, screenshot } from '../../web/e2e/browser.ts';
import {
  DESKTOP,
  createOperatorAs,
  operatorApi,
  operatorApiLogin,
  signInOperator,
  totpNow,
} from './operator.ts';

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('operator console: sign-in with TOTP, operators, audit log', () => {
  it(
    'refuses a wrong code, signs in with the right one, and an administrator asks for a reviewer, a second approves, the reviewer enrols and signs in',
    { timeout: 120_000 },
    async () => {
      const adminCreds = await createOperatorAs(baseUrl, suiteServer().operator.token, 'admin');
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
      // The admin asks for a reviewer: a request, with no credentials for anyone yet (issue 29).
      await page.getByRole('link', { name: 'Operators' }).click();
      await page.getByTestId('operator-create').click();
      const reviewerName = `e2e-rev-${Date.now()}`;
      await page.getByTestId('operator-username').fill(reviewerName);
      await page.getByTestId('operator-reason').fill('night shift KYC reviews');
      await page.getByRole('button', { name: 'Send request', exact: true }).click();
      await expect
        .poll(() => page.getByTestId('operator-requests').textContent())
        .toContain(reviewerName);
      expect(await page.getByTestId('enrolment-link').count()).toBe(0);
      await screenshot(page, 'admin-operators-requested-en');

      // A second admin approves; the one-time enrolment code comes back to the approver only.
      // Not one who brought the requester in within 7 days (both suite admins did): a third.
      const approver = await operatorApiLogin(
        baseUrl,
        await createOperatorAs(baseUrl, suiteServer().operator.token, 'admin'),
      );
      const requests = await operatorApi<{ items: { id: number; username: string }[] }>(
        baseUrl,
        approver,
        'GET',
        '/operators/requests',
      );
      const request = requests.data.items.find((r) => r.username === reviewerName);
      expect(request).toBeDefined();
      const decided = await operatorApi<{ enrolment: { code: string } | null }>(
        baseUrl,
        approver,
        'POST',
        '/operators/requests/decide',
        { id: request?.id, decision: 'approve', reason: 'two people agree' },
      );
      expect(decided.code, decided.message).toBe(0);
      const code = decided.data.enrolment?.code ?? '';
      expect(code.length).toBeGreaterThan(10);

      // The audit log shows the request, filtered by action.
      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.getByTestId('audit-action').fill('operator.request_create');
      await page.getByTestId('audit-filter').click();
      await expect
        .poll(() => page.getByTestId('audit-table').textContent())
        .toContain(reviewerName);
      await screenshot(page, 'admin-audit-en');
      await context.close();

      // The newcomer enrols on the console's page: their own password and authenticator.
      const enrolContext = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
      const enrolPage = await enrolContext.newPage();
      await enrolPage.goto(`/admin/enrol#${code}`);
      const totpSecret = ((await enrolPage.getByTestId('enrol-secret').textContent()) ?? '').trim();
      expect(totpSecret).toMatch(/^[A-Z2-7]{32}$/);
      const password = `reviewer-own-${Date.now()}`;
      await enrolPage.getByTestId('enrol-password').fill(password);
      await enrolPage.getByTestId('enrol-confirm').fill(password);
      // The current window's code, taken as late as possible: an older one can fall out of the
      // server's ±1 window while the page submits under load.
      const enrolStep = totpStep(Date.now());
      await enrolPage.getByTestId('enrol-code').fill(totp(totpSecret, Date.now()));
      await enrolPage.getByTestId('enrol-submit').click();
      await expect.poll(() => enrolPage.getByText('Your account is ready').count()).toBe(1);
      await screenshot(enrolPage, 'admin-enrolled-en');
      await enrolContext.close();
      // A code is spent once.
      const again = await fetch(`${baseUrl}/api/admin/v1/enrolment/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
      expect(((await again.json()) as { code: number }).code).not.toBe(0);

      // The new reviewer signs in (in Chinese) with what they set, and sees no system pages. A code
      // counts once, so the sign-in waits for the window after the enrolment's.
      await expect
        .poll(() => totpStep(Date.now()), { timeout: 35_000, interval: 500 })
        .toBeGreaterThan(enrolStep);
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
    },
  );

  it('in Chinese: the operators page and the audit log', async () => {
    const adminCreds = await createOperatorAs(baseUrl, suiteServer().operator.token, 'admin');
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
    // Settings: this node's own are read-only, secrets hidden (install-wide ones change by request).
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
