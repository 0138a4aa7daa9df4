import { type ComponentType, lazy } from 'react';
import { loadAllMessages } from '@/lib/i18n.ts';

export interface PageHandle {
  preload: () => Promise<unknown>;
  /** The API GETs the page makes as it opens (see `HttpClient.early`), for a signed-in user. */
  early?: readonly string[];
}

/**
 * Each page (and the tab layout) is its own chunk; `handle.preload` starts its download before
 * the app renders. A page renders once its chunk and all of its language's messages are there;
 * the first screens (`firstScreen`) need only the part the app loaded before its first render.
 */
export function page<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
  options: { firstScreen?: boolean; early?: readonly string[] } = {},
) {
  let loaded: ComponentType | undefined;
  const preload = () =>
    (options.firstScreen ? load() : Promise.all([load(), loadAllMessages()]).then(([module]) => module)).then((module) => {
      loaded = module[name] as ComponentType;
      return module;
    });
  // Once preloaded, the page renders without suspending. A promise, even one already resolved,
  // suspends its Suspense boundary for a turn; in a hydration the boundary is then left
  // dehydrated after the commit, and an update reaching it first (the config's reply, read by
  // Shell) makes React throw the page's HTML away, and with it what the visitor had typed or
  // submitted there, without a word. A browser test (shell.e2e.ts) checks it under a slow CPU.
  const Component = lazy(() => (loaded ? fulfilled({ default: loaded }) : preload().then((module) => ({ default: module[name] as ComponentType }))));
  return { element: <Component />, handle: { preload, early: options.early } satisfies PageHandle };
}

/** A thenable that calls back at once, which `lazy` reads in the same render (a promise calls back in a microtask). */
function fulfilled<T>(value: T): Promise<T> {
  return { then: (resolve: (value: T) => unknown) => resolve(value) } as unknown as Promise<T>;
}
