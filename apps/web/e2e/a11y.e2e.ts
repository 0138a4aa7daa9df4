import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, launchBrowser, signIn } from './browser.ts';
import { type Fixture, SIGNED_OUT_PATHS, openRoute, prepareFixture } from './every-route.ts';

/**
 * Issue 8's accessibility gate: axe-core over every route at 390×844, signed out (the open
 * pages) and signed in, with the WCAG 2.0 A/AA and 2.1 AA rules. A serious or critical
 * violation fails the route; the message names each one's rule, impact, targets and help.
 * Both themes (issue 32): the phone set to light, then to dark, so contrast holds in each.
 */

const baseUrl = suiteServer().baseUrl;
const axeSource = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
let browser: Browser;
let fixture: Fixture;

beforeAll(async () => {
  browser = await launchBrowser();
  fixture = await prepareFixture(baseUrl, suiteServer().operator.token, 'a11y');
}, 120_000);
afterAll(() => browser?.close());

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  /** Each element's selector, and for a contrast failure its colours and ratio. */
  nodes: { target: string[]; detail: string }[];
}

/** axe's serious and critical violations on the page as it is now. */
async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    type Node = {
      target: unknown[];
      any: {
        id: string;
        data?: {
          fgColor?: string;
          bgColor?: string;
          contrastRatio?: number;
          expectedContrastRatio?: string;
        };
      }[];
    };
    type Result = { id: string; impact: string | null; help: string; nodes: Node[] };
    const axe = (
      window as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: Result[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String), detail: contrastDetail(n.any) })),
    }));
    function contrastDetail(
      checks: {
        id: string;
        data?: {
          fgColor?: string;
          bgColor?: string;
          contrastRatio?: number;
          expectedContrastRatio?: string;
        };
      }[],
    ): string {
      const data = checks.find((c) => c.id === 'color-contrast')?.data;
      return data?.fgColor
        ? ` [${data.fgColor} on ${data.bgColor}: ${data.contrastRatio}, needs ${data.expectedContrastRatio}]`
        : '';
    }
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

// The app's CSP (script-src 'self') would refuse axe's inline script tag; bypassing it is
// Playwright's switch for injecting test tools and changes nothing the app itself loads.
const contextOptions = { viewport: PHONE, baseURL: baseUrl, locale: 'en-US', bypassCSP: true };

/**
 * Controls a keyboard cannot reach: elements drawn as clickable (the pointer cursor starts on
 * them) that are not focusable, are not inside something focusable and hold nothing focusable.
 * (axe checks names and roles, not whether a click handler sits on a plain div.)
 */
function unreachableControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const FOCUSABLE =
      'a[href], button, input, select, textarea, summary, label, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';
    const found: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      if (getComputedStyle(el).cursor !== 'pointer') continue;
      if (el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer') continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || el.closest('[aria-hidden="true"], [inert]'))
        continue;
      if (el.closest(FOCUSABLE) || el.querySelector(FOCUSABLE)) continue;
      // The tabs pattern: one tab of a tablist takes focus, the arrow keys move between them.
      if (
        el.getAttribute('role') === 'tab' &&
        el.closest('[role="tablist"]')?.querySelector('[role="tab"][tabindex="0"]')
      )
        continue;
      const name = `${el.tagName.toLowerCase()}${typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
      found.push(`${name} "${(el.textContent ?? '').trim().slice(0, 30)}"`);
    }
    return found;
  });
}

const describeViolations = (url: string, violations: Violation[]) =>
  violations
    .map(
      (v) =>
        `${url}: ${v.id} (${v.impact}) — ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ') + n.detail).join('\n    ')}`,
    )
    .join('\n');

/** Runs axe over each URL in one page; fails once, listing every route's violations. */
async function audit(page: Page, urls: string[]): Promise<void> {
  const found: string[] = [];
  for (const url of urls) {
    await openRoute(page, url);
    const violations = await seriousViolations(page);
    if (violations.length) found.push(describeViolations(url, violations));
    const unreachable = await unreachableControls(page);
    if (unreachable.length)
      found.push(`${url}: not reachable by keyboard\n    ${unreachable.join('\n    ')}`);
  }
  expect(
    found.join('\n'),
    `${found.length} of ${urls.length} routes have serious or critical violations`,
  ).toBe('');
}

describe.each(['light', 'dark'] as const)(
  'accessibility (axe-core, WCAG 2.1 AA) at 390×844, %s theme',
  (colorScheme) => {
    it('the open pages, signed out', async () => {
      const context = await browser.newContext({ ...contextOptions, colorScheme });
      const page = await context.newPage();
      await audit(page, SIGNED_OUT_PATHS);
      await context.close();
    });

    it('every route, signed in', { timeout: 300_000 }, async () => {
      const context = await browser.newContext({ ...contextOptions, colorScheme });
      const page = await context.newPage();
      await signIn(page, fixture.session, 'en');
      await audit(
        page,
        fixture.urls.map((u) => u.url),
      );
      await context.close();
    });
  },
);

describe('keyboard', () => {
  it('the keyboard works what the mouse works: a list row, a bottom tab, the back button', async () => {
    const context = await browser.newContext(contextOptions);
    const page = await context.newPage();
    await signIn(page, fixture.session, 'en');
    await openRoute(page, '/My');
    // antd-mobile's list row (an <a> without href) takes focus and opens on Enter.
    await page.locator('.adm-list-item', { hasText: 'Wallet' }).first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/Wallet');
    // The back button is a named button.
    await page.getByRole('button', { name: 'Back', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/My');
    // The bottom tabs are links, the current one marked.
    await expect
      .poll(() => page.getByRole('link', { name: 'My', exact: true }).getAttribute('aria-current'))
      .toBe('page');
    await page.getByRole('link', { name: 'Trade', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/Transaction');
    await context.close();
  });
});
