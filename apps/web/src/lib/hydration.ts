import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while React hydrates a page the server sent rendered (the sign-in page prerendered by
 * scripts/prerender.ts, Home rendered per request), true afterwards and in a plain render. What
 * the render could not know (replies from the server at build time, the visitor's time zone)
 * must wait for true, or the page differs from its HTML and React renders it again from scratch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
