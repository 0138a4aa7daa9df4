import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The first screens, the pages the app opens on (`/Login` signed out, `/` signed in), and what
 * the build does for them. Not part of the app: the build (vite.config.ts) and its tests import it.
 *
 * Their code goes into a few files of its own (`firstScreenChunks()` in vite.config.ts), and
 * each language's messages are split (`localeBundles()`): the namespaces the first screens
 * translate with (with the shell and tab bar around them) download with the app; the rest with
 * the first page that needs them (`page()` in app/router.tsx), or at once if a first screen asks
 * for a key it does not have (lib/i18n.ts). A test walks the first screens' imports and fails if
 * one uses a namespace not listed here.
 */

/** Each first screen's page modules, from apps/web (the router marks the same routes `firstScreen`). */
export const FIRST_SCREEN_PAGES = {
  home: ['src/features/home/home-page.tsx', 'src/app/tab-layout.tsx'],
  login: ['src/features/auth/pages/login-page.tsx'],
} as const;

export type Catalogue = Record<string, unknown>;

const web = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The translation files of one language, in the order they are merged (a later file wins on a clash). */
export function localeFiles(language: string): string[] {
  const contract = path.join(web, '../../packages/contract/src/i18n');
  const features = path.join(web, 'src/features');
  const files = [
    path.join(contract, `${language}.json`),
    ...fs
      .readdirSync(contract, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(contract, e.name, `${language}.json`)),
    path.join(web, 'src/locales', `${language}.json`),
    ...fs
      .readdirSync(features)
      .map((name) => path.join(features, name, 'locales', `${language}.json`)),
  ];
  return files
    .filter((file) => fs.existsSync(file))
    .sort((a, b) =>
      path
        .relative(path.join(web, 'src/lib'), a)
        .localeCompare(path.relative(path.join(web, 'src/lib'), b)),
    );
}

export function mergeInto(target: Catalogue, source: Catalogue): Catalogue {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (value && typeof value === 'object' && existing && typeof existing === 'object')
      mergeInto(existing as Catalogue, value as Catalogue);
    else target[key] = value;
  }
  return target;
}

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
const SERVER_ONLY: Readonly<Record<string, readonly string[] | true>> = {
  notify: true,
  messages: ['templates'],
};

export function localeParts(catalogue: Catalogue): { first: Catalogue; rest: Catalogue } {
  const first: Catalogue = {};
  const rest: Catalogue = {};
  for (const [namespace, value] of Object.entries(catalogue)) {
    const dropped = SERVER_ONLY[namespace];
    if (dropped === true) continue;
    const kept =
      dropped && value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).filter(([key]) => !dropped.includes(key)))
        : value;
    (FIRST_SCREEN_NAMESPACES.has(namespace) ? first : rest)[namespace] = kept;
  }
  return { first, rest };
}
