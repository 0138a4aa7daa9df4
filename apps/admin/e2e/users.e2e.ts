import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from '../../web/e2e/suite-server.ts';
import { PHONE, apiCall, launchBrowser, screenshot, signIn } from '../../web/e2e/browser.ts';
import { PASSWORD, registerByApi } from '../../web/e2e/images.ts';
import { DESKTOP, createOperatorAs, signInOperator } from './operator.ts';

/**
 * The console's Users section (issue 7) against the real server: an admin searches a user,
 * opens the read-only detail, freezes the account with a reason (the user's session and
 * sign-in are refused), unfreezes it; then asks for an adjustment that a second admin
 * approves, and the user's balance rises by exactly that amount with the reason in their
 * funds detail on the phone.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const REASON = 'Compensation for the 21 Nov outage';

async function spotUsdt(token: string): Promise<string> {
  const reply = await apiCall<{ spot: { asset: string; available: string }[] }>(
    baseUrl,
    'GET',
    '/api/v1/wallet/balances',
    token,
  );
  return reply.data.spot.find((s) => s.asset === 'USDT')?.available ?? '0';
}

const signInUser = (email: string) =>
  apiCall<{ token: string; uid: string }>(baseUrl, 'POST', '/api/v1/auth/login', undefined, {
    channel: 'email',
    account: email,
    password: PASSWORD,
  });

/** Shoots once antd's loading overlays have faded, so the picture shows the page, not a transition. */
async function shoot(page: Page, name: string): Promise<void> {
  await expect.poll(() => page.locator('.ant-spin-blur, .ant-spin-spinning').count()).toBe(0);
  await page.waitForTimeout(400);
  await screenshot(page, name);
}

async function desktop(): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
  return context.newPage();
}

