/** One language's merged messages, built by `localeBundles()` in vite.config.ts. */
declare module 'virtual:tradewind-locale/*' {
  const catalogue: Record<string, unknown>;
  export default catalogue;
}
