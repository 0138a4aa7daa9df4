import crypto from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, apiCall, launchBrowser, screenshot } from './browser.ts';
import { registerByApi } from './images.ts';

/**
 * Sign-in is throttled per account (ARCHITECTURE §8): after five wrong passwords the sign-in
 * page says why it refuses and how long to wait, in the visitor's language, and the owner has
 * a message about it.
 */
const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** The pause message with its wait: 30 s from the fifth wrong password, less by the time the browser took to send the sixth. */
const PAUSED: Record<string, RegExp> = {
  en: /^Too many wrong passwords for this account\. Try again in (\d+) s\.$/,
  zh_CN: /^该账户密码错误次数过多，请在 (\d+) 秒后再试。$/,
  de: /^Zu viele falsche Passwörter für dieses Konto\. Bitte in (\d+) s erneut versuchen\.$/,
};

const WELCOME: Record<string, string> = {
  en: 'Welcome back',
  zh_CN: '欢迎回来',
  de: 'Willkommen zurück',
};

describe('sign-in paused after wrong passwords', () => {
  it.each(Object.keys(PAUSED))(
    '%s: the attempt after five wrong passwords shows the pause and its wait, not "incorrect password"',
    async (language) => {
      const email = `throttle-${language.toLowerCase()}-${crypto.randomBytes(3).toString('hex')}@example.com`;
      await registerByApi(baseUrl, email);
      // Five wrong passwords from elsewhere (a guesser): the account's first wait starts.
      for (let attempt = 1; attempt <= 5; attempt++) {
        const reply = await apiCall(baseUrl, 'POST', '/api/v1/auth/login', undefined, {
          channel: 'email',
          account: email,
          password: `wrong-password-${attempt}`,
        });
        expect(reply.code).toBe(1001);
      }
      const context = await browser.newContext({
        viewport: PHONE,
        baseURL: baseUrl,
        locale: 'en-US',
      });
      try {
        const page = await context.newPage();
        // An action that cannot happen fails with its reason instead of waiting out the test.
        page.setDefaultTimeout(15_000);
        await page.goto('/Login');
        await page.evaluate((lang) => localStorage.setItem('lang', lang), language);
        await page.reload();
        // The page in its language, and its form run by the app (`data-ready`): the prerendered
        // page is there first, and what is typed into it before the app takes over can be lost.
        await expect.poll(() => page.locator('h1').textContent()).toBe(WELCOME[language]);
        await expect
          .poll(() =>
            page.evaluate(() => 'ready' in (document.querySelector('form')?.dataset ?? {})),
          )
          .toBe(true);
        await page.locator('input[autocomplete="email"]').fill(email);
        await page.locator('input[type="password"]').fill('wrong-password-6');
        await page.locator('button[type="submit"]').click();
        // Every toast on screen, without waiting for one: a toast lasts two seconds.
        const paused = PAUSED[language] as RegExp;
        await expect
          .poll(async () =>
            (await page.locator('.adm-toast-main').allTextContents()).find((text) =>
              paused.test(text),
            ),
          )
          .toBeDefined();
        const shown =
          (await page.locator('.adm-toast-main').allTextContents()).find((text) =>
            paused.test(text),
          ) ?? '';
        const waitS = Number(paused.exec(shown)?.[1]);
        expect(waitS).toBeGreaterThan(0);
        expect(waitS).toBeLessThanOrEqual(30);
        await screenshot(page, `${language}-sign-in-paused`);
        // Still on the sign-in page, with what was typed.
        expect(new URL(page.url()).pathname).toBe('/Login');
        expect(await page.locator('input[autocomplete="email"]').inputValue()).toBe(email);
      } finally {
        await context.close();
      }
    },
  );
});
