import { LANGUAGES, SIGNED_IN_COOKIE } from '@tradewind/contract/languages';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteServer } from './suite-server.ts';
import { PHONE, launchBrowser, outboxCode, screenshot, signIn } from './browser.ts';
import { registerByApi } from './images.ts';

const baseUrl = suiteServer().baseUrl;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function phonePage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE, baseURL: baseUrl, locale: 'en-US' });
  const page = await context.newPage();
  return { context, page };
}

let counter = 0;
const uniqueEmail = () => `e2e${Date.now()}${++counter}@example.com`;
const PASSWORD = 'e2e-password-1';

/** Registers through the screen with the code the dev outbox received. */
async function registerThroughUi(page: Page, email: string): Promise<void> {
  await page.goto('/Register');
  await page.locator('input[autocomplete="email"]').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect.poll(() => page.getByText('Verification code sent').count()).toBeGreaterThan(0);
  await page.locator('input[autocomplete="one-time-code"]').fill(await outboxCode(baseUrl, email));
  await page.locator('input[autocomplete="new-password"]').nth(0).fill(PASSWORD);
  await page.locator('input[autocomplete="new-password"]').nth(1).fill(PASSWORD);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await page.waitForURL(`${baseUrl}/`);
}

const storage = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

/**
 * What a page said, threw and failed to fetch, for a failure's message: sign-in tests on the
 * prerendered page failed in three CI runs on 2026-11-26 (not hydrated, or no navigation after
 * the button) and never locally.
 */
