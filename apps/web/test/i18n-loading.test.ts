import { beforeAll, describe, expect, it, vi } from 'vitest';

// The build's two parts of a language (`localeBundles()` in vite.config.ts), here by hand.
vi.mock('virtual:tradewind-locale/en', () => ({ default: { auth: { login: 'Sign in' } } }));
vi.mock('virtual:tradewind-locale/en/rest', () => ({ default: { my: { sign_out: 'Sign out' } } }));
vi.mock('virtual:tradewind-locale/de', () => ({ default: { auth: { login: 'Anmelden' } } }));
vi.mock('virtual:tradewind-locale/de/rest', () => ({ default: { my: { sign_out: 'Abmelden' } } }));

const store = new Map<string, string>();
beforeAll(() => {
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  });
  vi.stubGlobal('document', { documentElement: { lang: '' } });
});

describe('loading the messages in two parts', () => {
  it('keeps the rest when a page asks for it before the first part has arrived (both share one catalogue)', async () => {
    const i18n = await import('@/lib/i18n.ts');
    // main.tsx: the page's preload asks for everything, then the app waits for the first part.
    const all = i18n.loadAllMessages();
    await i18n.initI18n();
    await all;
    expect(i18n.i18n.t('auth.login')).toBe('Sign in');
    expect(i18n.i18n.t('my.sign_out')).toBe('Sign out');
  });

  it('switches language with both parts of the new one', async () => {
    const i18n = await import('@/lib/i18n.ts');
    await i18n.changeLanguage('de');
    expect(i18n.i18n.t('auth.login')).toBe('Anmelden');
    expect(i18n.i18n.t('my.sign_out')).toBe('Abmelden');
    expect(store.get('lang')).toBe('de');
  });

  it('fetches the rest when a first screen asks for a namespace it does not have', async () => {
    vi.resetModules();
    const i18n = await import('@/lib/i18n.ts');
    await i18n.initI18n();
    expect(i18n.i18n.language).toBe('de');
    expect(i18n.i18n.t('auth.login')).toBe('Anmelden');
    expect(i18n.i18n.t('my.sign_out')).toBe('my.sign_out');
    await vi.waitFor(() => expect(i18n.i18n.t('my.sign_out')).toBe('Abmelden'));
  });
});
