import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, apiCall, launchBrowser, screenshot, signIn } from './browser.ts';
import { admin, bandedPng, registerByApi } from './images.ts';

/**
 * Messages, news and notices against the real server: a KYC approval writes a message in
 * the user's language and the badge on My appears live over the socket; opening the
 * message drops it. Home lists the seeded news and the latest notice; each opens.
 */

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
let operator: string;
beforeAll(async () => {
  browser = await launchBrowser();
  operator = suiteServer().operator.token;
});
afterAll(() => browser?.close());

const TEXT = {
  en: {
    tag: 'en',
    title: 'Identity verified',
    body: 'Your identity verification has passed.',
    news: 'Markets this week: Bitcoin holds its range',
    notice: 'Scheduled maintenance on Sunday 02:00–02:30 UTC',
    markAll: 'Mark all read',
  },
  de: {
    tag: 'de',
    title: 'Identität verifiziert',
    body: 'Ihre Identitätsprüfung war erfolgreich.',
    news: 'Märkte diese Woche: Bitcoin hält seine Spanne',
    notice: 'Geplante Wartung am Sonntag, 02:00–02:30 UTC',
    markAll: 'Alle als gelesen markieren',
  },
} as const;

let counter = 0;
const uniqueEmail = () => `msg${Date.now()}${++counter}@example.com`;

async function uploadPhoto(token: string, seed: number): Promise<string> {
  const form = new FormData();
  form.append('purpose', 'kyc');
  form.append(
    'file',
    new Blob(
      [
        new Uint8Array(
          bandedPng(120, 80, [
            [seed, 90, 160],
            [200, seed, 60],
          ]),
        ),
      ],
      { type: 'image/png' },
    ),
    'photo.png',
  );
  const reply = (await (
    await fetch(`${baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
  ).json()) as { code: number; data: { id: string } };
  expect(reply.code, JSON.stringify(reply)).toBe(0);
  return reply.data.id;
}

/** Submits a verification through the API and has the operator approve it: the event that writes the message. */
async function verifyIdentity(session: { token: string; uid: string }): Promise<void> {
  const submitted = await apiCall<{ submission: { id: string } }>(
    baseUrl,
    'POST',
    '/api/v1/kyc',
    session.token,
    {
      country: 'DE',
      lastName: 'Muster',
      firstName: 'Erika',
      documentType: 'passport',
      documentNumber: 'c01x00t47',
      frontFileId: await uploadPhoto(session.token, 40),
      faceFileId: await uploadPhoto(session.token, 120),
    },
  );
  expect(submitted.code, JSON.stringify(submitted)).toBe(0);
  expect(
    (
      await admin(baseUrl, operator, 'POST', '/kyc/decide', {
        id: submitted.data.submission.id,
        decision: 'approve',
      })
    ).code,
  ).toBe(0);
}

/** Resolves once the page's socket has authenticated (its user channel is joined). */
function socketAuthenticated(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) => {
      ws.on('framereceived', (frame) => {
        const message = JSON.parse(String(frame.payload)) as { op?: string; ok?: boolean };
        if (message.op === 'auth' && message.ok) resolve();
      });
    });
  });
}

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );

describe.each(['en', 'de'] as const)('messages and news in %s', (language) => {
  it(
    'a KYC result shows as an unread badge live; opening the message drops it; Home opens a news article and a notice',
    { timeout: 90_000 },
    async () => {
      const text = TEXT[language];
      const context = await browser.newContext({
        viewport: PHONE,
        baseURL: baseUrl,
        locale: text.tag,
      });
      const page = await context.newPage();
      const session = await registerByApi(baseUrl, uniqueEmail());
      // The app tells the server the chosen language; messages are written in it.
      expect(
        (await apiCall(baseUrl, 'POST', '/api/v1/user/language', session.token, { language })).code,
      ).toBe(0);
      await signIn(page, session, language);

      // My, with no messages: no badge. Then the approval arrives while the page is open.
      const authenticated = socketAuthenticated(page);
      await page.goto('/My');
      await expect.poll(() => page.getByText('UID').count()).toBeGreaterThan(0);
      await authenticated;
      expect(await page.getByTestId('my-msg-badge').count()).toBe(0);
      await verifyIdentity(session);
      await expect
        .poll(() => page.getByTestId('my-msg-badge').textContent(), { timeout: 10_000 })
        .toBe('1');
      await screenshot(page, `msg-${language}-My-badge`);

      // /Msg lists it, unread, in the user's language.
      await page.getByTestId('my-msg-badge').click();
      await expect.poll(() => page.url()).toContain('/Msg');
      const row = page.locator('.tw-msg-row', { hasText: text.title });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.getAttribute('class')).toContain('tw-msg-unread');
      expect(await page.getByText(text.markAll).count()).toBe(1);
      await noSidewaysScroll(page);
      await screenshot(page, `msg-${language}-Msg`);

      // Opening it marks it read.
      await row.click();
      await expect.poll(() => page.locator('#msg-title').textContent()).toBe(text.title);
      expect(await page.locator('.tw-msg-body').textContent()).toContain(text.body);
      await expect
        .poll(
          async () =>
            (
              await apiCall<{ unread: number }>(
                baseUrl,
                'GET',
                '/api/v1/messages/unread',
                session.token,
              )
            ).data.unread,
        )
        .toBe(0);
      await noSidewaysScroll(page);
      await screenshot(page, `msg-${language}-MsgDetail`);

      // Back on My the badge is gone; Home's bell has none either.
      await page.goto('/My');
      await expect.poll(() => page.getByText('UID').count()).toBeGreaterThan(0);
      expect(await page.getByTestId('my-msg-badge').count()).toBe(0);

      // Home: the latest notice scrolls at the top, the news list holds the seeded articles.
      await page.goto('/');
      const newsLink = page.locator('.tw-home-news a', { hasText: text.news });
      await expect.poll(() => newsLink.count()).toBe(1);
      await expect
        .poll(() => page.getByTestId('home-notice').getAttribute('aria-label'))
        .toContain(text.notice);
      expect(await page.locator('[data-testid="home-bell"] .adm-badge').count()).toBe(0);
      await noSidewaysScroll(page);
      await screenshot(page, `msg-${language}-Home`);

      await newsLink.click();
      await expect.poll(() => page.locator('#article-title').textContent()).toBe(text.news);
      expect(page.url()).toContain('/NewsDetail?id=');
      await expect
        .poll(() =>
          page
            .locator('.tw-article-cover')
            .evaluate((img) => (img as HTMLImageElement).naturalWidth),
        )
        .toBeGreaterThan(0);
      expect(await page.locator('.tw-article-body h3').count()).toBe(1);
      await noSidewaysScroll(page);
      await screenshot(page, `msg-${language}-NewsDetail`);

      await page.goBack();
      await page.getByTestId('home-notice').click();
      await expect.poll(() => page.locator('#article-title').textContent()).toBe(text.notice);
      expect(page.url()).toContain('/NoticeDetail?id=');
      await noSidewaysScroll(page);
      await screenshot(page, `msg-${language}-NoticeDetail`);
      await context.close();
    },
  );
});