function pageLog(page: Page): string[] {
  const logs: string[] = [];
  page.on('console', (message) => logs.push(`${message.type()}: ${message.text().slice(0, 300)}`));
  page.on('pageerror', (error) => logs.push(`pageerror: ${error.message.slice(0, 300)}`));
  page.on('requestfailed', (request) =>
    logs.push(`failed: ${request.url()} ${request.failure()?.errorText}`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400 || response.url().includes('/api/'))
      logs.push(`${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return logs;
}

/** Where the page is: its address, its heading, whether React runs it, the state of its form and the stored language. */
const pageState = (page: Page) =>
  page.evaluate(() => {
    const heading = document.querySelector('h1');
    const form = document.querySelector('form');
    return {
      url: location.href,
      heading: heading?.textContent,
      htmlHeading:
        heading !== null &&
        heading === (window as unknown as { htmlHeading?: Element | null }).htmlHeading,
      react: heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber')),
      prerendered: document.getElementById('root')?.dataset.prerendered,
      form: form
        ? { ready: 'ready' in form.dataset, pendingSubmit: 'pendingSubmit' in form.dataset }
        : null,
      lang: localStorage.getItem('lang'),
    };
  });

/** Rethrows `error` with the page's state and log. */
async function explained(page: Page, logs: string[], what: string, error: unknown): Promise<never> {
  const state = await pageState(page).catch((reason: unknown) => String(reason));
  throw new Error(`${what}: ${JSON.stringify(state)}; ${JSON.stringify(logs)}`, { cause: error });
}

describe('app shell in Chromium at 390×844', () => {
  it('register with a code from the dev outbox → signed in → guard → language persists → sign out', async () => {
    const { context, page } = await phonePage();
    const email = uniqueEmail();
    await registerThroughUi(page, email);
    await expect.poll(() => page.getByText('Total assets').count()).toBe(1);
    expect(await storage(page, 'token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Number(await storage(page, 'uid'))).toBeGreaterThan(10_000_000);
    await screenshot(page, 'en-home');

    // My shows the real profile.
    await page.goto('/My');
    const uid = await storage(page, 'uid');
    await expect.poll(() => page.getByText(`UID ${uid}`).count()).toBe(1);
    await expect.poll(() => page.getByText(`${email.slice(0, 2)}***@example.com`).count()).toBe(1);

    // Language switch: at once, and it persists across a reload.
    await page.goto('/Language');
    await page.getByText('Deutsch').click();
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('Sprache');
    expect(await storage(page, 'lang')).toBe('de');
    await page.reload();
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('Sprache');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.getByText('English').click();
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('Language');

    // Sign out: back to /Login, token gone, and the session no longer works on the server.
    const token = await storage(page, 'token');
    await page.goto('/My');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('.adm-dialog-footer').getByText('Sign out').click();
    await page.waitForURL(`${baseUrl}/Login`);
    expect(await storage(page, 'token')).toBeNull();
    const profile = (await (
      await fetch(`${baseUrl}/api/v1/user/profile`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { code: number };
    expect(profile.code).toBe(411);

    // Signing in again through the screen works.
    await page.locator('input[autocomplete="email"]').fill(email);
    await page.locator('input[type="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${baseUrl}/`);
    await context.close();
  });

  it('the guard sends pages without a token to /Login; open pages stay open', async () => {
    const { context, page } = await phonePage();
    for (const path of ['/', '/My', '/Wallet', '/ChangePwd', '/Transaction']) {
      await page.goto(path);
      await expect.poll(() => new URL(page.url()).pathname, { message: path }).toBe('/Login');
    }
    for (const path of ['/Register', '/ForgetPwd', '/Agree']) {
      await page.goto(path);
      expect(new URL(page.url()).pathname).toBe(path);
    }
    await context.close();
  });

  it('an unknown path redirects to "/"', async () => {
    const { context, page } = await phonePage();
    await registerThroughUi(page, uniqueEmail());
    await page.goto('/no/such/page');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('local storage follows spec §3 on start and on navigation', async () => {
    const { context, page } = await phonePage();
    await page.goto('/Login');
    await page.evaluate(() => {
      localStorage.setItem('alarm', '1');
      localStorage.setItem('lang', 'klingon');
      localStorage.setItem('openApp', '1');
    });
    await page.reload();
    await expect.poll(() => storage(page, 'imgBaseUrl')).toBe('/files');
    expect(await storage(page, 'langname')).toBe('id');
    expect(await storage(page, 'alarm')).toBeNull();
    // An unknown stored language falls back to en.
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('Welcome back');
    await page.goto('/Register');
    expect(await storage(page, 'openApp')).toBeNull();
    await context.close();
  });

  it('forms show the shared validation messages under their fields', async () => {
    const { context, page } = await phonePage();
    await page.goto('/Register');
    await page.locator('input[autocomplete="email"]').fill('not-an-email');
    await page.locator('input[autocomplete="new-password"]').nth(0).fill('short');
    await page.locator('input[autocomplete="new-password"]').nth(1).fill('other');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => page.getByText('Invalid email format.').count()).toBe(1);
    await expect.poll(() => page.getByText('Passwords do not match.').count()).toBe(1);
    await expect
      .poll(() => page.getByText('The password needs at least 8 characters.').count())
      .toBe(1);
    // Under its field, not in a toast.
    await expect
      .poll(() =>
        page
          .locator('.adm-form-item-feedback-error', { hasText: 'The code has 6 digits.' })
          .count(),
      )
      .toBe(1);
    await screenshot(page, 'en-register-errors');
    await context.close();
  });

  it('the page is at most 614 px wide and centred', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      baseURL: baseUrl,
    });
    const page = await context.newPage();
    await page.goto('/Login');
    const box = await page.locator('#root').boundingBox();
    expect(box?.width).toBe(614);
    expect(Math.round((box?.x ?? 0) * 2 + (box?.width ?? 0))).toBe(1280);
    await context.close();
  });

  it('no page scrolls sideways at 390 px', async () => {
    const { context, page } = await phonePage();
    for (const path of ['/Login', '/Register', '/ForgetPwd', '/Agree']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        path,
      ).toBeLessThanOrEqual(PHONE.width);
    }
    await context.close();
  });
});

