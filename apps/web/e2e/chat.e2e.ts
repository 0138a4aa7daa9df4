import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, launchBrowser, screenshot, signIn } from './browser.ts';
import { registerByApi } from './images.ts';
import { type RunningServer, freePort, startServer } from './server.ts';

/**
 * Customer-service chat (spec §1): the widget comes from configuration and receives the stored
 * uid as the visitor's name on every navigation. A stand-in for Chatwoot's SDK, on its own
 * origin (so the page's CSP is exercised), records every call on window.__chatCalls.
 */
const FAKE_SDK = `
window.__chatCalls = window.__chatCalls || [];
window.chatwootSDK = {
  run: function (options) {
    window.__chatCalls.push(['run', options, JSON.parse(JSON.stringify(window.chatwootSettings || {}))]);
    var record = function (name) { return function () { window.__chatCalls.push([name].concat(Array.prototype.slice.call(arguments))); }; };
    window.$chatwoot = { hasLoaded: true, setUser: record('setUser'), setCustomAttributes: record('setCustomAttributes'), setLocale: record('setLocale') };
    var frame = document.createElement('iframe');
    frame.src = options.baseUrl + '/widget?website_token=' + encodeURIComponent(options.websiteToken);
    frame.title = 'chat';
    frame.style.cssText = 'position:fixed;right:16px;bottom:72px;width:56px;height:56px;border:0;border-radius:28px;z-index:1000';
    document.body.appendChild(frame);
    setTimeout(function () { window.dispatchEvent(new Event('chatwoot:ready')); }, 20);
  },
};`;
const FAKE_WIDGET =
  '<!doctype html><body style="margin:0;background:#1f93ff;color:#fff;font:600 12px sans-serif;display:flex;align-items:center;justify-content:center;height:100vh">Chat</body>';

const sharedBaseUrl = suiteServer().baseUrl;
const TOKEN = 'e2e-site-token';
let browser: Browser;
let server: RunningServer;
let widget: http.Server;
let widgetOrigin: string;
let scriptRequests = 0;

