import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES, type Language } from '@tradewind/contract/languages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, SCREENSHOT_DIR, launchBrowser, signIn } from './browser.ts';
import { type Fixture, SIGNED_OUT_PATHS, prepareFixture, routeName } from './every-route.ts';

/**
 * Issue 8's "every screen in every language": each route in each of the 7 languages at 390×844
 * fails on sideways overflow, a raw i18n key, English where the language has its own text, or
 * an empty page; each leaves a screenshot in artifacts/screenshots/every-screen/<lang>/, and
 * one in the dark theme in every-screen/<lang>-dark/ (issue 32: every screen in both themes).
 * One browser context per language; routes change inside the app (no reload) to keep it quick,
 * and each screen, once loaded and checked, is shot in the light theme and then, the phone
 * switched to dark, in the dark one (the app follows the setting as it changes).
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const OUT = path.join(SCREENSHOT_DIR, 'every-screen');

/** A language's strings as the app merges them: the shared messages, the app's and each feature's. */
function catalogue(language: Language): Map<string, string> {
  const named = (dir: string) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => path.basename(f) === `${language}.json`)
      .map((f) => path.join(dir, f));
  const files = [
    ...named('packages/contract/src/i18n'),
    `apps/web/src/locales/${language}.json`,
    ...named('apps/web/src/features').filter((f) => f.includes(`${path.sep}locales${path.sep}`)),
  ];
  const strings = new Map<string, string>();
  const walk = (prefix: string, value: unknown) => {
    if (typeof value === 'string') strings.set(prefix, value);
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(prefix ? `${prefix}.${k}` : k, v);
  };
  for (const file of files) walk('', JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')));
  return strings;
}

const english = catalogue('en');
/** The English messages' texts: what the fixture's messages say on /Msg whatever the screen's language. */
const messageTexts = new Set(
  [...english].filter(([key]) => key.startsWith('messages.templates.')).map(([, text]) => text),
);

/**
 * English strings that must not show in `language`: whole English texts (no placeholders, with
 * at least two letters) whose translation differs and which the language doesn't also use.
 */
