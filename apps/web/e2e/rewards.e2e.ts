import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, apiCall, launchBrowser, screenshot, signIn } from './browser.ts';
import { registerByApi } from './images.ts';
import { makeReady } from './ready-user.ts';
import { suiteServer } from './suite-server.ts';

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const TEXT = {
  en: {
    tag: 'en',
    title: 'Rewards centre',
    kyc: 'Verify your identity',
    claim: 'Claim',
    claimed: 'Claimed',
    mission: 'Mission accomplished',
    reward: 'Congratulations on receiving a reward',
  },
  zh_CN: {
    tag: 'zh-CN',
    title: '奖励中心',
    kyc: '完成实名认证',
    claim: '领取',
    claimed: '已领取',
    mission: '任务完成',
    reward: '恭喜获得奖励',
  },
  de: {
    tag: 'de',
    title: 'Belohnungscenter',
    kyc: 'Identität verifizieren',
    claim: 'Abholen',
    claimed: 'Abgeholt',
    mission: 'Aufgabe erfüllt',
    reward: 'Herzlichen Glückwunsch, Sie haben eine Belohnung erhalten',
  },
} as const;

let counter = 0;
const uniqueEmail = () => `rewards${Date.now()}${++counter}@example.com`;

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );

describe.each(['en', 'zh_CN', 'de'] as const)('rewards centre in %s', (language) => {
  it('My → rewards centre: progress from real data, claim → "Mission accomplished", paid once', async () => {
    const text = TEXT[language];
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: baseUrl,
      locale: text.tag,
    });
    const page = await context.newPage();
    const session = await registerByApi(baseUrl, uniqueEmail());
    await makeReady(baseUrl, session);
    await signIn(page, session, language);

    await page.goto('/My');
    await page.getByText(text.title, { exact: true }).click();
    await expect.poll(() => page.url()).toContain('/Rewards');
    const kyc = page.getByTestId('task-kyc_verified');
    await expect.poll(() => kyc.getAttribute('data-status')).toBe('claimable');
    expect(await kyc.textContent()).toContain(text.kyc);
    expect(await page.getByTestId('task-kyc_verified-progress').textContent()).toBe('100%');
    expect(await page.getByTestId('task-first_trade-progress').textContent()).toBe('0%');
    expect(await page.getByTestId('task-checkin_streak-progress').textContent()).toBe('0%');
    expect(await page.getByTestId('rewards-points').textContent()).toBe('0');
    await noSidewaysScroll(page);
    await screenshot(page, `${language}-Rewards`);

    await page.getByTestId('task-kyc_verified-claim').click();
    await expect.poll(() => page.url()).toContain('/Success');
    await expect.poll(() => page.locator('.adm-result-title').textContent()).toBe(text.mission);
    expect(await page.getByTestId('success-detail').textContent()).toBe(text.reward);
    await screenshot(page, `${language}-Rewards-mission`);

    await page.getByTestId('success-next').click();
    await expect.poll(() => page.url()).toContain('/Rewards');
    await expect.poll(() => kyc.getAttribute('data-status')).toBe('claimed');
    expect(await kyc.textContent()).toContain(text.claimed);
    await expect.poll(() => page.getByTestId('rewards-points').textContent()).toBe('200');
    await screenshot(page, `${language}-Rewards-claimed`);

    // The same claim again through the API pays nothing more.
    const again = await apiCall<unknown>(
      baseUrl,
      'POST',
      '/api/v1/tasks/claim',
      session.token,
      { task: 'kyc_verified' },
      { 'idempotency-key': `again-${Date.now()}` },
    );
    expect(again.code).toBe(2850);
    const tasks = await apiCall<{ points: number }>(baseUrl, 'GET', '/api/v1/tasks', session.token);
    expect(tasks.data.points).toBe(200);
    await context.close();
  });
});
