import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, apiCall, launchBrowser, screenshot, waitFor } from './browser.ts';
import { type Session, fundedFuturesUser } from './funded-user.ts';
import { TRADE_PIN } from './ready-user.ts';
import { suiteServer } from './suite-server.ts';

/**
 * The funds detail by event (issue 32) in Chromium at 390×844: one row per event in plain,
 * translated words with its net change (an order placed, then won, lost or refunded; a
 * transfer; a deposit), never a raw reference; a row opens its postings and reference.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
let user: Session;
let counter = 0;

const api = <T>(
  method: 'GET' | 'POST',
  url: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => apiCall<T>(baseUrl, method, url, token, body, headers);

interface Event {
  id: string;
  kind: string;
  reference: string;
  order: { outcome: string | null } | null;
  changes: { asset: string; wallet: string; amount: string; locked: string }[];
}

const TEXT = {
  en: {
    title: 'Funds detail',
    placed: 'BTC/USDT Up · order placed',
    settled: /^BTC\/USDT Up · (won|lost|tie, refunded|void, refunded)$/,
    transfer: 'Transfer Spot → Futures',
    deposit: 'Deposit',
    frozen: 'Frozen 10.02 USDT',
    postings: 'Postings',
    reference: 'Reference',
    margin: 'Position margin',
    noMore: 'No more data',
  },
  zh_CN: {
    title: '资金明细',
    placed: 'BTC/USDT 买涨 · 已下单',
    settled: /^BTC\/USDT 买涨 · (盈利|亏损|平局，已退还|作废，已退还)$/,
    transfer: '划转 现货 → 合约',
    deposit: '充值',
    frozen: '冻结 10.02 USDT',
    postings: '账务明细',
    reference: '参考编号',
    margin: null,
    noMore: null,
  },
  de: {
    title: null,
    placed: 'BTC/USDT Steigend · Order aufgegeben',
    settled:
      /^BTC\/USDT Steigend · (gewonnen|verloren|unentschieden, erstattet|ungültig, erstattet)$/,
    transfer: 'Übertragung Spot → Futures',
    deposit: 'Einzahlung',
    frozen: 'Eingefroren 10,02 USDT',
    postings: 'Buchungen',
    reference: 'Referenz',
    margin: 'Positionsmarge',
    noMore: null,
  },
} as const;

beforeAll(async () => {
  browser = await launchBrowser();
  await waitFor('fresh prices', async () =>
    (
      await api<{ items: { price: string | null }[] }>('GET', '/api/v1/market/prices')
    ).data.items.every((i) => i.price !== null),
  );
  user = await fundedFuturesUser(baseUrl, '100', 'events');
  const { periods } = (
    await api<{ periods: { id: number; seconds: number }[] }>(
      'GET',
      '/api/v1/contracts/config',
      user.token,
    )
  ).data;
  const shortest = periods.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const placed = await api<{ order: { id: string } }>(
    'POST',
    '/api/v1/contracts/orders',
    user.token,
    {
      symbol: 'BTCUSDT',
      direction: 'up',
      periodId: shortest.id,
      amount: '10',
      tradePassword: TRADE_PIN,
    },
    { 'idempotency-key': `e2e-events-${Date.now()}-${++counter}` },
  );
  expect(placed.code, JSON.stringify(placed)).toBe(0);
  await waitFor(
    'the order to settle',
    async () =>
      (await api<{ items: Event[] }>('GET', '/api/v1/funds/events', user.token)).data.items.some(
        (e) => e.kind === 'contract_settle',
      ),
    (shortest.seconds + 30) * 1000,
  );
}, 120_000);
afterAll(() => browser?.close());

/** A phone-sized page signed in as the user in `language`, stored before any script of the app runs. */
async function phonePage(language: keyof typeof TEXT): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, baseURL: baseUrl });
  await context.addInitScript(
    ([token, uid, lang]) => {
      localStorage.setItem('token', token as string);
      localStorage.setItem('uid', uid as string);
      localStorage.setItem('lang', lang as string);
    },
    [user.token, user.uid, language],
  );
  return context.newPage();
}

describe('/WalletDetail by event at 390×844', () => {
  it('the server lists one event per entry, whose net changes are the balance', async () => {
    const events = (await api<{ items: Event[] }>('GET', '/api/v1/funds/events', user.token)).data
      .items;
    expect(events.map((e) => e.kind)).toEqual([
      'contract_settle',
      'contract_open',
      'transfer',
      'deposit',
    ]);
    expect(events[1]?.changes).toEqual([
      { asset: 'USDT', wallet: 'futures', amount: '0', locked: '10.02' },
    ]);
  });

  for (const language of ['en', 'zh_CN', 'de'] as const) {
    it(`${language}: the list in plain words, and an event's detail`, async () => {
      const text = TEXT[language];
      const page = await phonePage(language);
      await page.goto('/WalletDetail');
      const rows = page.getByTestId('funds-event');
      // The first screen of a cold browser on a busy machine can take a while.
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(4);
      const titles = await rows.locator('.tw-fd-type').allTextContents();
      expect(titles[0]).toMatch(text.settled);
      expect(titles.slice(1)).toEqual([text.placed, text.transfer, text.deposit]);
      const all = (await rows.allTextContents()).join('\n');
      // No raw reference in the list, no key left untranslated.
      expect(all).not.toMatch(/contract:\d+|deposit:[0-9a-f]{16}|transfer:|funds_events\./);
      expect(await rows.nth(1).textContent()).toContain(text.frozen);
      if (text.title) expect(await page.locator('h1').first().textContent()).toBe(text.title);
      if (text.noMore) await expect.poll(() => page.getByText(text.noMore).count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await screenshot(page, `${language}-funds-events`);

      // The order placed: its two legs, the time and the reference.
      await rows.nth(1).locator('button').click();
      const detail = page.getByTestId('funds-event-detail');
      await expect.poll(() => detail.count()).toBe(1);
      await page.waitForTimeout(400);
      expect(await detail.locator('h2').textContent()).toBe(text.placed);
      expect(await detail.getByTestId('funds-event-posting').count()).toBe(2);
      const detailText = (await detail.textContent()) ?? '';
      expect(detailText).toContain(text.postings);
      expect(detailText).toContain(text.reference);
      expect(detailText).toMatch(/contract:\d+:open/);
      if (text.margin) expect(detailText).toContain(text.margin);
      expect(detailText).not.toMatch(/entry_types\.|funds\./);
      await screenshot(page, `${language}-funds-event-detail`);
      await page.context().close();
    }, 60_000);
  }
});
