import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/platform/config.ts';

describe('configuration', () => {
  it('has working defaults: port 3000, PGlite under ./data, demo mode on', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.demoMode).toBe(true);
    expect(config.sessionTtlMs).toBe(30 * 86_400_000);
  });

  it('fails at boot with one readable line per bad value', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', DEMO_MODE: 'maybe' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      expect(message).toContain('PORT: must be a number (got "eighty")');
      expect(message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
      expect(message).toContain('DEMO_MODE: must be true or false');
    }
  });

  it('demo mode is on by default only on the embedded database: with DATABASE_URL it must be asked for', () => {
    const url = 'postgres://app@db.internal:5432/tradewind';
    expect(loadConfig({ DATABASE_URL: url }).demoMode).toBe(false);
    expect(loadConfig({ DATABASE_URL: url, DEMO_MODE: 'true' }).demoMode).toBe(true);
    expect(loadConfig({ DEMO_MODE: 'false' }).demoMode).toBe(false);
    const shown = (env: Record<string, string>) =>
      loadConfig(env).settings.find((setting) => setting.name === 'DEMO_MODE');
    expect(shown({ DATABASE_URL: url })).toMatchObject({ value: 'false', fromEnv: false });
    expect(shown({})).toMatchObject({ value: 'true', fromEnv: false });
  });

  it('REDIS_URL: unset keeps counters in the process; a redis URL is shown to operators without its password', () => {
    expect(loadConfig({}).redis).toBeUndefined();
    const config = loadConfig({ REDIS_URL: 'redis://:s3cret@cache.internal:6379/2' });
    expect(config.redis).toEqual({
      url: 'redis://:s3cret@cache.internal:6379/2',
      prefix: 'tradewind',
    });
    const shown = config.settings.find((setting) => setting.name === 'REDIS_URL');
    expect(shown?.value).toBe('redis://••••@cache.internal:6379');
    expect(() => loadConfig({ REDIS_URL: 'http://cache:6379' })).toThrow(
      /REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/,
    );
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'a b' })).toThrow(/REDIS_KEY_PREFIX/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(3000);
  });

  it('chat widget: off when unset, both CHAT_SCRIPT_URL and CHAT_SITE_TOKEN or neither, base URL defaults to the script origin', () => {
    expect(loadConfig({}).chat).toBeNull();
    expect(
      loadConfig({
        CHAT_SCRIPT_URL: 'https://chat.example.com/packs/js/sdk.js',
        CHAT_SITE_TOKEN: 'abc',
      }).chat,
    ).toEqual({
      scriptUrl: 'https://chat.example.com/packs/js/sdk.js',
      siteToken: 'abc',
      baseUrl: 'https://chat.example.com',
    });
    expect(
      loadConfig({
        CHAT_SCRIPT_URL: 'https://cdn.example.com/sdk.js',
        CHAT_SITE_TOKEN: 'abc',
        CHAT_BASE_URL: 'https://chat.example.com/',
      }).chat?.baseUrl,
    ).toBe('https://chat.example.com');
    expect(() =>
      loadConfig({ CHAT_SCRIPT_URL: 'https://chat.example.com/packs/js/sdk.js' }),
    ).toThrow(/set both/);
    expect(() => loadConfig({ CHAT_SITE_TOKEN: 'abc' })).toThrow(/set both/);
    expect(() =>
      loadConfig({ CHAT_SCRIPT_URL: 'javascript:alert(1)', CHAT_SITE_TOKEN: 'abc' }),
    ).toThrow(/CHAT_SCRIPT_URL/);
    expect(() =>
      loadConfig({ CHAT_SCRIPT_URL: 'https://chat.example.com/sdk.js', CHAT_SITE_TOKEN: 'a b"' }),
    ).toThrow(/CHAT_SITE_TOKEN/);
  });
});
