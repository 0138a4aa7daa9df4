import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, SCREENSHOT_DIR, launchBrowser, screenshot, signIn } from './browser.ts';
import { registerByApi } from './images.ts';

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const TEXT = {
  en: {
    tag: 'en',
    checkIn: 'Check in +10',
    done: 'Checked in today',
    awarded: 'Checked in: +10 points',
    refused: 'You have already checked in today.',
    bonusIn: 'Streak bonus +50 in 6 days.',
    history: 'History',
    kind: 'Daily check-in',
  },
  zh_CN: {
    tag: 'zh-CN',
    checkIn: '签到 +10',
    done: '今日已签到',
    awarded: '签到成功：+10 积分',
    refused: '您今天已经签到过了。',
    bonusIn: '再过 6 天可得连续签到奖励 +50。',
    history: '记录',
    kind: '每日签到',
  },
} as const;

let counter = 0;
const uniqueEmail = () => `checkin${Date.now()}${++counter}@example.com`;

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
const card = (page: Page) => page.getByTestId('checkin-card');
const cardShot = (page: Page, name: string) =>
  card(page).screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });

describe.each(['en', 'zh_CN'] as const)('daily check-in in %s', (language) => {
  it('check in on Home → reward toast, the card flips to checked in, a second check-in is refused, My shows the points', async () => {
    const text = TEXT[language];
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: baseUrl,
      locale: text.tag,
    });
    const page = await context.newPage();
    const session = await registerByApi(baseUrl, uniqueEmail());
    await signIn(page, session, language);

    await page.goto('/');
    const button = page.getByTestId('checkin-button');
    await expect.poll(() => button.textContent()).toContain(text.checkIn);
    expect(await page.getByTestId('checkin-streak').textContent()).toBe('0');
    expect(await page.getByTestId('checkin-points').textContent()).toBe('0');
    expect(await page.getByTestId('checkin-reward').textContent()).toBe('+10');
    expect(await card(page).textContent()).toContain(text.bonusIn);
    await card(page).scrollIntoViewIfNeeded();
    await screenshot(page, `${language}-Home-checkin`);
    await cardShot(page, `${language}-Home-checkin-card`);
    await noSidewaysScroll(page);

    await button.click();
    await expect
      .poll(() => page.locator('.adm-toast-main', { hasText: text.awarded }).count())
      .toBe(1);
    await expect.poll(() => button.textContent()).toContain(text.done);
    expect(await button.isDisabled()).toBe(true);
    expect(await page.getByTestId('checkin-streak').textContent()).toBe('1');
    expect(await page.getByTestId('checkin-points').textContent()).toBe('10');
    await cardShot(page, `${language}-Home-checkin-card-toast`);
    await expect.poll(() => page.locator('.adm-toast-mask').count()).toBe(0);

    // The optional history list: today's check-in, +10.
    await card(page).getByRole('button', { name: text.history }).click();
    const history = page.getByTestId('points-history');
    await expect.poll(() => history.locator('li').count()).toBe(1);
    expect(await history.textContent()).toContain(text.kind);
    expect(await history.textContent()).toContain('+10');
    await cardShot(page, `${language}-Home-checkin-card-done`);

    // A second check-in the same day, straight through the API, is refused and changes nothing.
    const again = (await (
      await fetch(`${baseUrl}/api/v1/points/checkin`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.token}`, 'accept-language': text.tag },
      })
    ).json()) as { code: number; message: string };
    expect(again).toMatchObject({ code: 2801, message: text.refused });

    await page.reload();
    await expect.poll(() => button.textContent()).toContain(text.done);
    expect(await page.getByTestId('checkin-points').textContent()).toBe('10');

    await page.goto('/My');
    await expect.poll(() => page.getByTestId('my-points').textContent()).toBe('10');
    await screenshot(page, `${language}-My-points`);
    await context.close();
  });
});
