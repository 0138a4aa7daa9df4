import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Exchange terms in buttons and titles, as Binance's and OKX's localized apps word them (issue 32). */

const src = fileURLToPath(new URL('../src', import.meta.url));

type Tree = { [key: string]: string | Tree };

function flat(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[prefix + key, value]] : flat(value, `${prefix}${key}.`),
  );
}

/** Every key → text of one language across the app's and the features' catalogues. */
function catalogue(language: string): Map<string, string> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name === `${language}.json` && dir.endsWith('locales')) files.push(path);
    }
  };
  walk(src);
  return new Map(files.flatMap((file) => flat(JSON.parse(readFileSync(file, 'utf8')) as Tree)));
}

describe('exchange terms in buttons and titles', () => {
  const de = catalogue('de');
  const fr = catalogue('fr');
  const it_ = catalogue('it');

  it('German "Verify" is Bestätigen or Verifizieren, never Prüfen', () => {
    expect(de.get('auth.two_factor_verify')).toBe('Bestätigen und anmelden');
    expect(de.get('withdrawal.verify_now')).toBe('Verifizieren');
    // No short label (a button, a title) says Prüfen for an action the user takes.
    const labels = [...de].filter(([, text]) => text.split(' ').length <= 4);
    expect(labels.filter(([, text]) => /^Prüfen\b|\bprüfen und\b/i.test(text))).toEqual([]);
  });

  it('German Transfer is Übertragen wherever it is a button, tab or title', () => {
    expect(de.get('routes.Transform')).toBe('Übertragen');
    expect(de.get('transform.tab_transfer')).toBe('Übertragen');
    expect(de.get('transform.confirm_transfer')).toBe('Übertragung bestätigen');
  });

  it('French Convert is Convertir and the futures tab says Futures; Italian Max is Max', () => {
    expect(fr.get('transform.tab_convert')).toBe('Convertir');
    expect(fr.get('wallet.futures')).toBe('Futures');
    expect(it_.get('withdrawal.max')).toBe('Max');
  });
});
