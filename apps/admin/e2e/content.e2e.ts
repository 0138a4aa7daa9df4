import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from '../../web/e2e/suite-server.ts';
import {
  PHONE,
  apiCall,
  launchBrowser,
  screenshot,
  signIn,
  waitFor,
} from '../../web/e2e/browser.ts';
import { bandedPng, registerByApi } from '../../web/e2e/images.ts';
import {
  DESKTOP,
  createOperatorAs,
  operatorApi,
  operatorApiLogin,
  signInOperator,
} from './operator.ts';

/**
 * Content in the console (issue 7): a catalog operator writes a news item in English and
 * Simplified Chinese with the rich-text editor and a cover upload; the web client shows it on
 * Home and on its detail page in both languages. Then every content page, in English and
 * Chinese, for the screenshots.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const stamp = Date.now();
const ARTICLE = {
  en: {
    title: `Console news ${stamp}`,
    summary: 'Written in the operator console.',
    bold: 'Important',
    rest: ' — trading hours change next week.',
  },
  zh_CN: {
    title: `后台新闻 ${stamp}`,
    summary: '在运营后台撰写。',
    bold: '重要',
    rest: '——下周交易时间调整。',
  },
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

/** A user with 500 USDT in spot (simulated chain deposit) and KYC approved: what an IEO application needs. */
async function readyUser(name: string) {
  const api = <T>(method: 'GET' | 'POST', path: string, token?: string, body?: unknown) =>
    apiCall<T>(baseUrl, method, path, token, body);
  const user = await registerByApi(baseUrl, `${name}${stamp}@example.com`);
  const { address } = (await api<{ address: string }>('GET', '/api/v1/deposit/address', user.token))
    .data;
  expect(
    (await api('POST', '/api/v1/dev/chain/transfer', undefined, { address, amount: '500' })).code,
  ).toBe(0);
  await waitFor(
    'the deposit to be seen',
    async () =>
      (await api<{ items: unknown[] }>('GET', '/api/v1/deposit/history', user.token)).data.items
        .length > 0,
    30_000,
  );
  await api('POST', '/api/v1/dev/chain/mine', undefined, { blocks: 19 });
  const spot = async () =>
    (
      await api<{ spot: { asset: string; available: string }[] }>(
        'GET',
        '/api/v1/wallet/balances',
        user.token,
      )
    ).data.spot.find((b) => b.asset === 'USDT')?.available;
  await waitFor('the deposit to be credited', async () => (await spot()) === '500', 30_000);
  const photo = async (seed: number) => {
    const form = new FormData();
    form.append('purpose', 'kyc');
    form.append(
      'file',
      new Blob(
        [
          new Uint8Array(
            bandedPng(200, 160, [
              [seed, 90, 160],
              [200, seed, 60],
            ]),
          ),
        ],
        { type: 'image/png' },
      ),
      'photo.png',
    );
    return (
      (await (
        await fetch(`${baseUrl}/api/v1/files`, {
          method: 'POST',
          headers: { authorization: `Bearer ${user.token}` },
          body: form,
        })
      ).json()) as { data: { id: string } }
    ).data.id;
  };
  const kyc = await api<{ submission: { id: string } }>('POST', '/api/v1/kyc', user.token, {
    country: 'DE',
    lastName: 'Muster',
    firstName: 'Erika',
    documentType: 'passport',
    documentNumber: 'C01X00T47',
    frontFileId: await photo(40),
    faceFileId: await photo(120),
  });
  expect(kyc.code, kyc.message).toBe(0);
  expect(
    (
      await operatorApi(baseUrl, suiteServer().operator.token, 'POST', '/kyc/decide', {
        id: kyc.data.submission.id,
        decision: 'approve',
      })
    ).code,
  ).toBe(0);
  return user;
}