describe('operator console: users', () => {
  it('search, detail, freeze and unfreeze; an adjustment approved by a second admin reaches the user', async () => {
    const email = `e2e-users-${Date.now()}@example.com`;
    const user = await registerByApi(baseUrl, email);
    const adminA = await createOperatorAs(baseUrl, suiteServer().operator.token, 'admin');
    const adminB = await createOperatorAs(baseUrl, suiteServer().operator.token, 'admin');

    // Admin A finds the user by email and opens the detail.
    const page = await desktop();
    await signInOperator(page, baseUrl, adminA, 'en');
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByTestId('user-search').locator('input').fill(email);
    await page.getByTestId('user-search').locator('input').press('Enter');
    await expect
      .poll(() => page.getByRole('link', { name: user.uid, exact: true }).count())
      .toBe(1);
    await shoot(page, 'admin-users-search-en');
    await page.getByRole('link', { name: user.uid, exact: true }).click();
    await page.waitForURL(`**/admin/users/${user.uid}`);
    await expect.poll(() => page.getByTestId('user-profile').textContent()).toContain(email);
    await shoot(page, 'admin-user-detail-en');
    await page.getByRole('tab', { name: 'Balances' }).click();
    await expect.poll(() => page.getByText('No balances.').count()).toBe(1);

    // Freeze with a reason: the user's session ends and sign-in is refused.
    await page.getByTestId('user-freeze').click();
    await page.getByTestId('freeze-confirm').click();
    await expect.poll(() => page.getByText('A reason is required.').count()).toBe(1);
    await page.getByTestId('freeze-reason').fill('Suspected account takeover');
    await page.getByTestId('freeze-confirm').click();
    await expect
      .poll(() => page.getByTestId('user-frozen').textContent())
      .toContain('Suspected account takeover');
    await shoot(page, 'admin-user-frozen-en');
    expect([401, 411]).toContain(
      (await apiCall(baseUrl, 'GET', '/api/v1/user/profile', user.token)).code,
    );
    expect((await signInUser(email)).code).toBe(1011);

    // Unfreeze: sign-in works again.
    await page.getByTestId('user-unfreeze').click();
    await page.getByTestId('freeze-reason').fill('Owner verified by phone');
    await page.getByTestId('freeze-confirm').click();
    await expect.poll(() => page.getByTestId('user-frozen').count()).toBe(0);
    const again = await signInUser(email);
    expect(again.code).toBe(0);
    const token = again.data.token;
    expect(await spotUsdt(token)).toBe('0');

    // Admin A asks for +12.5 USDT; it waits for someone else.
    await page.getByTestId('user-adjust').click();
    await page.getByTestId('adjust-amount').fill('12.5');
    await page.getByTestId('adjust-reason').fill(REASON);
    await shoot(page, 'admin-user-adjust-en');
    await page.getByTestId('adjust-confirm').click();
    await expect.poll(() => page.getByTestId('money-amount').textContent()).toBe('12.5 USDT');
    await page.getByTestId('money-confirm-ok').click();
    await expect
      .poll(() =>
        page.getByText('Adjustment requested; waiting for a second administrator.').count(),
      )
      .toBe(1);
    await page.getByRole('link', { name: 'Adjustments', exact: true }).click();
    const ownRow = page.getByTestId('adjustments').getByRole('row').filter({ hasText: REASON });
    await expect.poll(() => ownRow.getByText('Your request').count()).toBe(1);
    expect(await ownRow.getByTestId('decision-approve').count()).toBe(0);
    await shoot(page, 'admin-adjustments-en');
    expect(await spotUsdt(token)).toBe('0');
    await page.context().close();

    // Admin B, in Chinese: the same pages, then approves.
    const pageB = await desktop();
    await signInOperator(pageB, baseUrl, adminB, 'zh-CN');
    await pageB.goto(`/admin/users?q=${user.uid}`);
    await expect
      .poll(() => pageB.getByRole('link', { name: user.uid, exact: true }).count())
      .toBe(1);
    await shoot(pageB, 'admin-users-search-zh-CN');
    await pageB.goto(`/admin/users/${user.uid}`);
    await expect.poll(() => pageB.getByTestId('user-profile').textContent()).toContain(email);
    await shoot(pageB, 'admin-user-detail-zh-CN');
    await pageB.getByRole('link', { name: '调账审批' }).click();
    // The table's rows only: the confirmation lists the reason in rows of its own.
    const row = pageB.getByTestId('adjustments').getByRole('row').filter({ hasText: REASON });
    await expect.poll(() => row.getByTestId('decision-approve').count()).toBe(1);
    await shoot(pageB, 'admin-adjustments-zh-CN');
    await row.getByTestId('decision-approve').click();
    // Nothing is posted before the confirmation, which names the user, the asset and the amount.
    await expect.poll(() => pageB.getByTestId('money-user').textContent()).toBe(user.uid);
    expect(await pageB.getByTestId('money-amount').textContent()).toBe('12.5 USDT');
    expect(await spotUsdt(token)).toBe('0');
    await pageB.getByTestId('money-confirm-ok').click();
    // The dialog closes when the server has answered; the pending list no longer holds it.
    await pageB.getByTestId('money-confirm').waitFor({ state: 'hidden', timeout: 30_000 });
    await expect.poll(() => row.count()).toBe(0);
    expect(await spotUsdt(token)).toBe('12.5');
    await pageB.goto(`/admin/users/${user.uid}`);
    await pageB.getByRole('tab', { name: '账本流水' }).click();
    await expect.poll(() => pageB.getByTestId('user-postings').textContent()).toContain(REASON);
    await shoot(pageB, 'admin-user-postings-zh-CN');
    await pageB.context().close();

    // The user sees the credit and its reason in their funds detail.
    const phone = await browser.newContext({ viewport: PHONE, baseURL: baseUrl });
    const userPage = await phone.newPage();
    await signIn(userPage, { token, uid: user.uid }, 'en');
    await userPage.goto('/WalletDetail');
    // One event, the credit; its detail gives the reason.
    const event = userPage.getByTestId('funds-event');
    await expect.poll(() => event.count()).toBe(1);
    expect(await event.textContent()).toContain('+12.5 USDT');
    await event.getByRole('button').click();
    await expect
      .poll(() => userPage.getByTestId('funds-event-detail').textContent())
      .toContain(REASON);
    await screenshot(userPage, 'en-WalletDetail-adjustment');
    // …and a message in their inbox saying why.
    await userPage.goto('/Msg');
    const message = userPage.getByText('Balance adjusted');
    await expect.poll(() => message.count()).toBe(1);
    await message.click();
    await expect
      .poll(() =>
        userPage
          .getByText(`Your spot account was adjusted by +12.5 USDT. Reason: ${REASON}`)
          .count(),
      )
      .toBe(1);
    await expect.poll(() => userPage.getByText('Account ·', { exact: false }).count()).toBe(1);
    await screenshot(userPage, 'en-MsgDetail-adjustment');
    // The message was written in the user's language (English); the screen around it follows the app's.
    await signIn(userPage, { token, uid: user.uid }, 'zh_CN');
    await userPage.goto('/Msg');
    await expect.poll(() => userPage.getByText('账户 ·', { exact: false }).count()).toBe(1);
    await screenshot(userPage, 'zh-CN-Msg-adjustment');
    await phone.close();
  });
});
