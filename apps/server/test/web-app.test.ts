import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from './harness.ts';

/** The server serves the built client on the same origin as the API. */
let t: TestApp;
let root: string;
let dist: string;
let adminDist: string;

/**
 * As apps/web's build bundles src/prerender.tsx into build-ssr/prerender.js: Home's public GETs
 * (one that does not exist) and a render that shows what it got. French fails.
 */
const FAKE_RENDERER = `
export const HOME_PUBLIC_REQUESTS = ['/api/v1/config', '/api/v1/news?kind=news', '/api/v1/no-such-list'];
let renders = 0;
export async function renderHome(language, replies, now) {
  if (language === 'fr') throw new Error('no French today');
  renders += 1;
  return {
    head: '<link rel="preload" as="image" href="/favicon.svg"/>',
    markup: '<p id="render">' + renders + ' ' + language + ' ' + Object.keys(replies).join(',') + '</p><p id="demo">' + replies['/api/v1/config'].demoMode + '</p>',
    queries: [{ url: '/api/v1/config', key: ['config'], data: { note: '</script><script>alert(1)</script>' }, updatedAt: now }],
  };
}
`;

beforeAll(async () => {
  adminDist = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-admin-dist-'));
  fs.mkdirSync(path.join(adminDist, 'assets'));
  fs.writeFileSync(path.join(adminDist, 'index.html'), '<!doctype html><div id="console"></div>');
  fs.writeFileSync(path.join(adminDist, 'assets', 'console-def456.js'), 'console.log(2)');
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-web-'));
  dist = path.join(root, 'dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  // As the build writes them: a script large enough to compress, with its .br and .gz beside it.
  const bigScript = Buffer.from(`console.log(${JSON.stringify('tradewind '.repeat(400))});`);
  fs.writeFileSync(path.join(dist, 'assets', 'big-ghi789.js'), bigScript);
  fs.writeFileSync(
    path.join(dist, 'assets', 'big-ghi789.js.br'),
    zlib.brotliCompressSync(bigScript),
  );
  fs.writeFileSync(path.join(dist, 'assets', 'big-ghi789.js.gz'), zlib.gzipSync(bigScript));
  fs.writeFileSync(path.join(dist, 'sw.js'), 'const BUILD_ID = "b1";');
  fs.writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"Tradewind"}');
  fs.writeFileSync(path.join(dist, 'offline.html'), '<!doctype html><h1>offline</h1>');
  // As apps/web/scripts/prerender.ts writes them: the sign-in page in each language.
  fs.mkdirSync(path.join(dist, 'prerendered'));
  for (const [lang, title] of [
    ['en', 'Welcome back'],
    ['de', 'Willkommen zurück'],
    ['zh_CN', '欢迎回来'],
  ]) {
    const html = `<!doctype html><div id="root" data-prerendered="${lang} /login"><h1>${title}</h1></div>`;
    fs.writeFileSync(path.join(dist, 'prerendered', `Login.${lang}.html`), html);
    fs.writeFileSync(
      path.join(dist, 'prerendered', `Login.${lang}.html.br`),
      zlib.brotliCompressSync(html),
    );
  }
  // And Home's templates, with the marks where the server puts its render.
  fs.mkdirSync(path.join(dist, 'at-request'));
  for (const lang of ['en', 'de', 'fr']) {
    const html = `<!doctype html><html lang="${lang}"><head><!--tw-head--></head><body><div id="root" data-prerendered="${lang} /"><!--tw-page--></div><!--tw-state--></body></html>`;
    fs.writeFileSync(path.join(dist, 'at-request', `Home.${lang}.html`), html);
  }
  fs.mkdirSync(path.join(root, 'build-ssr'));
  fs.writeFileSync(path.join(root, 'build-ssr', 'prerender.js'), FAKE_RENDERER);
  t = await createTestApp({ env: { WEB_DIST: dist, ADMIN_DIST: adminDist } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(adminDist, { recursive: true, force: true });
});

/** What a browser sends when it navigates (asks for a page). */
const NAVIGATION = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('web app hosting', () => {
  it.each(['/', '/Register', '/My', '/no/such/page', '/Login/more'])(
    '%s gets index.html, not cached',
    async (url) => {
      const reply = await t.app.inject({ method: 'GET', url, headers: NAVIGATION });
      expect(reply.statusCode).toBe(200);
      expect(reply.body).toContain('<div id="root">');
      expect(reply.headers['cache-control']).toBe('no-cache');
    },
  );

  it.each([
    ['/Login', undefined, 'en'],
    ['/login/', 'lang=de', 'de'],
    ['/LOGIN?next=/My', 'theme=dark; lang=zh_CN', 'zh_CN'],
    // Not a language the build prerendered (or not one at all): English.
    ['/Login', 'lang=xx', 'en'],
    ['/Login', 'lang=de%3Cscript', 'en'],
  ])('%s with cookie %s gets the sign-in page prerendered in %s', async (url, cookie, lang) => {
    const reply = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...NAVIGATION, ...(cookie ? { cookie } : {}) },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toContain('text/html');
    expect(reply.body).toContain(`data-prerendered="${lang} /login"`);
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(reply.headers.vary).toContain('Cookie');
  });

  it('/ with the signed_in cookie gets Home rendered in the cookie language with the public replies, and the replies in #tw-state', async () => {
    const reply = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { cookie: 'lang=de; signed_in=1' },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toContain('text/html');
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(reply.headers.vary).toContain('Cookie');
    // The two GETs that answered, asked in German; the unknown one left out.
    const demoMode = String(
      (await t.app.inject({ method: 'GET', url: '/api/v1/config' })).json().data.demoMode,
    );
    expect(reply.body).toMatch(
      new RegExp(
        `<div id="root" data-prerendered="de /"><p id="render">\\d+ de /api/v1/config,/api/v1/news\\?kind=news</p><p id="demo">${demoMode}</p></div>`,
      ),
    );
    expect(reply.body).toContain(
      '<head><link rel="preload" as="image" href="/favicon.svg"/></head>',
    );
    // The replies as JSON that no `<` in them can end or escape.
    const state =
      /<script type="application\/json" id="tw-state">(.*?)<\/script>/.exec(reply.body)?.[1] ?? '';
    expect(state).not.toContain('<');
    expect(JSON.parse(state)).toMatchObject({
      queries: [
        {
          url: '/api/v1/config',
          key: ['config'],
          data: { note: '</script><script>alert(1)</script>' },
        },
      ],
    });
    expect(JSON.parse(state).queries[0].updatedAt).toBeGreaterThan(Date.now() - 60_000);
  });

  it('one render of Home serves its language for a while; another language gets its own', async () => {
    const rendered = async (cookie: string) =>
      /<p id="render">(\d+) (\w+)/
        .exec((await t.app.inject({ method: 'GET', url: '/', headers: { cookie } })).body)
        ?.slice(1);
    const [first] = (await rendered('lang=en; signed_in=1')) ?? [];
    expect(await rendered('lang=en; signed_in=1')).toEqual([first, 'en']);
    // No template in Italian: the English one, with the page rendered in Italian.
    const italian = await rendered('signed_in=1; lang=it');
    expect(italian?.[1]).toBe('it');
    expect(Number(italian?.[0])).toBeGreaterThan(Number(first));
  });

  it('Home goes compressed as the browser accepts', async () => {
    const brotli = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { cookie: 'signed_in=1', 'accept-encoding': 'gzip, br' },
    });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toContain('<p id="render">');
    const gzip = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { cookie: 'signed_in=1', 'accept-encoding': 'br;q=0, gzip;q=1.0' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toContain('<p id="render">');
    const plain = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { cookie: 'signed_in=1', 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<p id="render">');
  });

  it.each([
    ['no signed_in cookie', 'lang=de'],
    ['another value', 'signed_in=0'],
    ['a render that fails', 'lang=fr; signed_in=1'],
  ])('/ with %s gets the plain index.html', async (_case, cookie) => {
    const reply = await t.app.inject({ method: 'GET', url: '/', headers: { cookie } });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toBe('<!doctype html><div id="root"></div>');
  });

  it('the prerendered page is sent as the build compressed it, when the browser accepts that', async () => {
    const brotli = await t.app.inject({
      method: 'GET',
      url: '/Login',
      headers: { ...NAVIGATION, cookie: 'lang=de', 'accept-encoding': 'gzip, br' },
    });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toContain('text/html');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toContain(
      '<h1>Willkommen zurück</h1>',
    );
    // No gzip copy here: the page itself.
    const plain = await t.app.inject({
      method: 'GET',
      url: '/Login',
      headers: { ...NAVIGATION, cookie: 'lang=de', 'accept-encoding': 'gzip' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<h1>Willkommen zurück</h1>');
  });

  it.each(['/admin', '/admin/', '/admin/login', '/admin/users/1001'])(
    '%s gets the operator console, not the client',
    async (url) => {
      const reply = await t.app.inject({ method: 'GET', url, headers: NAVIGATION });
      expect(reply.statusCode).toBe(200);
      expect(reply.body).toContain('<div id="console">');
      expect(reply.headers['cache-control']).toBe('no-cache');
    },
  );

  it("the console's hashed assets are cached for a year; a missing one is a 404", async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/admin/assets/console-def456.js' });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['cache-control']).toContain('immutable');
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/assets/missing.js' })).statusCode,
    ).toBe(404);
  });

  it('hashed assets are cached for a year', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['cache-control']).toContain('immutable');
  });

  it('a script is sent as the build precompressed it, in an encoding the browser accepts', async () => {
    const original = fs.readFileSync(path.join(dist, 'assets', 'big-ghi789.js'));
    const brotli = await t.app.inject({
      method: 'GET',
      url: '/assets/big-ghi789.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toContain('javascript');
    expect(brotli.headers['cache-control']).toContain('immutable');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).equals(original)).toBe(true);
    const gzip = await t.app.inject({
      method: 'GET',
      url: '/assets/big-ghi789.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).equals(original)).toBe(true);
    const plain = await t.app.inject({
      method: 'GET',
      url: '/assets/big-ghi789.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(original)).toBe(true);
  });

  it.each(['/metrics', '/healthz', '/readyz', '/no/such/page', '/admin/healthz'])(
    '%s asked for by a probe or a script (no text/html in Accept) is a 404 envelope, not the page',
    async (url) => {
      for (const headers of [{}, { accept: '*/*' }, { accept: 'application/json' }]) {
        const reply = await t.app.inject({ method: 'GET', url, headers });
        expect(reply.statusCode).toBe(404);
        expect(reply.json()).toMatchObject({ code: 404, data: null });
        expect(reply.body).not.toContain('<div id=');
      }
    },
  );

  it('a missing asset and an unknown API path are 404s, not the page', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await t.app.inject({ method: 'GET', url: '/api/v1/missing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 404 });
  });

  it('the service worker is revalidated on every check, is JavaScript, and may control the whole app', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/sw.js' });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toContain('BUILD_ID');
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(reply.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(reply.headers['service-worker-allowed']).toBe('/');
  });

  it('the manifest is served as a web app manifest, not cached for long', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(reply.headers['cache-control']).toBe('no-cache');
    const offline = await t.app.inject({ method: 'GET', url: '/offline.html' });
    expect(offline.body).toContain('offline');
    expect(offline.headers['cache-control']).toBe('no-cache');
  });

  it('the page may register a same-origin worker and manifest, and nothing outside without a chat', async () => {
    const csp = String(
      (await t.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy'],
    );
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-src 'self';");
  });
});

describe("Home's render under the rate limit", () => {
  it("its own GETs are not counted against the server's address; a visitor's are, whatever they send", async () => {
    const limited = await createTestApp({
      env: { WEB_DIST: dist, RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '4' },
    });
    try {
      // Three languages, three GETs each: more than the limit of 4 from one address, yet all answered.
      for (const lang of ['en', 'de', 'it']) {
        const reply = await limited.app.inject({
          method: 'GET',
          url: '/',
          headers: { cookie: `lang=${lang}; signed_in=1` },
        });
        expect(reply.body).toMatch(
          new RegExp(`<p id="render">\\d+ ${lang} /api/v1/config,/api/v1/news\\?kind=news</p>`),
        );
      }
      const visitor = async () =>
        (
          await limited.app.inject({
            method: 'GET',
            url: '/api/v1/config',
            headers: { 'x-tradewind-render': 'guess' },
          })
        ).statusCode;
      // Neither the pages nor the nine GETs made for them count: the visitor's own 4 do.
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push(await visitor());
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('customer-service chat configuration', () => {
  it('is off when unset: the client gets chat null', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(reply.json().data.chat).toBeNull();
  });

  it('when set, the client gets the script, token and base URL, and the page may load exactly that origin', async () => {
    const chat = await createTestApp({
      env: {
        WEB_DIST: dist,
        CHAT_SCRIPT_URL: 'https://chat.example.com/packs/js/sdk.js',
        CHAT_SITE_TOKEN: 'tok_123',
      },
    });
    try {
      const reply = await chat.app.inject({ method: 'GET', url: '/api/v1/config' });
      expect(reply.json().data.chat).toEqual({
        scriptUrl: 'https://chat.example.com/packs/js/sdk.js',
        siteToken: 'tok_123',
        baseUrl: 'https://chat.example.com',
      });
      const csp = String(
        (await chat.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy'],
      );
      expect(csp).toContain("script-src 'self' https://chat.example.com;");
      expect(csp).toContain("frame-src 'self' https://chat.example.com;");
      expect(csp).toContain("connect-src 'self' https://chat.example.com;");
    } finally {
      await chat.close();
    }
  });
});
