import { type ReactNode, Suspense, createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { page } from '@/app/page.tsx';

/** Renders `element` in one synchronous pass: a part that suspends shows its fallback. */
const renderOnce = (element: ReactNode) =>
  renderToString(createElement(Suspense, { fallback: createElement('i', null, 'waiting') }, element)).replace(/<!--\/?\$\??-->/g, '');

/** A first-screen page whose code is a module with `Hello`, and how many times that code was loaded. */
function countedPage() {
  let count = 0;
  const route = page(
    async () => {
      count += 1;
      return { Hello: () => createElement('p', null, 'hello') };
    },
    'Hello',
    { firstScreen: true },
  );
  return { route, loads: () => count };
}

describe('a page of the route table', () => {
  it('renders in the same pass once preloaded, without suspending (a hydration would leave its boundary dehydrated)', async () => {
    const { route, loads } = countedPage();
    await route.handle.preload();
    expect(renderOnce(route.element)).toBe('<p>hello</p>');
    expect(loads()).toBe(1);
  });

  it('not preloaded, suspends until its code is there, and loads it once', async () => {
    const { route, loads } = countedPage();
    expect(renderOnce(route.element)).toContain('waiting');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(renderOnce(route.element)).toBe('<p>hello</p>');
    expect(loads()).toBe(1);
  });
});
