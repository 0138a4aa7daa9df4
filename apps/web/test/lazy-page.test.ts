import { type ReactNode, Suspense, createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAGE_RETRY_DELAYS_MS, page } from '@/app/page.tsx';
import { PageLoadFailed, failedFileUrl } from '@/app/page-boundary.tsx';
import { initI18n } from '@/lib/i18n.ts';
import { BrowserRouter } from '@/lib/router.tsx';

// The first part of the German messages as the build makes it (`localeBundles()`), its `common` namespace is enough here.
vi.mock('virtual:tradewind-locale/de', async () => ({
  default: { common: (await import('@/locales/de.json')).default.common },
}));

/** Renders `element` in one synchronous pass: a part that suspends shows its fallback. */
const renderOnce = (element: ReactNode) =>
  renderToString(
    createElement(Suspense, { fallback: createElement('i', null, 'waiting') }, element),
  ).replace(/<!--\/?\$\??-->/g, '');

/** A first-screen page whose code is a module with `Hello`, and how many times that code was loaded. */
function countedPage() {
  let count = 0;
  const route = page(
    async () => {
      count += 1;
      return { Hello: () => createElement('p', null, 'hello') };
    },
    'Hello',
    { firstScreen: true },
  );
  return { route, loads: () => count };
}

describe('a page of the route table', () => {
  it('renders in the same pass once preloaded, without suspending (a hydration would leave its boundary dehydrated)', async () => {
    const { route, loads } = countedPage();
    await route.handle.preload();
    expect(renderOnce(route.element)).toBe('<p>hello</p>');
    expect(loads()).toBe(1);
  });

  it('not preloaded, suspends until its code is there, and loads it once', async () => {
    const { route, loads } = countedPage();
    expect(renderOnce(route.element)).toContain('waiting');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(renderOnce(route.element)).toBe('<p>hello</p>');
    expect(loads()).toBe(1);
  });
});

/** A first-screen page whose download fails `failures` times (a dropped connection), then succeeds. */
function flakyPage(failures: number) {
  let count = 0;
  const route = page(
    async () => {
      count += 1;
      if (count <= failures)
        throw new TypeError(
          'Failed to fetch dynamically imported module: http://127.0.0.1/assets/hello-page-Bx1.js',
        );
      return { Hello: () => createElement('p', null, 'hello') };
    },
    'Hello',
    { firstScreen: true },
  );
  return { route, loads: () => count };
}

describe('a page whose code does not download', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is downloaded again, twice, after a pause each time, and renders when a retry gets it', async () => {
    const { route, loads } = flakyPage(2);
    const preloaded = route.handle.preload();
    await vi.advanceTimersByTimeAsync(0);
    expect(loads()).toBe(1);
    await vi.advanceTimersByTimeAsync(PAGE_RETRY_DELAYS_MS[0]);
    expect(loads()).toBe(2);
    await vi.advanceTimersByTimeAsync(PAGE_RETRY_DELAYS_MS[1]);
    await preloaded;
    expect(loads()).toBe(3);
    expect(renderOnce(route.element)).toBe('<p>hello</p>');
  });

  it('not preloaded, renders once a retry got its code, with one download at a time', async () => {
    const { route, loads } = flakyPage(2);
    expect(renderOnce(route.element)).toContain('waiting');
    // A second render while the first is being retried joins it.
    expect(renderOnce(route.element)).toContain('waiting');
    await vi.advanceTimersByTimeAsync(PAGE_RETRY_DELAYS_MS[0] + PAGE_RETRY_DELAYS_MS[1]);
    expect(renderOnce(route.element)).toBe('<p>hello</p>');
    expect(loads()).toBe(3);
  });

  it('fails after three downloads, and the next try downloads again', async () => {
    const { route, loads } = flakyPage(Number.POSITIVE_INFINITY);
    const first = route.handle.preload().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(PAGE_RETRY_DELAYS_MS[0] + PAGE_RETRY_DELAYS_MS[1]);
    const error = await first;
    expect(error).toBeInstanceOf(TypeError);
    expect(loads()).toBe(3);
    expect(failedFileUrl(error)).toBe('http://127.0.0.1/assets/hello-page-Bx1.js');
    const second = route.handle.preload().catch((reason: unknown) => reason);
    await vi.advanceTimersByTimeAsync(PAGE_RETRY_DELAYS_MS[0] + PAGE_RETRY_DELAYS_MS[1]);
    await second;
    expect(loads()).toBe(6);
  });
});

describe('the screen of a page that could not load', () => {
  it("says so in the user's language, with a retry and a way home", async () => {
    await initI18n('de');
    const screen = createElement(PageLoadFailed, { onRetry: async () => undefined });
    const html = renderToString(
      createElement(BrowserRouter, { location: '/MiningDetail', children: screen }),
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('<h1>Diese Seite konnte nicht geladen werden.</h1>');
    expect(html).toContain('Bitte prüfen Sie Ihre Verbindung und versuchen Sie es erneut.');
    expect(html).toMatch(
      /<button type="button" class="tw-retry-button"[^>]*>Erneut versuchen<\/button>/,
    );
    expect(html).toContain('Zur Startseite');
  });
});