function untranslatable(language: Language): string[] {
  if (language === 'en') return [];
  const own = catalogue(language);
  const ownValues = new Set(own.values());
  const found = new Set<string>();
  for (const [key, text] of english) {
    const translated = own.get(key);
    if (translated === undefined || translated === text || ownValues.has(text)) continue;
    if (/\{\{|<\d|<[a-z]/.test(text) || !/[A-Za-z]{2}/.test(text) || text.length < 3) continue;
    // Codes read the same everywhere (BNB, EUR/USD) even where a name is translated.
    if (/^[A-Z0-9/ .-]+$/.test(text)) continue;
    // Messages are written once, in the language the user had when they were sent (this
    // fixture's user had English), so their English titles are data, not a missing translation,
    // also where a screen's own label reads the same ("Identity verified").
    if (key.startsWith('messages.templates.') || messageTexts.has(text)) continue;
    found.add(text);
  }
  return [...found];
}

interface ScreenReport {
  scrollWidth: number;
  /** Visible elements reaching past the screen's edges (outside any scrolling box). */
  overflowing: string[];
  /** Visible text that looks like an i18n key. */
  rawKeys: string[];
  /** Visible text nodes that are a whole English string. */
  english: string[];
  mainText: number;
}

/** Looks at the page as it is now. */
function inspect(page: Page, knownKeys: string[], englishTexts: string[]): Promise<ScreenReport> {
  return page.evaluate(
    ({ knownKeys, englishTexts, width }) => {
      const keys = new Set(knownKeys);
      const englishSet = new Set(englishTexts);
      const visible = (el: Element) => {
        const style = getComputedStyle(el);
        const box = el.getBoundingClientRect();
        return (
          style.visibility !== 'hidden' &&
          style.display !== 'none' &&
          Number(style.opacity) > 0 &&
          box.width > 0 &&
          box.height > 0
        );
      };
      // Inside a box that scrolls or clips sideways (a tab strip, the notice marquee) text may
      // run past the screen on purpose; the screenshots show whether the clipping reads well.
      const inScroller = (el: Element) => {
        for (let p = el.parentElement; p && p.id !== 'root'; p = p.parentElement) {
          if (getComputedStyle(p).overflowX !== 'visible') return true;
        }
        return false;
      };
      const describe = (el: Element) =>
        `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
      const overflowing: string[] = [];
      const rawKeys = new Set<string>();
      const english = new Set<string>();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const keyShape =
        /(?<![\w@.\-/])[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?:\.[a-z0-9]+(?:_[a-z0-9]+)*)+(?![\w@\-/])/g;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = (node.textContent ?? '').trim();
        const el = node.parentElement;
        if (!text || !el || !visible(el) || el.closest('script, style, [aria-hidden="true"] svg'))
          continue;
        for (const match of text.match(keyShape) ?? [])
          if (keys.has(match) || match.includes('_')) rawKeys.add(match);
        if (englishSet.has(text)) english.add(text);
        const box = el.getBoundingClientRect();
        if ((box.right > width + 1 || box.left < -1) && !inScroller(el) && overflowing.length < 10)
          overflowing.push(`${describe(el)} ${Math.round(box.left)}–${Math.round(box.right)}`);
      }
      const main = document.querySelector('main') ?? document.querySelector('#root');
      const mainText =
        (main?.textContent ?? '').trim().length +
        (main?.querySelectorAll('img, svg, canvas').length ?? 0);
      return {
        scrollWidth: document.documentElement.scrollWidth,
        overflowing,
        rawKeys: [...rawKeys],
        english: [...english],
        mainText,
      };
    },
    { knownKeys, englishTexts, width: PHONE.width },
  );
}

/**
 * The element a route mounts: the tab layout's page, or the page's <main> (the first in
 * document order, so the tab layout's page wins over a <main> inside it). Another path mounts
 * a new one, since each route has its own key; the same path with another query keeps it.
 */
const PAGE_ELEMENT = '.tw-tab-layout > :first-child, main';

/**
 * Moves the app to `url` without a reload (as a link would), then waits until the new route is
 * on screen with text and its requests and skeletons are done. A navigation is a transition
 * (src/lib/router.tsx): the page it leaves stays on screen, text and all, until the next one's
 * code has come, so the wait also holds until that page is gone: its element is marked first.
 * Says what was still loading if the route never settled.
 */
async function visit(page: Page, url: string, inflight: { count: number }): Promise<string | null> {
  await page.evaluate(
    ({ to, pageElement }) => {
      const next = new URL(to, window.location.href);
      const leaving = document.querySelector(pageElement) as
        (Element & { twLeaving?: boolean }) | null;
      if (leaving && next.pathname.toLowerCase() !== window.location.pathname.toLowerCase())
        leaving.twLeaving = true;
      window.history.pushState({ idx: (window.history.state?.idx ?? 0) + 1 }, '', to);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    },
    { to: url, pageElement: PAGE_ELEMENT },
  );
  // Generous: two files run at once on two cores, and a route may take a while to show text.
  const deadline = Date.now() + 30_000;
  let quietSince = 0;
  let busy: string | null = 'nothing checked';
  while (Date.now() < deadline) {
    busy =
      inflight.count > 0
        ? `${inflight.count} API requests in flight`
        : await page.evaluate((pageElement) => {
            const shown = document.querySelector(pageElement) as
              (Element & { twLeaving?: boolean }) | null;
            if (shown?.twLeaving) return 'the page before it still on screen';
            // A page without <main> (the success screen) is read whole, as inspect() reads it.
            const content =
              document.querySelector('main, .tw-tab-layout') ?? document.querySelector('#root');
            if (!content?.textContent?.trim()) return 'no text';
            const loading = document.querySelector(
              '.adm-skeleton, .adm-spin-loading, .adm-dot-loading',
            );
            return loading ? `a loading ${loading.className.split(' ')[0]}` : null;
          }, PAGE_ELEMENT);
    if (busy) quietSince = 0;
    else if (!quietSince) quietSince = Date.now();
    else if (Date.now() - quietSince > 250) return null;
    await page.waitForTimeout(50);
  }
  return `still loading after 30 s (${busy ?? 'settling'})`;
}

function problems(language: Language, url: string, report: ScreenReport): string[] {
  const where = `${language} ${url}`;
  return [
    ...(report.scrollWidth > PHONE.width
      ? [`${where}: the page is ${report.scrollWidth} px wide`]
      : []),
    ...report.overflowing.map((o) => `${where}: past the edge: ${o}`),
    ...report.rawKeys.map((k) => `${where}: raw key "${k}"`),
    ...report.english.map((e) => `${where}: English text "${e}"`),
    ...(report.mainText === 0 ? [`${where}: nothing in the main content`] : []),
  ];
}

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
let fixture: Fixture;

beforeAll(async () => {
  browser = await launchBrowser();
  fixture = await prepareFixture(baseUrl, suiteServer().operator.token, 'screens');
}, 120_000);
afterAll(() => browser?.close());

/** Two frames: what a change of theme restyles (and the chart redraws) is painted. */
const painted = (page: Page) =>
  page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );

describe('every screen in every language at 390×844, light and dark', () => {
  const knownKeys = [...english.keys()];

  it.each(LANGUAGES)('%s', { timeout: 240_000 }, async (language) => {
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: baseUrl,
      locale: 'en-US',
      colorScheme: 'light',
    });
    for (const folder of [language, `${language}-dark`])
      fs.rmSync(path.join(OUT, folder), { recursive: true, force: true });
    const page = await context.newPage();
    const inflight = { count: 0 };
    const isApi = (u: string) => new URL(u).pathname.startsWith('/api/');
    page.on('request', (r) => void (isApi(r.url()) && inflight.count++));
    page.on('requestfinished', (r) => void (isApi(r.url()) && inflight.count--));
    page.on('requestfailed', (r) => void (isApi(r.url()) && inflight.count--));
    const englishTexts = untranslatable(language);
    const found: string[] = [];
    // The theme each dark shot showed (the app's own attribute, set from the phone's setting).
    const darkThemes = new Set<string | undefined>();
    const shootOne = async (folder: string, name: string) => {
      fs.mkdirSync(path.join(OUT, folder), { recursive: true });
      await page.screenshot({ path: path.join(OUT, folder, `${name}.png`), fullPage: true });
    };
    const shoot = async (name: string) => {
      await shootOne(language, name);
      await page.emulateMedia({ colorScheme: 'dark' });
      await painted(page);
      darkThemes.add(
        await page.evaluate(() => document.documentElement.dataset.prefersColorScheme),
      );
      await shootOne(`${language}-dark`, name);
      await page.emulateMedia({ colorScheme: 'light' });
      await painted(page);
    };

    // Signed out: the open pages.
    await page.goto('/Login');
    await page.evaluate((lang) => localStorage.setItem('lang', lang), language);
    await page.goto('/Login');
    // The server's sign-in page is prerendered in the cookie's language (none here: English);
    // the app, in the stored language, takes over once it runs (its form is then ready).
    await page.waitForSelector('form[data-ready]');
    for (const url of SIGNED_OUT_PATHS) {
      const loading = await visit(page, url, inflight);
      if (loading) found.push(`${language} ${url} (signed out): ${loading}`);
      found.push(
        ...problems(language, `${url} (signed out)`, await inspect(page, knownKeys, englishTexts)),
      );
      await shoot(`signed-out-${routeName(url)}`);
    }

    // Signed in: every route. The server writes messages in the user's stored language.
    await signIn(page, fixture.session, language);
    await page.goto('/');
    for (const { route, url } of fixture.urls) {
      const loading = await visit(page, url, inflight);
      if (loading) found.push(`${language} ${url}: ${loading}`);
      found.push(...problems(language, url, await inspect(page, knownKeys, englishTexts)));
      await shoot(routeName(route));
    }
    // Each shot showed the theme it is filed under (public/theme.js followed the phone's setting).
    expect(await page.evaluate(() => document.documentElement.dataset.prefersColorScheme)).toBe(
      'light',
    );
    expect([...darkThemes]).toEqual(['dark']);
    await context.close();
    expect(found.join('\n'), `${found.length} problems`).toBe('');
  });
});
