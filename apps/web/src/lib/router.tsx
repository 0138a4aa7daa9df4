import {
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react';

/**
 * The part of React Router the app uses, on the History API (React Router was 13 KB gzipped on
 * every first screen): a route table of fixed paths with nested layouts, `Link`, `useNavigate`,
 * `useLocation`, `useSearchParams`, `Navigate` and `Outlet`, with React Router's rules where the
 * app relies on them: paths match without regard to case or a trailing slash, every navigation
 * has a new `location.key`, and a navigation is a transition (the page on screen stays until the
 * next one's code is there, instead of a spinner).
 */

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** New for every entry of the history: what effects that run "on every navigation" depend on. */
  key: string;
}

export interface RouteObject {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  handle?: unknown;
  children?: RouteObject[];
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

/**
 * The app's router, on the window's location. `location` renders that path instead, without a
 * window: the build's prerender of the sign-in page (src/prerender.tsx); the browser then
 * follows the window as always.
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
  return <LocationContext.Provider value={location}>{children}</LocationContext.Provider>;
}

export function useLocation(): Location {
  return useLocationContext();
}

export function useNavigate(): NavigateFunction {
  useLocationContext();
  return navigateTo;
}

export function useSearchParams(): [
  URLSearchParams,
  (next: Record<string, string> | URLSearchParams, options?: NavigateOptions) => void,
] {
  const { pathname, search } = useLocationContext();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (next: Record<string, string> | URLSearchParams, options?: NavigateOptions) => {
      const text = new URLSearchParams(next).toString();
      navigateTo(`${pathname}${text ? `?${text}` : ''}`, options);
    },
    [pathname],
  );
  return [params, setParams];
}

/** Navigates once it has rendered (the guard's redirect, unknown paths). */
export function Navigate({ to, replace }: { to: string; replace?: boolean }): null {
  useEffect(() => navigateTo(to, { replace }), [to, replace]);
  return null;
}

/** The child route's element, inside a layout route's element. */
export function Outlet(): ReactNode {
  return useContext(OutletContext);
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
  replace?: boolean;
};

/** An `<a href>` (so it opens in a new tab, and crawlers follow it) that navigates in place on a plain click. */
export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const plain =
      event.button === 0 &&
      !event.metaKey &&
      !event.altKey &&
      !event.ctrlKey &&
      !event.shiftKey &&
      (!target || target === '_self');
    if (event.defaultPrevented || !plain) return;
    event.preventDefault();
    navigateTo(to, { replace });
  };
  return <a {...rest} href={to} target={target} onClick={click} />;
}

/** A path as routes match it: without a trailing slash, in lower case. */
export function normalizePath(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return trimmed.toLowerCase();
}

function joinPath(parent: string, path: string): string {
  if (path.startsWith('/')) return path;
  return `${parent.replace(/\/$/, '')}/${path}`;
}

/** The routes from the outermost layout to the page that `pathname` shows, or none. */
export function matchRoutes(
  routes: RouteObject[],
  pathname: string,
  parent = '/',
): RouteObject[] | null {
  const target = normalizePath(pathname);
  for (const route of routes) {
    const full = route.path === undefined ? parent : joinPath(parent, route.path);
    if (route.children) {
      const inner = matchRoutes(route.children, pathname, full);
      if (inner) return [route, ...inner];
      continue;
    }
    if (
      route.index
        ? normalizePath(parent) === target
        : route.path === '*' || normalizePath(full) === target
    )
      return [route];
  }
  return null;
}

/** The element of the route `pathname` matches, each layout rendering the next in its `Outlet`. */
export function useRoutes(routes: RouteObject[]): ReactNode {
  const { pathname } = useLocationContext();
  const matched = matchRoutes(routes, pathname) ?? [];
  return matched.reduceRight<ReactNode>(
    (outlet, route) => (
      <OutletContext.Provider value={outlet}>{route.element ?? outlet}</OutletContext.Provider>
    ),
    null,
  );
}
