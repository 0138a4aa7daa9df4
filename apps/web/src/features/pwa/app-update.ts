/**
 * The installed app and its updates (spec §1: "a new version is available; downloading").
 * A deploy ships a new sw.js; the browser installs it beside the running one and we offer it.
 * On "Update" the new worker downloads the new build's files, takes over, and the page reloads.
 */

export type UpdateState =
  | { phase: 'idle' }
  | { phase: 'available' }
  | { phase: 'downloading'; done: number; total: number }
  | { phase: 'failed' };

type WorkerMessage =
  { type: 'progress'; done: number; total: number } | { type: 'done' } | { type: 'failed' };

/** How often an open app asks the server whether a new version exists (besides each visit and each return to the foreground). */
const UPDATE_CHECK_INTERVAL_MS = 30 * 60_000;
/**
 * A download that reports no progress for this long has failed, whatever the worker is doing
 * (a browser may hold a request on a dead link, or stop the worker): the user gets "try again".
 */
const DOWNLOAD_STALL_MS = 15_000;

let state: UpdateState = { phase: 'idle' };
const listeners = new Set<() => void>();
let waiting: ServiceWorker | null = null;

function setState(next: UpdateState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function subscribeUpdate(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getUpdateState(): UpdateState {
  return state;
}

function offer(worker: ServiceWorker): void {
  waiting = worker;
  if (state.phase === 'idle') setState({ phase: 'available' });
}

/** Registers /sw.js once the page has loaded, so it never competes with the first screen. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const start = () => void register().catch(() => undefined);
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

async function register(): Promise<void> {
  const container = navigator.serviceWorker;
  // The first worker taking over a fresh page is not an update; any later change of worker is.
  let controlled = container.controller !== null;
  container.addEventListener('controllerchange', () => {
    if (controlled) window.location.reload();
    controlled = true;
  });
  const registration = await container.register('/sw.js', { scope: '/' });
  const watch = (worker: ServiceWorker) => {
    const check = () => {
      if (worker.state === 'installed' && container.controller) offer(worker);
    };
    worker.addEventListener('statechange', check);
    check();
  };
  if (registration.waiting) watch(registration.waiting);
  if (registration.installing) watch(registration.installing);
  registration.addEventListener('updatefound', () => {
    if (registration.installing) watch(registration.installing);
  });
  const checkForUpdate = () => void registration.update().catch(() => undefined);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') checkForUpdate();
  });
  setInterval(checkForUpdate, UPDATE_CHECK_INTERVAL_MS);
}

/** The user agreed: the waiting worker downloads the new version, takes over, and the page reloads. */
export function startUpdate(): void {
  const worker = waiting;
  if (!worker) return;
  setState({ phase: 'downloading', done: 0, total: 0 });
  const channel = new MessageChannel();
  let stall: ReturnType<typeof setTimeout> | undefined;
  const fail = () => {
    clearTimeout(stall);
    channel.port1.close();
    setState({ phase: 'failed' });
  };
  const watch = () => {
    clearTimeout(stall);
    stall = setTimeout(fail, DOWNLOAD_STALL_MS);
  };
  channel.port1.onmessage = (event: MessageEvent<WorkerMessage>) => {
    const message = event.data;
    if (message.type === 'progress') {
      watch();
      setState({ phase: 'downloading', done: message.done, total: message.total });
    } else if (message.type === 'failed') {
      fail();
    } else {
      // 'done': the worker takes over now, and controllerchange reloads the page.
      clearTimeout(stall);
    }
  };
  watch();
  worker.postMessage({ type: 'download' }, [channel.port2]);
}

/** "Later": the prompt goes away; the new version is offered again on the next visit. */
export function dismissUpdate(): void {
  setState({ phase: 'idle' });
}
