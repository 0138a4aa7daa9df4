import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while the server renders a page (src/prerender.tsx) and while the browser hydrates it,
 * true afterwards (and from the start of a page rendered in the browser): for what the server
 * cannot know, like the visitor's time zone, which must match between the two and then change.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