beforeAll(async () => {
  const port = await freePort();
  widgetOrigin = `http://127.0.0.1:${port}`;
  widget = http.createServer((request, response) => {
    if (request.url === '/packs/js/sdk.js') {
      scriptRequests += 1;
      response.writeHead(200, { 'content-type': 'application/javascript' }).end(FAKE_SDK);
    } else if (request.url?.startsWith('/widget')) {
      response.writeHead(200, { 'content-type': 'text/html' }).end(FAKE_WIDGET);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => widget.listen(port, '127.0.0.1', resolve));
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({ CHAT_SCRIPT_URL: `${widgetOrigin}/packs/js/sdk.js`, CHAT_SITE_TOKEN: TOKEN }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => widget?.close(resolve));
});

type Call = [string, ...unknown[]];
const calls = (page: Page) =>
  page.evaluate(
    () => ((window as unknown as { __chatCalls?: Call[] }).__chatCalls ?? []) as Call[],
  );
const named = async (page: Page, name: string) =>
  (await calls(page)).filter((call) => call[0] === name);

let counter = 0;
const uniqueEmail = () => `chat${Date.now()}${++counter}@example.com`;

async function shot(page: Page, name: string): Promise<void> {
  const file = await screenshot(page, name);
  if (fs.existsSync('/work/shots')) fs.copyFileSync(file, path.join('/work/shots', `${name}.png`));
}

describe('customer-service chat in Chromium at 390×844', () => {
  it('is off when unset: no script tag, no request to another origin, no chat code loaded', async () => {
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: sharedBaseUrl,
      locale: 'en-US',
    });
    const page = await context.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(sharedBaseUrl) && !request.url().startsWith('data:'))
        outside.push(request.url());
    });
    const session = await registerByApi(sharedBaseUrl, uniqueEmail());
    await signIn(page, session, 'en');
    await page.goto('/');
    await expect.poll(() => page.getByText('Total assets').count()).toBe(1);
    await page.getByText('My', { exact: true }).click();
    await page.waitForURL(`${sharedBaseUrl}/My`);
    await page.waitForTimeout(1500);
    expect(outside).toEqual([]);
    expect(await page.locator('script[data-chat]').count()).toBe(0);
    expect(await page.evaluate(() => 'chatwootSDK' in window)).toBe(false);
    expect(
      await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .some((entry) => entry.name.includes('chat-widget')),
      ),
    ).toBe(false);
    await context.close();
  });

  it('when configured: loads after the page, and passes the stored uid as the name on every navigation', async () => {
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: server.baseUrl,
      locale: 'en-US',
    });
    const page = await context.newPage();
    const session = await registerByApi(server.baseUrl, uniqueEmail());
    await signIn(page, session, 'en');
    // The sign-in page loads the widget too, once it is idle: let that happen before counting,
    // or its request may land after `before` (it did once the page got quicker).
    await expect.poll(async () => (await named(page, 'run')).length).toBe(1);
    const before = scriptRequests;
    await page.goto('/');
    await expect.poll(async () => (await named(page, 'setUser')).length).toBeGreaterThanOrEqual(1);
    expect(scriptRequests).toBe(before + 1);

    const [run] = await named(page, 'run');
    expect(run?.[1]).toEqual({ websiteToken: TOKEN, baseUrl: widgetOrigin });
    expect(run?.[2]).toMatchObject({ locale: 'en' });
    expect(await named(page, 'setUser')).toEqual([['setUser', session.uid, { name: session.uid }]]);
    expect(await named(page, 'setCustomAttributes')).toEqual([
      ['setCustomAttributes', { uid: session.uid }],
    ]);
    // Lazily: the widget's script was requested only after the page had finished loading.
    const timing = await page.evaluate((url) => {
      const navigation = performance.getEntriesByType(
        'navigation',
      )[0] as PerformanceNavigationTiming;
      const script = performance.getEntriesByName(url)[0];
      return { loadEnd: navigation.loadEventEnd, scriptStart: script?.startTime ?? -1 };
    }, `${widgetOrigin}/packs/js/sdk.js`);
    expect(timing.scriptStart).toBeGreaterThanOrEqual(timing.loadEnd);
    // The page's CSP lets exactly this origin's frame in.
    await expect
      .poll(() =>
        page
          .frames()
          .some((frame) => frame.url().startsWith(`${widgetOrigin}/widget?website_token=${TOKEN}`)),
      )
      .toBe(true);
    await expect.poll(() => page.locator('iframe[title="chat"]').count()).toBe(1);
    await expect.poll(() => page.getByText('Total assets').count()).toBe(1);
    await shot(page, 'chat-home-en');

    // In-app navigations (no reload): each one passes the uid again; the script is not loaded twice.
    await page.evaluate(
      () => ((window as unknown as { sameDocument: boolean }).sameDocument = true),
    );
    await page.getByText('My', { exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/My`);
    await expect.poll(async () => (await named(page, 'setUser')).length).toBe(2);
    await page.getByText('Trade', { exact: true }).click();
    await expect.poll(async () => (await named(page, 'setUser')).length).toBe(3);
    expect((await named(page, 'setUser')).every((call) => call[1] === session.uid)).toBe(true);
    expect(
      await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
    ).toBe(true);
    expect(await page.locator('script[data-chat]').count()).toBe(1);
    expect(scriptRequests).toBe(before + 1);
    await context.close();
  });

  it('speaks the stored language, and before anyone signs in it is told no uid', async () => {
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: server.baseUrl,
      locale: 'en-US',
    });
    const page = await context.newPage();
    await page.goto('/Login');
    await page.evaluate(() => localStorage.setItem('lang', 'de'));
    await page.reload();
    await expect
      .poll(async () => (await named(page, 'setLocale')).length)
      .toBeGreaterThanOrEqual(1);
    expect((await named(page, 'run'))[0]?.[2]).toMatchObject({ locale: 'de' });
    expect(await named(page, 'setLocale')).toEqual([['setLocale', 'de']]);
    expect(await named(page, 'setUser')).toEqual([]);

    const session = await registerByApi(server.baseUrl, uniqueEmail());
    await signIn(page, session, 'de');
    await page.goto('/');
    await expect.poll(async () => (await named(page, 'setUser')).length).toBe(1);
    expect((await named(page, 'setUser'))[0]).toEqual([
      'setUser',
      session.uid,
      { name: session.uid },
    ]);
    await expect.poll(() => page.locator('iframe[title="chat"]').count()).toBe(1);
    await expect.poll(() => page.getByText('Gesamtvermögen').count()).toBe(1);
    await shot(page, 'chat-home-de');
    await context.close();
  });
});
