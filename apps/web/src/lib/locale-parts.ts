/**
 * How the build splits one language's messages (`localeBundles()` in vite.config.ts): the
 * namespaces the first screens translate with (`/Login`, `/` and the shell and tab bar around
 * them) download with the app; the rest with the first page that needs them (`page()` in
 * app/router.tsx), or at once if a first screen asks for a key it does not have (lib/i18n.ts).
 * A test walks the first screens' imports and fails if one uses a namespace not listed here.
 * Not part of the app: only the build and that test import it.
 */
export type Catalogue = Record<string, unknown>;

export const FIRST_SCREEN_NAMESPACES: ReadonlySet<string> = new Set([
  'auth',
  'checkin',
  'common',
  'home',
  'market',
  'messages',
  'points',
  'points_history',
  'positions',
  'quotes',
  'routes',
  'success',
  'tabs',
  'validation',
]);

/** Texts only the server writes (e-mails and SMS, the in-site messages' templates): never shipped. */
const SERVER_ONLY: Readonly<Record<string, readonly string[] | true>> = { notify: true, messages: ['templates'] };

export function localeParts(catalogue: Catalogue): { first: Catalogue; rest: Catalogue } {
  const first: Catalogue = {};
  const rest: Catalogue = {};
  for (const [namespace, value] of Object.entries(catalogue)) {
    const dropped = SERVER_ONLY[namespace];
    if (dropped === true) continue;
    const kept = dropped && value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([key]) => !dropped.includes(key))) : value;
    (FIRST_SCREEN_NAMESPACES.has(namespace) ? first : rest)[namespace] = kept;
  }
  return { first, rest };
}
