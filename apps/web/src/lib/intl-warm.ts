import { LANGUAGE_TAGS } from '@tradewind/contract/languages';
import { getToken, storedLanguage } from './storage.ts';

/**
 * The first Intl number or date format in a page loads ICU's data for its language: 13–60 ms on
 * the main thread in Chromium (measured on this repository's machines), and on Home it fell in
 * hydration, the page's longest task. ICU's caches belong to the renderer process, not to a
 * thread, so a worker that formats once first takes that cost off the main thread: the page's own
 * first format then costs about 0.1 ms. Imported first by main.tsx, so the worker starts before
 * the rest of the entry evaluates; only with a session, because the sign-in pages format no numbers.
 */
if (typeof Worker !== 'undefined' && getToken() !== null) {
  try {
    const worker = new Worker(new URL('./intl-warm.worker.ts', import.meta.url), {
      type: 'module',
      name: 'intl-warm',
    });
    worker.postMessage(LANGUAGE_TAGS[storedLanguage()]);
  } catch {
    // No worker: the first format pays on the main thread, as it would without this file.
  }
}
