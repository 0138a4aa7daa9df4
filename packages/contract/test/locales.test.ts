import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../src/languages.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every catalogue of the product: shared messages (and per domain), the web app's, each feature's. */
const CATALOGUE_DIRS = [
  'packages/contract/src/i18n',
  ...subdirs('packages/contract/src/i18n'),
  'apps/web/src/locales',
  ...subdirs('apps/web/src/features')
    .map((dir) => `${dir}/locales`)
    .filter((dir) => fs.existsSync(path.join(root, dir))),
];

function subdirs(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${dir}/${entry.name}`);
}

/**
 * Values allowed to equal the English one (names and words these languages share): product
 * and exchange names, coin names, currency-pair codes, "Gold", which German shares, "Type" and
 * "Conversion" (French), "Max" (the exchanges' own button in every language), "Volume" (French,
 * Italian) and "Name" (German). Chinese charts name moving averages "MA(7)" too.
 */
const SAME_AS_ENGLISH_OK =
  /^(Tradewind|UID|USDT|KYC|IEO|Demo|Mining|Launchpad|Wallet|Home|Password|Messages?|Points|Version \{\{version\}\}|Trading|Spot|Futures|Total|Type|Conversion|Max|Volume|Name|name@example\.com|Email|E-mail|Chat|Binance|Pyth|Bitcoin|Ethereum|BNB|Solana|XRP|Dogecoin|TRON|Litecoin|[A-Z]{3}\/[A-Z]{3}|Gold \(XAU\/USD\)|MA\(\{\{length\}\}\))$/i;

function flatten(node: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof node === 'string') out.set(prefix, node);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      for (const [k, v] of flatten(value, prefix ? `${prefix}.${key}` : key)) out.set(k, v);
    }
  }
  return out;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<(\w+)>/g)].map((m) => m[0]).sort();

describe.each(CATALOGUE_DIRS)('locales in %s', (dir) => {
  const load = (language: string) =>
    flatten(JSON.parse(fs.readFileSync(path.join(root, dir, `${language}.json`), 'utf8')));
  const english = load('en');

  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    '%s has the same keys as en, none empty, placeholders kept',
    (language) => {
      const catalogue = load(language);
      expect([...catalogue.keys()].sort()).toEqual([...english.keys()].sort());
      for (const [key, value] of catalogue) {
        expect(value.trim(), `${language} ${key}`).not.toBe('');
        expect(placeholders(value), `${language} ${key}`).toEqual(
          placeholders(english.get(key) ?? ''),
        );
      }
    },
  );

  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    '%s leaves no English sentence untranslated',
    (language) => {
      const catalogue = load(language);
      // A value with no word outside its placeholders ("{{min}} – {{max}}") has nothing to translate.
      const hasWords = (value: string) =>
        /\p{L}{2,}/u.test(value.replace(/\{\{\s*\w+\s*\}\}/g, ''));
      const untranslated = [...catalogue].filter(
        ([key, value]) =>
          value === english.get(key) && hasWords(value) && !SAME_AS_ENGLISH_OK.test(value),
      );
      expect(untranslated).toEqual([]);
    },
  );
});
