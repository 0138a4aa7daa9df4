import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PHONE, apiCall, launchBrowser, screenshot, signIn } from '../../web/e2e/browser.ts';
import { bandedPng, registerByApi } from '../../web/e2e/images.ts';
import { DESKTOP, createOperatorAs, operatorApi, operatorApiLogin, signInOperator } from './operator.ts';

/**
 * Content in the console (issue 7): a catalog operator writes a news item in English and
 * Simplified Chinese with the rich-text editor and a cover upload; the web client shows it on
 * Home and on its detail page in both languages. Then every content page, in English and
 * Chinese, for the screenshots.
 */

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const stamp = Date.now();
const ARTICLE = {
  en: { title: `Console news ${stamp}`, summary: 'Written in the operator console.', bold: 'Important', rest: ' — trading hours change next week.' },
  zh_CN: { title: `后台新闻 ${stamp}`, summary: '在运营后台撰写。', bold: '重要', rest: '——下周交易时间调整。' },
} as const;

/** Types into the contentEditable body: a bold word, then plain text. */
async function writeBody(page: Page, language: 'en' | 'zh_CN') {
  const text = ARTICLE[language];
  const area = page.getByTestId(`news-body-${language}`);
  const bold = area.locator('xpath=..').getByRole('button', { name: 'Bold' });
  await area.click();
  await bold.click();
  await page.keyboard.type(text.bold);
  await bold.click();
  await page.keyboard.type(text.rest);
}

