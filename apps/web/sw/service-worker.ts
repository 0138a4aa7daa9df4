/**
 * Tradewind's service worker. The build (vite.config.ts, `serviceWorker()`) prepends the three
 * constants below and writes the result to dist/sw.js; one build, one cache named after it.
 *
 * - Hashed files under /assets/ never change: cache first.
 * - Pages (navigations) come from the network; when there is none, the offline page.
 * - /api, /ws and /files are never touched: balances, orders and private documents are never
 *   served from a cache.
 * - A new build installs with only its small shell. Its assets are downloaded when the user
 *   agrees to update (message `download`), then it takes over and the page reloads into it.
 */
declare const BUILD_ID: string;
/** Every hashed file of this build, e.g. /assets/index-3f9a1c.js. */
declare const ASSETS: readonly string[];
/** The public files: the offline page and its script, the manifest, the icons. */
declare const SHELL: readonly string[];

const sw = self as unknown as ServiceWorkerGlobalScope;
const CACHE = `tw-${BUILD_ID}`;
const CACHE_PREFIX = 'tw-';
const OFFLINE_PAGE = '/offline.html';
/** The API, live updates, private files, and the operator console (its own app, never served offline). */
const NEVER_CACHED = /^\/(api|ws|files|admin)(\/|$)/;
/** Parallel fetches while downloading a new version: quick on a good link, gentle on a poor one. */
const DOWNLOAD_CONCURRENCY = 4;
/**
 * A stalled connection must end in "try again", not in a bar stuck at 99 %. The largest hashed
 * file is about 250 KB, so this allows a link of about 20 KB/s.
 */
const DOWNLOAD_TIMEOUT_MS = 15_000;

interface DownloadMessage {
  type: 'download';
}

sw.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(SHELL);
      // A first visit keeps the whole app now; an update waits until the user agrees to download it.
      if (!sw.registration.active) await cache.addAll(ASSETS);
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
          .map((name) => caches.delete(name)),
      );
      if (sw.registration.navigationPreload) await sw.registration.navigationPreload.enable();
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener('message', (event) => {
  const data = event.data as DownloadMessage | null;
  const port = event.ports[0];
  if (data?.type === 'download' && port) event.waitUntil(download(port));
});

/** Puts every asset of this build in its cache (reusing files an older build already has), then takes over. */
async function download(port: MessagePort): Promise<void> {
  const cache = await caches.open(CACHE);
  const queue = [...ASSETS];
  let done = 0;
  port.postMessage({ type: 'progress', done, total: ASSETS.length });
  const next = async (): Promise<void> => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      if (!(await cache.match(url))) {
        const response =
          (await caches.match(url)) ??
          (await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) }));
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        await cache.put(url, response);
      }
      done += 1;
      port.postMessage({ type: 'progress', done, total: ASSETS.length });
    }
  };
  try {
    await Promise.all(Array.from({ length: DOWNLOAD_CONCURRENCY }, next));
  } catch {
    port.postMessage({ type: 'failed' });
    return;
  }
  port.postMessage({ type: 'done' });
  await sw.skipWaiting();
}

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (
    request.method !== 'GET' ||
    url.origin !== sw.location.origin ||
    NEVER_CACHED.test(url.pathname)
  )
    return;
  if (request.mode === 'navigate') {
    event.respondWith(page(event));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request, true));
  } else if (SHELL.includes(url.pathname)) {
    event.respondWith(cacheFirst(request, false));
  }
});

async function page(event: FetchEvent): Promise<Response> {
  try {
    const preloaded = (await event.preloadResponse) as Response | undefined;
    return preloaded ?? (await fetch(event.request));
  } catch {
    return (await caches.match(OFFLINE_PAGE, { cacheName: CACHE })) ?? Response.error();
  }
}

/** Hashed assets fetched after install (e.g. by a tab that never downloaded them) are kept too. */
async function cacheFirst(request: Request, keep: boolean): Promise<Response> {
  const cached = await caches.match(request, { cacheName: CACHE });
  if (cached) return cached;
  const response = await fetch(request);
  if (keep && response.ok) {
    const copy = response.clone();
    void caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}
