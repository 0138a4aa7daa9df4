import { describe, expect, it } from 'vitest';
import { type RouteObject, matchRoutes } from '@/lib/router.tsx';

const routes: RouteObject[] = [
  {
    handle: 'shell',
    children: [
      {
        path: '/',
        handle: 'tabs',
        children: [
          { index: true, handle: 'home' },
          { path: 'My', handle: 'my' },
        ],
      },
      { path: '/Login', handle: 'login' },
      { path: '*', handle: 'unknown' },
    ],
  },
];

const handles = (pathname: string) => matchRoutes(routes, pathname)?.map((route) => route.handle);

describe('the route table', () => {
  it('matches layouts down to the page, an index route at its parent’s path', () => {
    expect(handles('/')).toEqual(['shell', 'tabs', 'home']);
    expect(handles('/My')).toEqual(['shell', 'tabs', 'my']);
    expect(handles('/Login')).toEqual(['shell', 'login']);
  });

  it('ignores case and a trailing slash, as React Router does', () => {
    expect(handles('/login')).toEqual(['shell', 'login']);
    expect(handles('/my/')).toEqual(['shell', 'tabs', 'my']);
  });

  it('sends any other path to the catch-all, and nothing matches without one', () => {
    expect(handles('/Nowhere')).toEqual(['shell', 'unknown']);
    expect(handles('/My/extra')).toEqual(['shell', 'unknown']);
    expect(matchRoutes([{ path: '/Login' }], '/Nowhere')).toBeNull();
  });
});
