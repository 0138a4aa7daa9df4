import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** A page's own chunk, loaded when first opened; `name` is the page's named export (React's `lazy` wants a default one). */
export function lazyPage<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
): LazyExoticComponent<ComponentType> {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}
