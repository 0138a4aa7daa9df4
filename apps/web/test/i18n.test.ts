import { describe, expect, it } from 'vitest';
import { type Catalogue, tagged, translateFrom } from '@/lib/i18n.ts';

/** The app's own translation function, on the real catalogues of two features. */
async function catalogue(language: string): Promise<Catalogue> {
  const loans = (await import(`@/features/loans/locales/${language}.json`)) as {
    default: Catalogue;
  };
  const auth = (await import(`@/locales/${language}.json`)) as { default: Catalogue };
  return { ...loans.default, ...auth.default };
}

describe('translations', () => {
  it('fills placeholders and picks the plural form of the language', async () => {
    const en = await catalogue('en');
    expect(translateFrom(en, 'en', 'loans.days', { count: 1 })).toBe('1 day');
    expect(translateFrom(en, 'en', 'loans.days', { count: 30 })).toBe('30 days');
    const zh = await catalogue('zh_CN');
    expect(translateFrom(zh, 'zh_CN', 'loans.days', { count: 1 })).toBe('1 天');
    const de = await catalogue('de');
    expect(translateFrom(de, 'de', 'loans.days', { count: 7 })).toMatch(/^7 /);
  });

  it('falls back to the "other" form for a plural form the messages lack (French "many")', async () => {
    const fr = await catalogue('fr');
    expect(new Intl.PluralRules('fr').select(1_000_000)).toBe('many');
    expect(translateFrom(fr, 'fr', 'loans.days', { count: 1_000_000 })).toBe('1000000 jours');
    expect(translateFrom(fr, 'fr', 'loans.days', { count: 2 })).toBe('2 jours');
  });

  it('shows a missing key as the key, or its default; a missing value as nothing; a string count is only shown', () => {
    const messages = {
      a: { b: 'Hello {{name}}, {{ who }}!', n_one: 'one', n_other: 'many', n: '{{count}} as text' },
    };
    expect(translateFrom(messages, 'en', 'a.missing')).toBe('a.missing');
    expect(translateFrom(messages, 'en', 'a.missing', { defaultValue: 'binance' })).toBe('binance');
    expect(translateFrom(messages, 'en', 'a.b', { name: 'Ada' })).toBe('Hello Ada, !');
    expect(translateFrom(messages, 'en', 'a.n', { count: 1 })).toBe('one');
    expect(translateFrom(messages, 'en', 'a.n', { count: '1,234' })).toBe('1,234 as text');
    expect(translateFrom(undefined, 'en', 'a.b')).toBe('a.b');
  });

  it('splits a line with links into text and tagged parts', async () => {
    const fr = await catalogue('fr');
    const line = translateFrom(fr, 'fr', 'auth.legal_line');
    expect(tagged(line)).toEqual([
      'En continuant, vous acceptez la ',
      { tag: 'privacy', text: 'Politique de confidentialité' },
      ' et les ',
      { tag: 'terms', text: 'Conditions d’utilisation' },
      '.',
    ]);
    expect(tagged('no tags')).toEqual(['no tags']);
  });
});
