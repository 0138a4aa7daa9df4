import type { PublicConfig } from '@tradewind/contract/config';
import type { Language } from '@tradewind/contract/languages';
import './chat-widget.css';

/**
 * The customer-service chat (spec §1): Chatwoot's website SDK, loaded from the server's
 * configuration and told the stored uid as the visitor's name on every navigation.
 * This module is its own chunk, imported only when a chat is configured.
 */
export type ChatSettings = NonNullable<PublicConfig['chat']>;

interface ChatwootApi {
  setUser(identifier: string, user: { name?: string }): void;
  setCustomAttributes(attributes: Record<string, string | number>): void;
  setLocale(locale: string): void;
}

declare global {
  interface Window {
    chatwootSettings?: { locale?: string; position?: 'left' | 'right' };
    chatwootSDK?: { run(options: { websiteToken: string; baseUrl: string }): void };
    $chatwoot?: ChatwootApi;
  }
}

/** Longest wait for an idle moment before the widget loads anyway. */
const IDLE_TIMEOUT_MS = 3000;

interface Visit {
  uid: string | null;
  language: Language;
}

let started = false;
let ready = false;
let latest: Visit | null = null;

function apply(): void {
  const api = window.$chatwoot;
  if (!ready || !api || !latest) return;
  // Chatwoot's locale names match ours (zh_CN, zh_TW, en, …).
  api.setLocale(latest.language);
  if (latest.uid) {
    api.setUser(latest.uid, { name: latest.uid });
    api.setCustomAttributes({ uid: latest.uid });
  }
}

function whenIdle(run: () => void): void {
  const start = () => {
    if ('requestIdleCallback' in window)
      window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(run, 0);
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

function load(settings: ChatSettings, language: Language): void {
  window.chatwootSettings = { ...window.chatwootSettings, locale: language, position: 'right' };
  window.addEventListener(
    'chatwoot:ready',
    () => {
      ready = true;
      apply();
    },
    { once: true },
  );
  const script = document.createElement('script');
  script.src = settings.scriptUrl;
  script.async = true;
  script.dataset.chat = 'widget';
  script.onload = () =>
    window.chatwootSDK?.run({ websiteToken: settings.siteToken, baseUrl: settings.baseUrl });
  document.head.appendChild(script);
}

/** Called on every navigation: loads the widget once (after the page is idle), then passes the stored uid. */
export function syncChat(settings: ChatSettings, visit: Visit): void {
  latest = visit;
  if (!started) {
    started = true;
    whenIdle(() => load(settings, visit.language));
    return;
  }
  apply();
}