describe('the wallet in Chromium', () => {
  it('the demo account signs in and sees its funds on Home and in the wallet', async () => {
    const { context, page } = await phonePage();
    const logs = pageLog(page);
    await page.goto('/Login');
    await page.locator('input[autocomplete="email"]').fill('demo@tradewind.app');
    await page.locator('input[type="password"]').fill('demo-pass-2026');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page
      .waitForURL(`${baseUrl}/`)
      .catch((error: unknown) => explained(page, logs, 'no Home after signing in', error));
    // 10,000 spot + 2,000 futures USDT, and 0.25 BTC and 3 ETH at their recorded (simulated) prices.
    await expect
      .poll(() => page.getByTestId('home-total').textContent())
      .toMatch(/^\d{2},\d{3}\.\d{2} USDT$/);
    const prices = (
      (await (await fetch(`${baseUrl}/api/v1/market/prices`)).json()) as {
        data: { items: { asset: string; price: string | null }[] };
      }
    ).data.items;
    const priceOf = (asset: string) => Number(prices.find((p) => p.asset === asset)?.price);
    const expected = 12_000 + 0.25 * priceOf('BTC') + 3 * priceOf('ETH');
    // A display check only: the walk moves a few hundredths of a percent between the two reads.
    const shown = Number(
      ((await page.getByTestId('home-total').textContent()) ?? '').replace(/[^\d.]/g, ''),
    );
    expect(Math.abs(shown - expected) / expected).toBeLessThan(0.01);
    await page.getByTestId('home-total').click();
    await page.waitForURL(`${baseUrl}/Wallet`);
    // Totals in USDT have two places; a balance has its asset's (BTC: eight), whatever it holds.
    await expect.poll(() => page.getByText('0.25000000', { exact: true }).count()).toBe(1);
    await expect.poll(() => page.getByText('3.00000000', { exact: true }).count()).toBe(1);
    await expect
      .poll(() => page.getByTestId('wallet-total').textContent())
      .toMatch(/^\d{2},\d{3}\.\d{2} USDT$/);
    await screenshot(page, 'en-Wallet-demo');
    await page.getByRole('tab', { name: 'Futures' }).click();
    await expect.poll(() => page.getByTestId('futures-total').textContent()).toBe('2,000.00 USDT');
    await context.close();
  });
});

describe("Home's first requests", () => {
  it('go out with its code (HOME_REQUESTS in app/router.tsx), and the page takes each', async () => {
    const { context, page } = await phonePage();
    await signIn(page, await registerByApi(baseUrl, uniqueEmail()), 'en');
    // Away first, so nothing the sign-in page still asks for is counted.
    await page.goto('about:blank');
    // The plain page, as when Home is not rendered by the server (no `signed_in` cookie yet, or a
    // failed render). Whether the sign-in page's start set the cookie depends on when it ran
    // against the token stored above; the rendered Home is tested below.
    await context.clearCookies({ name: SIGNED_IN_COOKIE });
    const requested = new Map<string, number>();
    const events: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/'))
        requested.set(
          url.pathname + url.search,
          (requested.get(url.pathname + url.search) ?? 0) + 1,
        );
      events.push(`request ${url.pathname}${url.search}`);
    });
    page.on('requestfinished', (request) =>
      events.push(`finished ${new URL(request.url()).pathname}`),
    );
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto('/');
    await expect.poll(() => page.getByTestId('home-total').textContent()).toBe('0.00 USDT');
    await expect.poll(() => page.locator('.adm-skeleton').count()).toBe(0);
    // An early reply nobody takes is dropped after 5 s with a warning: wait that long.
    await page.waitForTimeout(5_500);
    expect(warnings.filter((text) => text.startsWith('early request not used'))).toEqual([]);
    // Each went out once: the page took the early reply instead of sending its own. (The unread
    // count may go twice: a new user's welcome message refreshes it.)
    const once = [
      '/api/v1/config',
      '/api/v1/wallet/balances',
      '/api/v1/market/instruments',
      '/api/v1/market/tickers',
      '/api/v1/news?kind=notice',
      '/api/v1/news?kind=news',
    ];
    expect(once.map((url) => [url, requested.get(url)])).toEqual(once.map((url) => [url, 1]));
    // Early: they went out before Home's code had arrived (without it, only once Home rendered).
    const homeCode = events.findIndex((event) => /^finished \/assets\/home-.*\.js$/.test(event));
    expect(homeCode).toBeGreaterThan(0);
    expect(events.indexOf('request /api/v1/news?kind=news')).toBeLessThan(homeCode);
    expect(events.indexOf('request /api/v1/wallet/balances')).toBeLessThan(homeCode);
    await context.close();
  });
});