describe('content in the operator console', () => {
  it('a catalog operator publishes a news item in English and Chinese; the web client shows it on Home and its detail page in both', { timeout: 180_000 }, async () => {
    const catalog = await createOperatorAs(baseUrl, inject('operator').token, 'catalog');
    const context = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
    const page = await context.newPage();
    await signInOperator(page, baseUrl, catalog, 'en');
    await page.getByRole('link', { name: 'News & notices' }).click();
    await page.getByTestId('news-create').click();

    // The cover: an uploaded image, re-encoded by the server, shown in the editor.
    await page.locator('input[type=file]').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: bandedPng(640, 360, [[30, 90, 200], [240, 180, 40]]) });
    await expect.poll(() => page.locator('input[placeholder^="or an image address"]').inputValue(), { timeout: 15_000 }).toMatch(/^\/files\/[0-9a-f]{48}\.jpg$/);

    await page.getByTestId('news-title-en').fill(ARTICLE.en.title);
    await page.getByTestId('news-summary-en').fill(ARTICLE.en.summary);
    await writeBody(page, 'en');
    await page.getByTestId('lang-tab-zh_CN').click();
    await page.getByTestId('news-title-zh_CN').fill(ARTICLE.zh_CN.title);
    await page.getByTestId('news-summary-zh_CN').fill(ARTICLE.zh_CN.summary);
    await writeBody(page, 'zh_CN');
    await page.mouse.move(0, 0);
    await screenshot(page, 'admin-news-editor-en');

    // The preview draws the body in a sandbox, as readers will see it.
    await page.getByTestId('news-preview').click();
    const preview = page.frameLocator('iframe[title="preview"]');
    await expect.poll(() => preview.locator('b').first().textContent()).toBe(ARTICLE.en.bold);
    await screenshot(page, 'admin-news-preview-en');
    await page.keyboard.press('Escape');

    await page.getByTestId('news-save').click();
    const row = page.locator('tr', { hasText: ARTICLE.en.title });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.textContent()).toContain('Published');
    expect(await row.textContent()).toContain('zh-CN');
    await screenshot(page, 'admin-news-en');

    // What the server stored: the body sanitised, both languages.
    const token = await page.evaluate(() => sessionStorage.getItem('tw-admin-token'));
    const list = await operatorApi<{ items: { id: string; title: string }[] }>(baseUrl, token ?? '', 'GET', '/news?kind=news');
    const id = list.data.items.find((a) => a.title === ARTICLE.en.title)?.id;
    expect(id).toBeDefined();
    const detail = await operatorApi<{ body: Record<string, string> }>(baseUrl, token ?? '', 'GET', `/news/detail?id=${id}`);
    expect(detail.data.body.en).toContain(`<b>${ARTICLE.en.bold}</b>`);
    expect(detail.data.body.zh_CN).toContain(ARTICLE.zh_CN.rest);
    await context.close();

    // The web client, on a phone, in English then Chinese.
    for (const [language, text] of [
      ['en', ARTICLE.en],
      ['zh_CN', ARTICLE.zh_CN],
    ] as const) {
      const phone = await browser.newContext({ viewport: PHONE, baseURL: baseUrl, locale: language === 'en' ? 'en' : 'zh-CN' });
      const client = await phone.newPage();
      const session = await registerByApi(baseUrl, `content${stamp}${language.replace("_", "").toLowerCase()}@example.com`);
      expect((await apiCall(baseUrl, 'POST', '/api/v1/user/language', session.token, { language })).code).toBe(0);
      await signIn(client, session, language);
      await client.goto('/');
      const link = client.locator('.tw-home-news a', { hasText: text.title });
      await expect.poll(() => link.count(), { timeout: 15_000 }).toBe(1);
      expect(await link.textContent()).toContain(text.summary);
      await screenshot(client, `content-web-home-${language}`);
      await link.click();
      await expect.poll(() => client.locator('#article-title').textContent()).toBe(text.title);
      expect(await client.locator('.tw-article-body b').first().textContent()).toBe(text.bold);
      // Typing leaves a no-break space where a space ended a run: compare words, not whitespace.
      expect((await client.locator('.tw-article-body').textContent())?.replace(/\s+/g, ' ')).toContain(text.rest.replace(/\s+/g, ' '));
      await expect.poll(() => client.locator('.tw-article-cover').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      expect(await client.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await screenshot(client, `content-web-news-${language}`);
      await phone.close();
    }
  });

  it('every content page in English and Chinese (an administrator sees all five)', { timeout: 180_000 }, async () => {
    const admin = await createOperatorAs(baseUrl, inject('operator').token, 'admin');
    // Something to show: a poll with a vote, a bonus code, an IEO project with applications, a broadcast.
    const token = await operatorApiLogin(baseUrl, await createOperatorAs(baseUrl, inject('operator').token, 'catalog'));
    const now = Date.now();
    const at = (ms: number) => new Date(ms).toISOString();
    const poll = await operatorApi<{ id: string; options: { id: string }[] }>(baseUrl, token, 'POST', '/votes/create', {
      title: { en: 'Which chart style do you prefer?', zh_CN: '您更喜欢哪种图表样式？' },
      description: { en: 'Help us choose the default.' },
      options: [{ label: { en: 'Candles', zh_CN: 'K 线' } }, { label: { en: 'Line', zh_CN: '折线' } }, { label: { en: 'Area', zh_CN: '面积' } }],
      endsAt: at(now + 7 * 86_400_000),
    });
    expect(poll.code, JSON.stringify(poll)).toBe(0);
    const voter = await registerByApi(baseUrl, `voter${stamp}@example.com`);
    expect((await apiCall(baseUrl, 'POST', '/api/v1/votes/cast', voter.token, { pollId: poll.data.id, optionId: poll.data.options[0]?.id })).code).toBe(0);
    expect((await operatorApi(baseUrl, token, 'POST', '/bonus-codes', { code: `SPRING${stamp % 10000}`, asset: 'USDT', amount: '5', maxRedemptions: 500, perUserLimit: 1, expiresAt: at(now + 30 * 86_400_000) })).code).toBe(0);
    const project = await operatorApi<{ id: string }>(baseUrl, token, 'POST', '/ieo/create', {
      slug: `console-${stamp}`,
      token: `CON${stamp % 10000}`,
      tokenName: 'Console token',
      name: { en: 'Console Launch', zh_CN: '控制台首发' },
      description: { en: 'A project for the screenshots.' },
      supply: '10000',
      unitPrice: '0.5',
      priceMin: '0.4',
      priceMax: '0.8',
      perUserCap: '2000',
      startsAt: at(now - 3_600_000),
      endsAt: at(now + 86_400_000),
      listsAt: at(now + 2 * 86_400_000),
      announcedAt: at(now - 7_200_000),
    });
    expect(project.code, JSON.stringify(project)).toBe(0);

    const context = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
    const page = await context.newPage();
    await signInOperator(page, baseUrl, admin, 'en');
    expect(
      (await apiCall(baseUrl, 'POST', '/api/admin/v1/messages/broadcast', await page.evaluate(() => sessionStorage.getItem('tw-admin-token') ?? ''), { title: { en: 'Maintenance on Sunday', zh_CN: '周日维护' }, body: { en: 'Trading pauses 02:00–02:30 UTC.' } })).code,
    ).toBe(0);
    for (const language of ['en', 'zh-CN'] as const) {
      await page.evaluate((lang) => localStorage.setItem('tw-admin-lang', lang), language);
      for (const [path, name, ready] of [
        ['news', 'news', 'tbody tr'],
        ['broadcast', 'broadcast', 'tbody tr'],
        ['polls', 'polls', '.ant-progress'],
        ['bonus-codes', 'bonus-codes', 'tbody tr code'],
        ['ieo', 'ieo', 'tbody tr'],
      ] as const) {
        await page.goto(`/admin/${path}`);
        await page.locator(ready).first().waitFor({ timeout: 15_000 });
        await expect.poll(() => page.locator('.ant-spin-spinning').count()).toBe(0);
        await screenshot(page, `admin-${name}-${language}`);
      }
      await page.locator('tr', { hasText: 'Console Launch' }).getByRole('button').first().click();
      await page.getByTestId('ieo-applications').waitFor();
      await expect.poll(() => page.locator('.ant-spin-spinning').count()).toBe(0);
      // Let the drawer finish sliding in before the picture.
      await page.waitForTimeout(600);
      await screenshot(page, `admin-ieo-applications-${language}`);
      await page.goto('/admin/news');
      await page.getByTestId('news-create').click();
      await page.getByTestId('news-title-en').waitFor();
      await page.waitForTimeout(600);
      await screenshot(page, `admin-news-new-${language}`);
    }
    await context.close();
  });
});
