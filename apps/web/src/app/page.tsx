import { type ComponentType, lazy } from 'react';
import { loadAllMessages } from '@/lib/i18n.ts';
import { PageBoundary } from './page-boundary.tsx';

/** A page whose code or messages fail to download is tried again after each of these pauses, then shows "could not load". */
export const PAGE_RETRY_DELAYS_MS = [400, 1200] as const;

export interface PageHandle {
  preload: () => Promise<unknown>;
  /** The API GETs the page makes as it opens (see `HttpClient.early`), for a signed-in user. */
  early?: readonly string[];
}

/**
 * Each page (and the tab layout) is its own chunk; `handle.preload` starts its download before
 * the app renders. A page renders once its chunk and all of its language's messages are there;
 * the first screens (`firstScreen`) need only the part the app loaded before its first render.
 * A download that fails is tried again twice; then the page shows "could not load" with a retry
 * (`PageBoundary`).
 */
export function page<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
  options: { firstScreen?: boolean; early?: readonly string[] } = {},
) {
  let loaded: ComponentType | undefined;
  /** The download under way, shared by the preload and the render that asks for it meanwhile. */
  let loading: Promise<M> | undefined;
  const attempt = () =>
    options.firstScreen
      ? load()
      : Promise.all([load(), loadAllMessages()]).then(([module]) => module);
  const preload = () => {
    loading ??= withRetries(attempt, PAGE_RETRY_DELAYS_MS).then(
      (module) => {
        loaded = module[name] as ComponentType;
        return module;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  // Once preloaded, the page renders without suspending. A promise, even one already resolved,
  // suspends its Suspense boundary for a turn; in a hydration the boundary is then left
  // dehydrated after the commit, and an update reaching it first (the config's reply, read by
  // Shell) makes React throw the page's HTML away, and with it what the visitor had typed or
  // submitted there, without a word. A browser test (shell.e2e.ts) checks it under a slow CPU.
  const lazyPage = () =>
    lazy(() =>
      loaded
        ? fulfilled({ default: loaded })
        : preload().then((module) => ({ default: module[name] as ComponentType })),
    );
  let PageLazy = lazyPage();
  // React keeps a lazy's failure for good: after one, the page's next render takes a new lazy.
  const renew = () => {
    PageLazy = lazyPage();
  };
  function PageCode() {
    return <PageLazy />;
  }
  return {
    element: (
      <PageBoundary onFailed={renew}>
        <PageCode />
      </PageBoundary>
    ),
    handle: { preload, early: options.early } satisfies PageHandle,
  };
}

/** `run`, and again after each pause while it fails; the last failure is the result. */
function withRetries<T>(run: () => Promise<T>, delaysMs: readonly number[]): Promise<T> {
  return delaysMs.reduce<Promise<T>>(
    (result, delayMs) =>
      result.catch(() => new Promise((resolve) => setTimeout(resolve, delayMs)).then(run)),
    run(),
  );
}

/** A thenable that calls back at once, which `lazy` reads in the same render (a promise calls back in a microtask). */
function fulfilled<T>(value: T): Promise<T> {
  return { then: (resolve: (value: T) => unknown) => resolve(value) } as unknown as Promise<T>;
}
