import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, apiCall, launchBrowser, outboxCode, screenshot } from './browser.ts';
import { registerByApi } from './images.ts';

/** Issue 29, decision 0026: the invitation tab proves the address with a code as well. */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}${Date.now()}${++counter}@example.com`;
const PASSWORD = 'e2e-password-1';

const errorsShown = (page: Page) =>
  page
    .locator('.adm-form-item-feedback-error')
    .evaluateAll((nodes) => nodes.map((node) => node.textContent ?? '').filter(Boolean));

describe('register by invitation code', () => {
  it('asks for the code sent to the address; old messages go once their field is fixed', async () => {
    const inviter = await registerByApi(baseUrl, uniqueEmail('inviter'));
    const { data } = await apiCall<{ inviteCode: string }>(
      baseUrl,
      'GET',
      '/api/v1/invite',
      inviter.token,
    );
    const context = await browser.newContext({ viewport: PHONE, baseURL: baseUrl });
    const page = await context.newPage();
    await page.goto(`/Register?invite=${data.inviteCode}`);
    await page.getByRole('tab', { name: 'Invitation code' }).click();
    const code = page.locator('input[autocomplete="one-time-code"]');
    await expect.poll(() => code.count()).toBe(1);
    expect(
      await page.getByText('We send a code to this address to prove it is yours.').count(),
    ).toBe(1);

    // Nothing filled but the invitation code: the code is asked for like the other fields.
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => errorsShown(page)).toContain('This field is required.');
    const email = uniqueEmail('friend');
    await page.locator('input[autocomplete="email"]').fill('not-an-email');
    await page.locator('input[autocomplete="new-password"]').nth(0).fill(PASSWORD);
    await page.locator('input[autocomplete="new-password"]').nth(1).fill('something-else');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => errorsShown(page)).toContain('Passwords do not match.');
    expect(await errorsShown(page)).toContain('Invalid email format.');
    await screenshot(page, 'en-Register-invite-errors');

    // Fixing a field takes its message away at once, before the next submit.
    await page.locator('input[autocomplete="email"]').fill(email);
    await expect.poll(() => errorsShown(page)).not.toContain('Invalid email format.');
    await page.locator('input[autocomplete="new-password"]').nth(1).fill(PASSWORD);
    await expect.poll(() => errorsShown(page)).not.toContain('Passwords do not match.');

    await page.getByRole('button', { name: 'Send code' }).click();
    await expect.poll(() => page.getByText('Verification code sent').count()).toBeGreaterThan(0);
    await code.fill(await outboxCode(baseUrl, email));
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.waitForURL(`${baseUrl}/`);

    const token = await page.evaluate(() => localStorage.getItem('token'));
    const profile = await apiCall<{ email: string; emailVerified: boolean }>(
      baseUrl,
      'GET',
      '/api/v1/user/profile',
      token ?? undefined,
    );
    expect(profile.data).toMatchObject({ email, emailVerified: true });
    const invitees = await apiCall<{ invitedCount: number }>(
      baseUrl,
      'GET',
      '/api/v1/invite',
      inviter.token,
    );
    expect(invitees.data.invitedCount).toBe(1);
    await context.close();
  });
});