describe('Home, rendered by the server (apps/server/src/platform/rendered-home.ts)', () => {
  /** Each API GET the page makes, counted; the page's errors and warnings. */
  function watch(page: Page) {
    const requested = new Map<string, number>();
    const errors: string[] = [];
    const warnings: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/'))
        requested.set(
          url.pathname + url.search,
          (requested.get(url.pathname + url.search) ?? 0) + 1,
        );
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
      if (message.type() === 'warning') warnings.push(message.text());
    });
    return { requested, errors, warnings };
  }

  it('a returning signed-in visitor gets it with news and prices in the HTML, hydrated in place, asking only for their own data', async () => {
    const { context, page } = await phonePage();
    await signIn(page, await registerByApi(baseUrl, uniqueEmail()), 'de');
    // The app notes the session in a cookie for the server as it starts.
    await page.goto('/');
    await expect.poll(() => page.getByTestId('home-total').textContent()).toBe('0,00 USDT');
    expect((await context.cookies()).find((cookie) => cookie.name === 'signed_in')?.value).toBe(
      '1',
    );

    await page.goto('about:blank');
    await context.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { htmlNews: Element | null }).htmlNews =
          document.querySelector('.tw-home-news strong');
      });
    });
    const { requested, errors, warnings } = watch(page);
    const response = await page.goto('/');
    const html = (await response?.text()) ?? '';
    // Painted from the HTML: German, with the news and live prices of the moment.
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('data-prerendered="de /"');
    expect(html).toMatch(/<strong>[^<]+<\/strong><span class="tw-home-news-summary">[^<]+<\/span>/);
    expect(html).toMatch(/data-testid="price-BTCUSDT">\d{1,3}(\.\d{3})*,\d{2}</);
    expect(html).toContain('<script type="application/json" id="tw-state">');
    // Nothing of the visitor's: their total is a placeholder until the app asks.
    expect(html).toContain('data-testid="home-total">…');

    // The headline on screen is the HTML's own element, now run by React.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const news = document.querySelector('.tw-home-news strong');
          return (
            news !== null &&
            news === (window as unknown as { htmlNews: Element | null }).htmlNews &&
            Object.keys(news).some((key) => key.startsWith('__reactFiber'))
          );
        }),
      )
      .toBe(true);
    await expect.poll(() => page.getByTestId('home-total').textContent()).toBe('0,00 USDT');
    await expect.poll(() => page.locator('.adm-skeleton').count()).toBe(0);
    // Times in the visitor's time zone, filled in after hydration.
    expect(await page.locator('.tw-home-news time').first().textContent()).toMatch(
      /\d{2}\.\d{2}\.\d{4}/,
    );
    // An early reply nobody takes is dropped after 5 s with a warning: wait that long.
    await page.waitForTimeout(5_500);
    expect(warnings.filter((text) => text.startsWith('early request not used'))).toEqual([]);
    // What came in the page is not asked for again; the visitor's own data once each.
    const answered = [
      '/api/v1/config',
      '/api/v1/market/instruments',
      '/api/v1/market/tickers',
      '/api/v1/news?kind=notice',
      '/api/v1/news?kind=news',
    ];
    expect(answered.map((url) => [url, requested.get(url)])).toEqual(
      answered.map((url) => [url, undefined]),
    );
    const own = [
      '/api/v1/wallet/balances',
      '/api/v1/contracts/orders?state=open&limit=20',
      '/api/v1/points/checkin',
    ];
    expect(own.map((url) => [url, requested.get(url)])).toEqual(own.map((url) => [url, 1]));
    expect(errors).toEqual([]);
    await screenshot(page, 'de-Home-rendered');
    await context.close();
  });

  it('in every language, for a visitor far from UTC, it is hydrated in place without a mismatch', async () => {
    const session = await registerByApi(baseUrl, uniqueEmail());
    for (const language of LANGUAGES) {
      // Node's number formats must agree with Chromium's, and times wait for the visitor's zone.
      const context = await browser.newContext({
        viewport: PHONE,
        baseURL: baseUrl,
        locale: 'en-US',
        timezoneId: 'America/Los_Angeles',
      });
      const page = await context.newPage();
      await signIn(page, session, language);
      await context.addCookies([
        { name: 'signed_in', value: '1', url: baseUrl },
        { name: 'lang', value: language, url: baseUrl },
      ]);
      await context.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          (window as unknown as { htmlPrice: Element | null }).htmlPrice = document.querySelector(
            '[data-testid="price-BTCUSDT"]',
          );
        });
      });
      // signIn() leaves the app starting on /Login, which now finds the session and may start
      // its own worker late: leave that page before counting.
      await page.goto('about:blank');
      const { errors, warnings } = watch(page);
      // Intl's data is loaded by a worker first (lib/intl-warm.ts), which then ends.
      const workers: { url: string; closed: boolean }[] = [];
      page.on('worker', (worker) => {
        const entry = { url: new URL(worker.url()).pathname, closed: false };
        workers.push(entry);
        worker.on('close', () => (entry.closed = true));
      });
      await page.goto('/');
      await expect.poll(() => page.locator('.adm-skeleton').count(), { message: language }).toBe(0);
      await expect
        .poll(() => workers, { message: language })
        .toEqual([
          { url: expect.stringMatching(/^\/assets\/intl-warm\.worker-[\w-]+\.js$/), closed: true },
        ]);
      expect(
        await page.evaluate(
          () =>
            document.querySelector('[data-testid="price-BTCUSDT"]') ===
            (window as unknown as { htmlPrice: Element | null }).htmlPrice,
        ),
        language,
      ).toBe(true);
      expect([...errors, ...warnings], language).toEqual([]);
      await context.close();
    }
    // Seven languages, each a fresh context and a sign-in: a minute is not enough on a busy machine.
  }, 180_000);

  it('a cookie left without a session: the app does not take the page over, sends the visitor to sign in and drops the cookie', async () => {
    const { context, page } = await phonePage();
    await context.addCookies([{ name: 'signed_in', value: '1', url: baseUrl }]);
    const { errors } = watch(page);
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    // The server cannot tell: it sends Home with its public parts.
    const html = (await (await page.goto('/'))?.text()) ?? '';
    expect(html).toContain('data-prerendered="en /"');
    await page.waitForURL(`${baseUrl}/Login`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Welcome back');
    await expect
      .poll(async () => (await context.cookies()).some((cookie) => cookie.name === 'signed_in'))
      .toBe(false);
    // No session, no numbers to format: no worker for Intl's data.
    expect(workers).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('screenshots of the real screens', () => {
  it.each(['en', 'zh_CN', 'de'])('in %s', async (language) => {
    const { context, page } = await phonePage();
    await page.goto('/Login');
    await page.evaluate((lang) => localStorage.setItem('lang', lang), language);
    const signedOut = [
      '/Login',
      '/Register',
      '/ForgetPwd',
      '/Agree?type=privacy',
      '/Agree?type=terms',
    ];
    for (const path of signedOut) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await screenshot(page, `${language}-${path.slice(1).replace(/[?=]/g, '-')}`);
    }
    await page.goto('/Register');
    await page.getByRole('tab').nth(1).click();
    await screenshot(page, `${language}-Register-invite`);

    const email = uniqueEmail();
    const code = await fetch(`${baseUrl}/api/v1/auth/codes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'email', account: email, purpose: 'register' }),
    }).then(async () => outboxCode(baseUrl, email));
    const session = (await (
      await fetch(`${baseUrl}/api/v1/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          mode: 'code',
          channel: 'email',
          account: email,
          code,
          password: PASSWORD,
          confirmPassword: PASSWORD,
        }),
      })
    ).json()) as { data: { token: string; uid: string } };
    await page.evaluate(({ token, uid }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('uid', uid);
    }, session.data);
    for (const path of [
      '/',
      '/My',
      '/Language',
      '/ChangePwd',
      '/About',
      '/Success',
      '/Transaction',
      '/Mining',
      '/Wallet',
      '/Wallet?tab=futures',
      '/SelectCoin',
    ]) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${language} ${path}`,
      ).toBeLessThanOrEqual(PHONE.width);
      await screenshot(
        page,
        `${language}-${path === '/' ? 'Home' : path.slice(1).replace(/[?=]/g, '-')}`,
      );
    }
    await context.close();
  });
});

describe('the sign-in page, prerendered (apps/web/scripts/prerender.ts)', () => {
  /** A visitor whose stored language is `stored`, with `cookie` as the `lang` cookie (or none). */
  async function visitor(stored: string | null, cookie: string | null) {
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: baseUrl,
      locale: 'en-US',
    });
    if (cookie) await context.addCookies([{ name: 'lang', value: cookie, url: baseUrl }]);
    // Before any script of the page: the stored language, and the h1 the HTML brought.
    await context.addInitScript((lang) => {
      if (lang) localStorage.setItem('lang', lang);
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { htmlHeading: Element | null }).htmlHeading =
          document.querySelector('h1');
      });
    }, stored);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().includes('status of 400'))
        errors.push(message.text());
    });
    return { context, page, errors };
  }

  /** The h1 is the HTML's own element and React runs it: hydrated in place, not rendered anew. */
  const headingHydrated = async (page: Page) => {
    const state = await pageState(page);
    return state.htmlHeading && state.react;
  };

  it('comes in the language of the cookie, is hydrated in place, and works', async () => {
    // As a browser asks for a page (an unknown path without text/html in Accept is a 404).
    const html = await (
      await fetch(`${baseUrl}/login`, { headers: { cookie: 'lang=de', accept: 'text/html' } })
    ).text();
    // Painted without any script: the page is in the HTML, with its style sheets.
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('data-prerendered="de /login"');
    expect(html).toContain('<h1>Willkommen zurück</h1>');
    expect(html).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/login-[\w-]+\.css">/);

    const { context, page, errors } = await visitor('de', 'de');
    const logs = pageLog(page);
    await page.goto('/Login');
    await expect
      .poll(() => headingHydrated(page))
      .toBe(true)
      .catch((error: unknown) => explained(page, logs, 'the heading is not hydrated', error));
    expect(await page.locator('h1').textContent()).toBe('Willkommen zurück');
    await page.locator('#account').fill('nobody@example.com');
    await page.locator('#password').fill('wrong-password-1');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect
      .poll(() => page.getByText('Konto oder Passwort ist falsch.').count())
      .toBeGreaterThan(0);
    // The phone tab, a state change after hydration.
    await page.getByRole('tab', { name: 'Telefon' }).click();
    await expect.poll(() => page.getByLabel('Ländervorwahl').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await screenshot(page, 'de-Login-prerendered');
    await context.close();
  });

  it('on a slow phone too, it is hydrated in place every time (the page renders in the hydration, not after it)', async () => {
    // With a page's code still a pending promise at hydration, about one visit in four at this
    // speed lost the page's HTML to the config's reply (and some unslowed ones too).
    const visits: { htmlHeading: boolean; logs: string[] }[] = [];
    for (let visit = 0; visit < 10; visit++) {
      const { context, page, errors } = await visitor('de', 'de');
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const logs = pageLog(page);
      await page.goto('/Login');
      await expect.poll(async () => (await pageState(page)).react).toBe(true);
      visits.push({ htmlHeading: (await pageState(page)).htmlHeading, logs });
      expect(errors).toEqual([]);
      await context.close();
    }
    expect(visits.filter((visit) => !visit.htmlHeading)).toEqual([]);
    // Ten visits at a quarter of the CPU's speed.
  }, 180_000);

  it('what is typed and submitted before the app runs is kept: the sign-in goes through once it does', async () => {
    const { context, page, errors } = await visitor(null, null);
    // The app's entry is held back until the visitor has filled in the form and pressed the button.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/Login', { waitUntil: 'domcontentloaded' });
    await page.locator('#account').fill('demo@tradewind.app');
    await page.locator('#password').fill('demo-pass-2026');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Held, not sent as a plain form (which would reload the page and lose what was typed).
    expect(await page.locator('form').getAttribute('data-pending-submit')).toBe('');
    expect(page.url()).toBe(`${baseUrl}/Login`);
    release();
    await page.waitForURL(`${baseUrl}/`);
    await expect.poll(() => page.getByTestId('home-total').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a stored language without its cookie: the English HTML gives way to the stored language, and the cookie follows', async () => {
    const { context, page, errors } = await visitor('fr', null);
    await page.goto('/Login');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Bon retour parmi nous');
    expect(await headingHydrated(page)).toBe(false);
    expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('fr');
    expect(errors).toEqual([]);
    await context.close();
  });
});
