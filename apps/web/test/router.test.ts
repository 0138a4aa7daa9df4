import { type ReactNode, createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { BrowserRouter, Layout, Outlet, matchesPath } from '@/lib/router.tsx';

/** A layout that names itself, then shows its child route. */
const named = (name: string) => h('i', null, `${name}/`, h(Outlet));

/** A table shaped like the app's (app/router.tsx): the shell, the tab layout at "/" and its pages, a catch-all. */
const table = (catchAll: boolean): ReactNode =>
  h(
    Layout,
    { element: named('shell') },
    h(
      Switch,
      null,
      h(
        Route,
        { path: /^\/(?:my)?\/?$/i },
        h(
          Layout,
          { element: named('tabs') },
          h(Switch, null, h(Route, { path: '/' }, 'home'), h(Route, { path: '/My' }, 'my')),
        ),
      ),
      h(Route, { path: '/Login' }, 'login'),
      catchAll ? h(Route, null, 'unknown') : null,
    ),
  );

/** What the table shows at `pathname`, layouts first: "shell/tabs/home". */
const shown = (pathname: string, catchAll = true) =>
  renderToString(h(BrowserRouter, { location: pathname, children: table(catchAll) })).replace(
    /<\/?i>|<!-- -->/g,
    '',
  );

describe('the route table', () => {
  it('matches layouts down to the page, an index route at its parent’s path', () => {
    expect(shown('/')).toBe('shell/tabs/home');
    expect(shown('/My')).toBe('shell/tabs/my');
    expect(shown('/Login')).toBe('shell/login');
  });

  it('ignores case and a trailing slash, as React Router does', () => {
    expect(shown('/login')).toBe('shell/login');
    expect(shown('/my/')).toBe('shell/tabs/my');
    expect(matchesPath('/Login', '/LOGIN/')).toBe(true);
  });

  it('sends any other path to the catch-all, and nothing matches without one', () => {
    expect(shown('/Nowhere')).toBe('shell/unknown');
    expect(shown('/My/extra')).toBe('shell/unknown');
    expect(shown('/Nowhere', false)).toBe('shell/');
    expect(matchesPath('/Login', '/Nowhere')).toBe(false);
  });
});