describe('content in the operator console', () => {
  it(
    'a catalog operator publishes a news item in English and Chinese; the web client shows it on Home and its detail page in both',
    { timeout: 180_000 },
    async () => {
      const catalog = await createOperatorAs(baseUrl, suiteServer().operator.token, 'catalog');
      const context = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
      const page = await context.newPage();
      await signInOperator(page, baseUrl, catalog, 'en');
      await page.getByRole('link', { name: 'News & notices' }).click();
      await page.getByTestId('news-create').click();

      // The cover: an uploaded image, re-encoded by the server, shown in the editor.
      await page.locator('input[type=file]').setInputFiles({
        name: 'cover.png',
        mimeType: 'image/png',
        buffer: bandedPng(640, 360, [
          [30, 90, 200],
          [240, 180, 40],
        ]),
      });
      await expect
        .poll(() => page.locator('input[placeholder^="or an image address"]').inputValue(), {
          timeout: 15_000,
        })
        .toMatch(/^\/files\/[0-9a-f]{48}\.jpg$/);

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
      const list = await operatorApi<{ items: { id: string; title: string }[] }>(
        baseUrl,
        token ?? '',
        'GET',
        '/news?kind=news',
      );
      const id = list.data.items.find((a) => a.title === ARTICLE.en.title)?.id;
      expect(id).toBeDefined();
      const detail = await operatorApi<{ body: Record<string, string> }>(
        baseUrl,
        token ?? '',
        'GET',
        `/news/detail?id=${id}`,
      );
      expect(detail.data.body.en).toContain(`<b>${ARTICLE.en.bold}</b>`);
      expect(detail.data.body.zh_CN).toContain(ARTICLE.zh_CN.rest);
      await context.close();

      // The web client, on a phone, in English then Chinese.
      for (const [language, text] of [
        ['en', ARTICLE.en],
        ['zh_CN', ARTICLE.zh_CN],
      ] as const) {
        const phone = await browser.newContext({
          viewport: PHONE,
          baseURL: baseUrl,
          locale: language === 'en' ? 'en' : 'zh-CN',
        });
        const client = await phone.newPage();
        const session = await registerByApi(
          baseUrl,
          `content${stamp}${language.replace('_', '').toLowerCase()}@example.com`,
        );
        expect(
          (await apiCall(baseUrl, 'POST', '/api/v1/user/language', session.token, { language }))
            .code,
        ).toBe(0);
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
        expect(
          (await client.locator('.tw-article-body').textContent())?.replace(/\s+/g, ' '),
        ).toContain(text.rest.replace(/\s+/g, ' '));
        await expect
          .poll(() =>
            client
              .locator('.tw-article-cover')
              .evaluate((img) => (img as HTMLImageElement).naturalWidth),
          )
          .toBeGreaterThan(0);
        expect(
          await client.evaluate(() => document.documentElement.scrollWidth),
        ).toBeLessThanOrEqual(PHONE.width);
        await screenshot(client, `content-web-news-${language}`);
        await phone.close();
      }
    },
  );

  it(
    'every content page in English and Chinese (an administrator sees all five); the IEO allocation is run and viewed from the console',
    { timeout: 300_000 },
    async () => {
      const [alice, bob] = [await readyUser('alice'), await readyUser('bob')];
      const admin = await createOperatorAs(baseUrl, suiteServer().operator.token, 'admin');
      // Something to show: a poll with a vote, a bonus code, an IEO project with applications, a broadcast.
      const token = await operatorApiLogin(
        baseUrl,
        await createOperatorAs(baseUrl, suiteServer().operator.token, 'catalog'),
      );
      const now = Date.now();
      const at = (ms: number) => new Date(ms).toISOString();
      const poll = await operatorApi<{ id: string; options: { id: string }[] }>(
        baseUrl,
        token,
        'POST',
        '/votes/create',
        {
          title: { en: 'Which chart style do you prefer?', zh_CN: '您更喜欢哪种图表样式？' },
          description: { en: 'Help us choose the default.' },
          options: [
            { label: { en: 'Candles', zh_CN: 'K 线' } },
            { label: { en: 'Line', zh_CN: '折线' } },
            { label: { en: 'Area', zh_CN: '面积' } },
          ],
          endsAt: at(now + 7 * 86_400_000),
        },
      );
      expect(poll.code, JSON.stringify(poll)).toBe(0);
      const voter = await registerByApi(baseUrl, `voter${stamp}@example.com`);
      expect(
        (
          await apiCall(baseUrl, 'POST', '/api/v1/votes/cast', voter.token, {
            pollId: poll.data.id,
            optionId: poll.data.options[0]?.id,
          })
        ).code,
      ).toBe(0);
      expect(
        (
          await operatorApi(baseUrl, token, 'POST', '/bonus-codes', {
            code: `SPRING${stamp % 10000}`,
            asset: 'USDT',
            amount: '5',
            maxRedemptions: 500,
            perUserLimit: 1,
            expiresAt: at(now + 30 * 86_400_000),
          })
        ).code,
      ).toBe(0);
      const endsAt = Date.now() + 25_000;
      const project = await operatorApi<{ id: string }>(baseUrl, token, 'POST', '/ieo/create', {
        slug: `console-${stamp}`,
        token: `CON${stamp % 10000}`,
        tokenName: 'Console token',
        name: { en: 'Console Launch', zh_CN: '控制台首发' },
        description: { en: 'A project for the screenshots.' },
        supply: '300',
        unitPrice: '1',
        priceMin: '0.5',
        priceMax: '1',
        perUserCap: '250',
        startsAt: at(now - 3_600_000),
        // Short, so the console can run the allocation in this test (the real clock runs here).
        endsAt: at(endsAt),
        listsAt: at(now + 86_400_000),
        announcedAt: at(now - 7_200_000),
      });
      expect(project.code, JSON.stringify(project)).toBe(0);
      // Oversubscribed (400 of 300): the supply is shared by the published rule.
      for (const [user, price] of [
        [alice, '1'],
        [bob, '0.5'],
      ] as const) {
        const applied = await apiCall(
          baseUrl,
          'POST',
          '/api/v1/ieo/subscribe',
          user.token,
          { projectId: project.data.id, price, quantity: '200' },
          { 'idempotency-key': `content-${user.uid}-${stamp}` },
        );
        expect(applied.code, applied.message).toBe(0);
      }

      const context = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl });
      const page = await context.newPage();
      await signInOperator(page, baseUrl, admin, 'en');
      expect(
        (
          await apiCall(
            baseUrl,
            'POST',
            '/api/admin/v1/messages/broadcast',
            await page.evaluate(() => sessionStorage.getItem('tw-admin-token') ?? ''),
            {
              title: { en: 'Maintenance on Sunday', zh_CN: '周日维护' },
              body: { en: 'Trading pauses 02:00–02:30 UTC.' },
            },
          )
        ).code,
      ).toBe(0);
      // The subscription ends; the operator runs the allocation (the worker may have run it first: then there is no button, and the result is the same).
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, endsAt - Date.now() + 1_000)));
      await page.goto('/admin/ieo');
      const allocateButton = page.getByTestId(`ieo-allocate-CON${stamp % 10000}`);
      await page.locator('tbody tr[data-row-key]').first().waitFor();
      if ((await allocateButton.count()) > 0) {
        await allocateButton.click();
        await page.getByTestId('money-confirm-ok').waitFor();
        await page.waitForTimeout(600);
        await screenshot(page, 'admin-ieo-allocate-confirm-en');
        await page.getByTestId('money-confirm-ok').click();
      } else {
        await page.locator('tr', { hasText: 'Console Launch' }).getByRole('button').first().click();
      }
      const allocation = page.getByTestId('ieo-allocation');
      await allocation.waitFor({ timeout: 15_000 });
      // allocate(): both capped at 200 want 400 of 300; pro rata to 200 and 100 USDT committed → 200 and 100.
      expect((await allocation.textContent())?.replace(/\s+/g, ' ')).toMatch(
        /Allocated ?300.*Unsold ?0/,
      );
      const rowOf = (uid: string) =>
        page.getByTestId('ieo-applications').locator('tbody.ant-table-tbody tr', {
          has: page.getByRole('cell', { name: uid, exact: true }),
        });
      // Columns: user, status, offer, requested, committed, allocated, paid, refunded.
      expect((await rowOf(alice.uid).locator('td').allTextContents()).slice(2, 8)).toEqual([
        '1',
        '200',
        '200',
        '200',
        '200',
        '0',
      ]);
      expect((await rowOf(bob.uid).locator('td').allTextContents()).slice(2, 8)).toEqual([
        '0.5',
        '200',
        '100',
        '100',
        '50',
        '50',
      ]);
      await page.waitForTimeout(800);
      await screenshot(page, 'admin-ieo-allocation-en');

      for (const language of ['en', 'zh-CN'] as const) {
        await page.evaluate((lang) => localStorage.setItem('tw-admin-lang', lang), language);
        for (const path of ['news', 'broadcast', 'polls', 'bonus-codes', 'ieo'] as const) {
          await page.goto(`/admin/${path}`);
          // A row with a key is data, not the empty placeholder; then let the loading veil fade out.
          await page.locator('tbody tr[data-row-key]').first().waitFor({ timeout: 15_000 });
          await page.waitForTimeout(600);
          await screenshot(page, `admin-${path}-${language}`);
        }
        await page.locator('tr', { hasText: 'Console Launch' }).getByRole('button').first().click();
        await page.getByTestId('ieo-applications').waitFor();
        await page.getByTestId('ieo-applications').locator('.ant-descriptions').waitFor();
        // Let the drawer finish sliding in before the picture.
        await page.waitForTimeout(800);
        await screenshot(page, `admin-ieo-applications-${language}`);
        await page.goto('/admin/news');
        await page.getByTestId('news-create').click();
        await page.getByTestId('news-title-en').waitFor();
        await page.waitForTimeout(600);
        await screenshot(page, `admin-news-new-${language}`);
      }
      await context.close();
    },
  );
});
