import de from '@tradewind/contract/i18n/de.json' with { type: 'json' };
import en from '@tradewind/contract/i18n/en.json' with { type: 'json' };
import es from '@tradewind/contract/i18n/es.json' with { type: 'json' };
import fr from '@tradewind/contract/i18n/fr.json' with { type: 'json' };
import it from '@tradewind/contract/i18n/it.json' with { type: 'json' };
import zhCN from '@tradewind/contract/i18n/zh_CN.json' with { type: 'json' };
import zhTW from '@tradewind/contract/i18n/zh_TW.json' with { type: 'json' };
import { type Language, DEFAULT_LANGUAGE } from '@tradewind/contract/languages';

type Catalogue = Record<string, unknown>;

const CATALOGUES: Record<Language, Catalogue> = { en, zh_TW: zhTW, zh_CN: zhCN, es, fr, it, de };

function lookup(catalogue: Catalogue, key: string): string | undefined {
  let node: unknown = catalogue;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export type Params = Record<string, string | number>;

/** Translates a shared message key (`errors.X`, `validation.x`, `ok`) with `{{name}}` parameters. */
export function translate(language: Language, key: string, params: Params = {}): string {
  const template = lookup(CATALOGUES[language], key) ?? lookup(CATALOGUES[DEFAULT_LANGUAGE], key) ?? key;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

export function hasMessage(key: string): boolean {
  return lookup(CATALOGUES[DEFAULT_LANGUAGE], key) !== undefined;
}
