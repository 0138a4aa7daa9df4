import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while React hydrates the prerendered HTML (scripts/prerender.ts), true afterwards and in
 * a plain render. What the prerender could not know (replies from the server) must wait for
 * true, or the page differs from its HTML and React renders it again from scratch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
