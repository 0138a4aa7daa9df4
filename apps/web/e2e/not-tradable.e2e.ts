import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import crypto from 'node:crypto';
import { PHONE, launchBrowser, screenshot, signIn } from './browser.ts';
import { admin, registerByApi } from './images.ts';

/**
 * An instrument nobody may trade here (no live source covers it, or operators closed it):
 * /Detail keeps the buy buttons off and says why, in the visitor's language.
 */
const baseUrl = suiteServer().baseUrl;
const operator = suiteServer().operator;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const WHY: Record<string, string> = {
  en: 'Not open for trading here: no live price source covers this market, or operators closed it.',
  zh_CN: '此处暂不可交易：没有实时价格来源覆盖该市场，或已被关闭。',
  de: 'Hier nicht handelbar: Keine Live-Kursquelle deckt diesen Markt ab, oder er wurde geschlossen.',
};

describe('a market that cannot be traded says why', () => {
  it.each(Object.keys(WHY))(
    '%s: /Detail of a closed market keeps Buy up and Buy down off and gives the reason',
    { timeout: 60_000 },
    async (language) => {
      const saved = await admin<{
        items: {
          symbol: string;
          tradable: boolean;
          recommended: boolean;
          popular: boolean;
          displayName: string | null;
          sort: number;
        }[];
      }>(baseUrl, operator.token, 'GET', '/market/instruments');
      const silver = saved.data.items.find((item) => item.symbol === 'XAGUSD');
      expect(silver).toBeDefined();
      const save = (tradable: boolean) =>
        admin(baseUrl, operator.token, 'POST', '/market/instruments', {
          symbol: 'XAGUSD',
          tradable,
          recommended: silver?.recommended,
          popular: silver?.popular,
          displayName: silver?.displayName,
          sort: silver?.sort,
        });
      expect((await save(false)).code).toBe(0);
      const context = await browser.newContext({ viewport: PHONE, baseURL: baseUrl });
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        await signIn(
          page,
          await registerByApi(
            baseUrl,
            `closed-${language.toLowerCase()}-${crypto.randomBytes(3).toString('hex')}@example.com`,
          ),
          language,
        );
        await page.goto('/Detail?symbol=XAGUSD');
        await expect.poll(() => page.getByTestId('not-tradable').textContent()).toBe(WHY[language]);
        expect(await page.locator('.tw-buy[data-direction="up"]').isDisabled()).toBe(true);
        expect(await page.locator('.tw-buy[data-direction="down"]').isDisabled()).toBe(true);
        await screenshot(page, `${language}-detail-not-tradable`);
      } finally {
        await context.close();
        expect((await save(true)).code).toBe(0);
      }
    },
  );
});
