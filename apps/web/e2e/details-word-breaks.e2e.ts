import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, launchBrowser, screenshot } from './browser.ts';
import { registerByApi } from './images.ts';

/**
 * No line ends inside a word (issue 32): "Incorrect account or password." once broke as
 * "passw / ord." in the sign-in toast. Lines wrap at spaces; only an unbroken token longer
 * than its box (an address, a hash) may break, as a last resort.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const TEXT = {
  en: { tag: 'en', signIn: 'Sign in', wrong: 'Incorrect account or password.' },
  de: { tag: 'de', signIn: 'Anmelden', wrong: 'Konto oder Passwort ist falsch.' },
  zh_CN: { tag: 'zh-CN', signIn: '登录', wrong: '账号或密码错误。' },
} as const;

/**
 * The words of `selector`'s text that the browser laid out on more than one line: each word's
 * Range gives one client rect per line box it occupies. Tokens over `longTokenChars` (addresses,
 * hashes) may break, so they are left out.
 */
function brokenWords(page: Page, selector: string, longTokenChars = 24): Promise<string[]> {
  return page.evaluate(
    ({ selector, longTokenChars }) => {
      const broken: string[] = [];
      for (const root of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          for (const match of text.matchAll(/[^\s\u200b\u00ad-]+/g)) {
            const word = match[0];
            // CJK text has no spaces: any character boundary is a place to wrap.
            if (word.length > longTokenChars || /[\u3000-\u9fff\uff00-\uffef]/.test(word)) continue;
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + word.length);
            const tops = new Set(
              [...range.getClientRects()]
                .filter((rect) => rect.width > 0)
                .map((rect) => Math.round(rect.top)),
            );
            if (tops.size > 1) broken.push(word);
          }
        }
      }
      return broken;
    },
    { selector, longTokenChars },
  );
}

async function phonePage(language: keyof typeof TEXT) {
  const context = await browser.newContext({
    viewport: PHONE,
    baseURL: baseUrl,
    locale: TEXT[language].tag,
  });
  const page = await context.newPage();
  await page.goto('/Login');
  await page.evaluate((lang) => localStorage.setItem('lang', lang), language);
  await page.reload();
  return { context, page };
}

describe.each(['en', 'de', 'zh_CN'] as const)('line breaks in %s', (language) => {
  const text = TEXT[language];

  it('the sign-in error wraps at spaces, never inside a word; <html lang> names the language', async () => {
    const { context, page } = await phonePage(language);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(text.tag);
    await page
      .locator('input[autocomplete="username"], input[autocomplete="email"]')
      .first()
      .fill(`nobody${Date.now()}@example.com`);
    await page.locator('input[type="password"]').fill('wrong-password-1');
    await page.getByRole('button', { name: text.signIn, exact: true }).click();
    const toast = page.locator('.adm-toast-main', { hasText: text.wrong });
    await expect.poll(() => toast.count()).toBe(1);
    await page.waitForTimeout(300);
    await screenshot(page, `${language}-details-signin-error`);
    expect(await brokenWords(page, '.adm-toast-main')).toEqual([]);
    // The rules that keep it so whatever the text and the box: breaks at spaces, a word broken
    // only when it alone is wider than the line (never `anywhere`/`break-all`, which also let a
    // layout squeeze a box narrower than its words), hyphenation where the language has it.
    const styles = await page.evaluate(() => {
      const of = (element: Element | null) => {
        const style = element ? getComputedStyle(element) : undefined;
        return style && [style.wordBreak, style.overflowWrap, style.hyphens].join(' ');
      };
      return {
        page: of(document.documentElement),
        toast: of(document.querySelector('.adm-toast-main')),
        error: of(document.querySelector('.adm-form-item-feedback-error') ?? document.body),
        title: of(document.querySelector('h1')),
      };
    });
    const hyphens = language === 'zh_CN' ? 'manual' : 'auto';
    expect(styles).toEqual({
      page: `normal break-word ${hyphens}`,
      toast: `normal break-word ${hyphens}`,
      error: `normal break-word ${hyphens}`,
      title: `normal break-word ${hyphens}`,
    });
    await context.close();
  });

  it('toasts, form errors and titles keep their words whole on the pages of a session', async () => {
    const session = await registerByApi(
      baseUrl,
      `breaks${Date.now()}${language.replace('_', '').toLowerCase()}@example.com`,
    );
    const { context, page } = await phonePage(language);
    await page.evaluate(({ token, uid }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('uid', uid);
    }, session);
    for (const path of ['/My', '/Wallet', '/Invite', '/ChangePwd', '/SetInfo', '/WalletDetail']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      expect({ path, broken: await brokenWords(page, '#root') }).toEqual({ path, broken: [] });
    }
    // The funds filter's type sheet: two long names a row ("Auszahlungserstattung").
    await page.locator('.tw-fd-chip').first().click();
    await expect.poll(() => page.locator('.tw-fd-sheet').isVisible()).toBe(true);
    await page.waitForTimeout(400);
    expect(await brokenWords(page, '.tw-fd-sheet')).toEqual([]);
    await context.close();
  }, 60_000);
});
