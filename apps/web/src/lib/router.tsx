import {
  type ReactNode,
  createContext,
  startTransition,
  useContext,
  useLayoutEffect,
  useState,
} from 'react';
import { parse } from 'regexparam';
import {
  Link as WouterLink,
  Redirect,
  Router,
  matchRoute,
  useSearchParams as useWouterSearchParams,
} from 'wouter';

/**
 * The app's routing on wouter (decision 0023): its `Switch` and `Route` match the paths
 * (regexparam, as wouter does: without regard to case or a trailing slash, the rules the app
 * inherited from React Router), and its `Link`, `Redirect` and `useSearchParams` are the app's.
 *
 * The location itself stays ours, handed to wouter as its `hook`: every entry of the history has
 * its own `location.key`, which the effects that run "on every navigation" depend on, and a
 * navigation is a transition, so the page on screen stays until the next one's code is there
 * instead of a spinner. wouter's own location reads the history through useSyncExternalStore,
 * whose updates React never renders as a transition.
 */

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** New for every entry of the history: what effects that run "on every navigation" depend on. */
  key: string;
}

export interface NavigateOptions {
  replace?: boolean;
}

export type NavigateFunction = (to: string | number, options?: NavigateOptions) => void;

function currentLocation(): Location {
  const { pathname, search, hash } = window.location;
  const state = window.history.state as { key?: unknown } | null;
  return { pathname, search, hash, key: typeof state?.key === 'string' ? state.key : 'default' };
}

const listeners = new Set<(location: Location) => void>();

function onPopState(): void {
  const location = currentLocation();
  for (const listener of listeners) listener(location);
}

/** Goes to `to` (a path with its search), or `delta` entries through the history. */
export function navigateTo(to: string | number, options: NavigateOptions = {}): void {
  if (typeof to === 'number') {
    window.history.go(to);
    return;
  }
  const state = { key: Math.random().toString(36).slice(2, 10) };
  if (options.replace) window.history.replaceState(state, '', to);
  else window.history.pushState(state, '', to);
  onPopState();
}

function sameLocation(a: Location, b: Location): boolean {
  return a.key === b.key && a.pathname === b.pathname && a.search === b.search && a.hash === b.hash;
}

const LocationContext = createContext<Location | null>(null);
const OutletContext = createContext<ReactNode>(null);

function useLocationContext(): Location {
  const location = useContext(LocationContext);
  if (!location) throw new Error('a router hook is used outside <BrowserRouter>');
  return location;
}

/** wouter's `hook` and `searchHook`: the path and search of the location shown. */
const usePath = (): [string, (to: string, options?: NavigateOptions) => void] => [
  useLocationContext().pathname,
  navigateTo,
];
const useSearch = (): string => useLocationContext().search;

/**
 * The app's router, on the window's location. `location` renders that path instead, without a
 * window: the build's prerender of the sign-in page and the server's render of Home
 * (src/prerender.tsx); the browser then follows the window as always.
 */
export function BrowserRouter({
  children,
  location: fixed,
}: {
  children: ReactNode;
  location?: string;
}) {
  const [location, setLocation] = useState(() =>
    fixed === undefined
      ? currentLocation()
      : { pathname: fixed, search: '', hash: '', key: 'default' },
  );
  useLayoutEffect(() => {
    const listener = (next: Location) =>
      startTransition(() => setLocation((shown) => (sameLocation(shown, next) ? shown : next)));
    listeners.add(listener);
    if (listeners.size === 1) window.addEventListener('popstate', onPopState);
    // A navigation between the first render and this effect.
    listener(currentLocation());
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) window.removeEventListener('popstate', onPopState);
    };
  }, []);
  return (
    <LocationContext.Provider value={location}>
      <Router hook={usePath} searchHook={useSearch}>
        {children}
      </Router>
    </LocationContext.Provider>
  );
}

export function useLocation(): Location {
  return useLocationContext();
}

/** Our `navigateTo`, not wouter's: the back button's `navigate(-1)` goes through the history. */
export function useNavigate(): NavigateFunction {
  useLocationContext();
  return navigateTo;
}

export function useSearchParams(): [
  URLSearchParams,
  (next: Record<string, string> | URLSearchParams, options?: NavigateOptions) => void,
] {
  return useWouterSearchParams();
}

/** Navigates once it has rendered (the guard's redirect, unknown paths). */
export function Navigate({ to, replace }: { to: string; replace?: boolean }) {
  return <Redirect to={to} replace={replace} />;
}

/** An `<a href>` (so it opens in a new tab, and crawlers follow it) that navigates in place on a plain click. */
export const Link = WouterLink;

/** A layout route: `element`, with what `children` render in its `Outlet`. */
export function Layout({ element, children }: { element: ReactNode; children?: ReactNode }) {
  return <OutletContext.Provider value={children}>{element}</OutletContext.Provider>;
}

/** The child routes' element, inside a layout route's element. */
export function Outlet(): ReactNode {
  return useContext(OutletContext);
}

/** Whether `pattern` (a route's path) matches `pathname` as wouter's `Route` matches it. */
export function matchesPath(pattern: string | RegExp, pathname: string): boolean {
  return matchRoute(parse, pattern, pathname)[0];
}

/** A path as routes match it: without a trailing slash, in lower case. */
export function normalizePath(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return trimmed.toLowerCase();
}
