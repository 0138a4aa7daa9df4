import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Language, DEFAULT_LANGUAGE, LANGUAGES } from '@tradewind/contract/languages';

type Catalogue = Record<string, unknown>;

/**
 * The shared messages: `packages/contract/src/i18n/<lang>.json` plus one file per domain,
 * `packages/contract/src/i18n/<domain>/<lang>.json`, merged (each domain owns its keys).
 */
const I18N_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../packages/contract/src/i18n',
);

function merge(target: Catalogue, source: Catalogue): Catalogue {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (value && typeof value === 'object' && existing && typeof existing === 'object')
      merge(existing as Catalogue, value as Catalogue);
    else target[key] = value;
  }
  return target;
}

function loadCatalogue(language: Language): Catalogue {
  const catalogue: Catalogue = JSON.parse(
    fs.readFileSync(path.join(I18N_DIR, `${language}.json`), 'utf8'),
  );
  for (const entry of fs.readdirSync(I18N_DIR, { withFileTypes: true })) {
    const file = path.join(I18N_DIR, entry.name, `${language}.json`);
    if (entry.isDirectory() && fs.existsSync(file))
      merge(catalogue, JSON.parse(fs.readFileSync(file, 'utf8')));
  }
  return catalogue;
}

const CATALOGUES = Object.fromEntries(
  LANGUAGES.map((language) => [language, loadCatalogue(language)]),
) as Record<Language, Catalogue>;

function lookup(catalogue: Catalogue, key: string): string | undefined {
  let node: unknown = catalogue;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * Templates by language and key, looked up once: a settlement batch renders thousands of
 * messages from a handful. Only keys of the catalogues are kept, so the map stays bounded.
 */
const TEMPLATES = new Map<string, string>();

function template(language: Language, key: string): string {
  const cacheKey = `${language}\u0000${key}`;
  const cached = TEMPLATES.get(cacheKey);
  if (cached !== undefined) return cached;
  const found = lookup(CATALOGUES[language], key) ?? lookup(CATALOGUES[DEFAULT_LANGUAGE], key);
  if (found === undefined) return key;
  TEMPLATES.set(cacheKey, found);
  return found;
}

export type Params = Record<string, string | number>;

/** Translates a shared message key (`errors.X`, `validation.x`, `ok`) with `{{name}}` parameters. */
export function translate(language: Language, key: string, params: Params = {}): string {
  return template(language, key).replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) =>
    name in params ? String(params[name]) : match,
  );
}

export function hasMessage(key: string): boolean {
  return lookup(CATALOGUES[DEFAULT_LANGUAGE], key) !== undefined;
}
