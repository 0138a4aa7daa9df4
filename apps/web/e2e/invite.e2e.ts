import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, apiCall, launchBrowser, screenshot, signIn } from './browser.ts';
import { registerByApi, scanQr } from './images.ts';

/**
 * /Invite against the real server and its demo data: the invitation code, the share link
 * (the register page with the code prefilled) and its QR code, a friend registering with
 * it and appearing masked in the list, and the demo bonus code WELCOME10 redeemed once
 * (the spot balance rises by 10 USDT) and refused the second time. Then /PointsHistory.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const TEXT = {
  en: {
    tag: 'en',
    title: 'Invite',
    registerInvite: 'Invitation code (optional)',
    reward: 'Congratulations on receiving a reward: 10 USDT!',
    rewardLine: 'Reward received: +10 USDT',
    used: 'Cannot participate in the activity at this time: you have already used this code.',
    unknown: 'Cannot participate in the activity at this time: this code does not exist.',
    notVerified: 'Not verified',
    pointsTitle: 'Points history',
    checkinKind: 'Daily check-in',
    empty: 'No points yet',
    rewardType: 'Reward',
  },
  zh_CN: {
    tag: 'zh-CN',
    title: '邀请',
    registerInvite: '邀请码（选填）',
    reward: '恭喜您获得奖励：10 USDT！',
    rewardLine: '已获得奖励：+10 USDT',
    used: '暂时无法参与该活动：您已使用过此兑换码。',
    unknown: '暂时无法参与该活动：兑换码不存在。',
    notVerified: '未认证',
    pointsTitle: '积分记录',
    checkinKind: '每日签到',
    empty: '暂无积分',
    rewardType: '奖励',
  },
} as const;

let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}${Date.now()}${++counter}@example.com`;

const toast = (page: Page, text: string) => page.locator('.adm-toast-main', { hasText: text });
const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );

async function spotUsdt(token: string): Promise<string> {
  const reply = await apiCall<{ spot: { asset: string; available: string }[] }>(
    baseUrl,
    'GET',
    '/api/v1/wallet/balances',
    token,
  );
  return reply.data.spot.find((s) => s.asset === 'USDT')?.available ?? '0';
}

describe.each(['en', 'zh_CN'] as const)('invitations and bonus codes in %s', (language) => {
  it('share link and QR prefill /Register; the friend appears masked; WELCOME10 credits 10 USDT once; points history', async () => {
    const text = TEXT[language];
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: baseUrl,
      locale: text.tag,
    });
    const page = await context.newPage();
    const session = await registerByApi(baseUrl, uniqueEmail('inviter'));
    const { inviteCode } = (
      await apiCall<{ inviteCode: string }>(baseUrl, 'GET', '/api/v1/invite', session.token)
    ).data;
    await signIn(page, session, language);

    // The invite screen: code, link with the code, a QR code that scans to the same link.
    await page.goto('/My');
    await page.getByText(text.title, { exact: true }).click();
    await page.waitForURL('**/Invite');
    await expect.poll(() => page.getByTestId('invite-code').textContent()).toBe(inviteCode);
    const link = `${baseUrl}/Register?invite=${inviteCode}`;
    expect(await page.getByTestId('invite-link').textContent()).toContain(link);
    expect(await scanQr(page, 'invite-qr')).toBe(link);
    expect(await page.getByTestId('invite-count').textContent()).toBe('0');
    await expect.poll(() => page.getByTestId('bonus-spot-usdt').textContent()).toBe('0');
    await screenshot(page, `${language}-Invite`);
    await noSidewaysScroll(page);

    // A friend opens the link signed out: the register form has the code filled in.
    const friendContext = await browser.newContext({
      viewport: PHONE,
      baseURL: baseUrl,
      locale: text.tag,
    });
    const friendPage = await friendContext.newPage();
    // The friend's app speaks the same language (spec §1: read from storage, default en).
    await friendPage.goto('/Login');
    await friendPage.evaluate((lang) => localStorage.setItem('lang', lang), language);
    await friendPage.goto(link);
    const inviteField = friendPage.getByLabel(text.registerInvite);
    await expect.poll(() => inviteField.inputValue()).toBe(inviteCode);
    await screenshot(friendPage, `${language}-Register-invite-prefilled`);
    await friendContext.close();
    const friendEmail = uniqueEmail('friend');
    // The invitation tab proves the address with a code too (decision 0026).
    const friend = await registerByApi(baseUrl, friendEmail, inviteCode);
    expect(friend.token).toBeTruthy();

    await page.reload();
    const invitees = page.getByTestId('invitees');
    await expect.poll(() => invitees.locator('li').count()).toBe(1);
    const row = await invitees.locator('li').first().textContent();
    expect(row).toContain(`${friendEmail.slice(0, 2)}***@example.com`);
    expect(row).not.toContain(friendEmail);
    expect(row).toContain(text.notVerified);
    expect(await page.getByTestId('invite-count').textContent()).toBe('1');

    // Redeem the demo bonus code (typed in lower case): the reward toast, the balance rises by 10.
    expect(await spotUsdt(session.token)).toBe('0');
    await page.getByTestId('bonus-code-input').locator('input').fill('welcome10');
    await page.getByTestId('bonus-code-redeem').click();
    await expect.poll(() => toast(page, text.reward).count()).toBe(1);
    await expect.poll(() => page.getByTestId('bonus-spot-usdt').textContent()).toBe('10');
    expect(await page.getByTestId('bonus-code-reward').textContent()).toBe(text.rewardLine);
    expect(await spotUsdt(session.token)).toBe('10');
    await page.getByTestId('bonus-code-reward').scrollIntoViewIfNeeded();
    await screenshot(page, `${language}-Invite-redeemed`);
    await expect.poll(() => page.locator('.adm-toast-mask').count()).toBe(0);

    // A second use is refused and nothing moves; so is a code that does not exist.
    await page.getByTestId('bonus-code-input').locator('input').fill('WELCOME10');
    await page.getByTestId('bonus-code-redeem').click();
    await expect.poll(() => toast(page, text.used).count()).toBe(1);
    expect(await page.getByTestId('bonus-code-reward').count()).toBe(0);
    await screenshot(page, `${language}-Invite-refused`);
    await expect.poll(() => page.locator('.adm-toast-mask').count()).toBe(0);
    await page.getByTestId('bonus-code-input').locator('input').fill('NOPE-1234');
    await page.getByTestId('bonus-code-redeem').click();
    await expect.poll(() => toast(page, text.unknown).count()).toBe(1);
    expect(await spotUsdt(session.token)).toBe('10');
    expect(await page.getByTestId('bonus-spot-usdt').textContent()).toBe('10');

    // The funds detail lists the reward.
    const postings = await apiCall<{ items: { type: string; amount: string }[] }>(
      baseUrl,
      'GET',
      '/api/v1/funds/postings',
      session.token,
    );
    expect(postings.data.items.map((p) => [p.type, p.amount])).toEqual([['reward', '10']]);
    // …and so does the screen, with its localized label.
    await page.goto('/WalletDetail');
    const fundsRows = page.locator('[data-testid="funds-event"]');
    await expect.poll(() => fundsRows.count()).toBe(1);
    const fundsRow = (await fundsRows.allTextContents())[0] ?? '';
    expect(fundsRow.startsWith(text.rewardType), fundsRow).toBe(true);
    expect(fundsRow).toContain('+10 USDT');
    await screenshot(page, `${language}-WalletDetail-reward`);

    // Points history, from My: empty, then today's check-in.
    await page.goto('/My');
    await expect.poll(() => page.getByTestId('my-points').textContent()).toBe('0');
    await screenshot(page, `${language}-My-points-link`);
    await page.getByRole('button', { name: text.pointsTitle }).click();
    await page.waitForURL('**/PointsHistory');
    await expect.poll(() => page.getByText(text.empty).count()).toBe(1);
    await screenshot(page, `${language}-PointsHistory-empty`);
    expect((await apiCall(baseUrl, 'POST', '/api/v1/points/checkin', session.token)).code).toBe(0);
    await page.reload();
    const list = page.getByTestId('points-history-list');
    await expect.poll(() => list.locator('li').count()).toBe(1);
    expect(await list.textContent()).toContain(text.checkinKind);
    expect(await list.textContent()).toContain('+10');
    await screenshot(page, `${language}-PointsHistory`);

    // And from the check-in card on Home.
    await page.goto('/');
    await page.getByTestId('checkin-card').locator('.tw-checkin-history-toggle').click();
    await page.getByTestId('points-history-all').click();
    await page.waitForURL('**/PointsHistory');
    await expect.poll(() => page.getByTestId('points-history-list').locator('li').count()).toBe(1);
    await context.close();
    // A long journey on a shared 2-core machine.
  }, 120_000);
});
