/** The seven interface languages of spec §1, in the order the language screen lists them. */
export const LANGUAGES = ['en', 'zh_TW', 'zh_CN', 'es', 'fr', 'it', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language's own name, shown on the language screen whatever the current language is. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  zh_TW: '繁體中文',
  zh_CN: '简体中文',
  es: 'Español',
  fr: 'Français',
  it: 'Italiano',
  de: 'Deutsch',
};

/**
 * The cookie in which the web app mirrors its stored language (spec §3 keeps it in local
 * storage), so that the server can send the sign-in page prerendered in it.
 */
export const LANGUAGE_COOKIE = 'lang';

/**
 * The cookie in which the web app notes that it holds a session (the token itself stays in local
 * storage, spec §3): with it, the server sends `/` rendered with its public parts; without it,
 * the plain page, which sends a visitor without a session to the sign-in page. Only a hint: a
 * stale one costs a glimpse of Home's frame before that redirect.
 */
export const SIGNED_IN_COOKIE = 'signed_in';

/** BCP 47 tags, for Intl formatting and the html lang attribute. */
export const LANGUAGE_TAGS: Record<Language, string> = {
  en: 'en',
  zh_TW: 'zh-TW',
  zh_CN: 'zh-CN',
  es: 'es',
  fr: 'fr',
  it: 'it',
  de: 'de',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** An unknown stored value falls back to en (spec §1). */
export function normalizeLanguage(value: unknown): Language {
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}

/**
 * Picks our language from an Accept-Language header: exact codes first (en, zh_TW),
 * then BCP 47 tags by quality (zh-Hant / zh-TW / zh-HK → zh_TW, zh / zh-CN / zh-Hans → zh_CN).
 */
export function languageFromHeader(header: string | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  if (isLanguage(header.trim())) return header.trim() as Language;
  const ranked = header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number.parseFloat(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    const language = languageFromTag(tag);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}

function languageFromTag(tag: string): Language | undefined {
  if (isLanguage(tag)) return tag;
  const lower = tag.toLowerCase().replace(/_/g, '-');
  if (lower.startsWith('zh')) {
    return /-(tw|hk|mo|hant)\b/.test(lower) ? 'zh_TW' : 'zh_CN';
  }
  const primary = lower.split('-')[0];
  return isLanguage(primary) ? primary : undefined;
}
