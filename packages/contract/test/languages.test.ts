import { describe, expect, it } from 'vitest';
import { languageFromHeader, normalizeLanguage } from '../src/languages.ts';

describe('languages', () => {
  it('unknown stored lang falls back to en', () => {
    expect(normalizeLanguage('xx')).toBe('en');
    expect(normalizeLanguage(null)).toBe('en');
    expect(normalizeLanguage('zh_CN')).toBe('zh_CN');
  });

  it.each([
    [undefined, 'en'],
    ['zh_TW', 'zh_TW'],
    ['de-CH,de;q=0.9', 'de'],
    ['zh-HK', 'zh_TW'],
    ['zh-Hant-TW', 'zh_TW'],
    ['zh-CN,zh;q=0.9', 'zh_CN'],
    ['zh', 'zh_CN'],
    ['ja,fr;q=0.5', 'fr'],
    ['ja', 'en'],
    ['en;q=0.1,it;q=0.8', 'it'],
    ['es;q=0', 'en'],
    [',,;;q=abc', 'en'],
  ])('Accept-Language %s → %s', (header, expected) => {
    expect(languageFromHeader(header)).toBe(expected);
  });
});
