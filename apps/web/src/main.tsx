// antd-mobile's variables and base styles, first: the app imports its components one by one
// (antdMobileDeepImports() in vite.config.ts), not through the index that brings this sheet.
import 'antd-mobile/es/global';
// Before everything else that evaluates: it starts a worker that runs while the rest does.
import './lib/intl-warm.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { type AnsweredQuery, App, restoreQueries } from './app/app.tsx';
import { isOpenPath } from './app/guard.ts';
import { preloadRoute } from './app/router.tsx';
import { initI18n } from './lib/i18n.ts';
import { normalizePath } from './lib/router.tsx';
import { getToken, onAppStart, storedLanguage } from './lib/storage.ts';
import { loadAntdLocale } from './ui/antd-locale.tsx';
import { makeWidgetsKeyboardOperable } from './ui/keyboard-activation.ts';
import './app/styles.css';

// The app starts in a task of its own. Evaluating the entry's modules is the page's longest task
// after its first paint (what Lighthouse counts as blocking time); the start's own work (storage,
// the early requests, the page's preload, which take about a quarter of it) then comes after that
// task instead of adding to it (bench/web, docs/performance.md: first-screen speed).
setTimeout(start, 0);

/** Takes the page over (or renders it) once its code, messages and texts are there. */
function start(): void {
  onAppStart();
  makeWidgetsKeyboardOperable(document.body);
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  const language = storedLanguage();
  // The server sends the sign-in page prerendered in the language of the `lang` cookie, and `/`
  // rendered with its public parts when the `signed_in` cookie says there is a session
  // (scripts/prerender.ts, apps/server/src/platform/web-app.ts). The app takes the page over where
  // it is if it is this path in the stored language and the session is still there; otherwise it
  // renders anew, and the first commit replaces it.
  const hydrating =
    container.dataset.prerendered === `${language} ${normalizePath(window.location.pathname)}` &&
    (isOpenPath(window.location.pathname) || getToken() !== null);
  // The replies the server rendered `/` with: in the cache before the first render, not asked again.
  const answered = hydrating ? answeredQueries() : [];
  restoreQueries(answered);
  // The page's code, its language's messages and antd-mobile's texts download side by side.
  const pageCode = preloadRoute(
    window.location.pathname,
    answered.map((query) => query.url),
  );
  // Not a top-level await: the entry's chunk must finish evaluating, because the language files
  // import from it (antd-mobile's texts share its base with the English ones the entry holds).
  // The page's code too is waited for when hydrating: React cannot hydrate the page without it, and
  // an update reaching the page before it is hydrated (a reply, say /api/v1/config's) makes React
  // drop the page's HTML and render it anew, with whatever the visitor had typed or submitted
  // there (browser tests on the sign-in page saw it in CI: run by React, not its HTML's elements).
  void Promise.all([
    initI18n(language),
    loadAntdLocale(language).catch(() => undefined),
    hydrating ? pageCode : undefined,
  ]).then(() => {
    const app = (
      <StrictMode>
        <App />
      </StrictMode>
    );
    // In a transition: React works in slices of a few milliseconds and lets the browser in
    // between (a tap, a paint), instead of one long task for the whole page.
    startTransition(() => {
      if (hydrating) hydrateRoot(container, app);
      else createRoot(container).render(app);
    });
  });
}

/** The queries in the page's `#tw-state` (a JSON block the server writes after #root), if any. */
function answeredQueries(): AnsweredQuery[] {
  const text = document.getElementById('tw-state')?.textContent;
  if (!text) return [];
  try {
    return (JSON.parse(text) as { queries: AnsweredQuery[] }).queries;
  } catch {
    return [];
  }
}
