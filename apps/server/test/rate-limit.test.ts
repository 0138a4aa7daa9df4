import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_TOKENS_PER_MINUTE } from '../src/platform/rate-limits.ts';
import {
  type TestApp,
  PASSWORD,
  call,
  createTestApp,
  registerUser,
  uniqueEmail,
} from './harness.ts';

/** A built web app's shape: a page, hashed assets, icons, the manifest, the service worker, the offline page. */
function fakeWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-rate-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.mkdirSync(path.join(dir, 'icons'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><title>Tradewind</title><div id="root"></div>',
  );
  for (let i = 0; i < 20; i++)
    fs.writeFileSync(path.join(dir, 'assets', `chunk-${i}-a1b2c3.js`), `export const n = ${i};`);
  fs.writeFileSync(path.join(dir, 'icons', 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  fs.writeFileSync(path.join(dir, 'manifest.webmanifest'), '{}');
  fs.writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  fs.writeFileSync(path.join(dir, 'offline.html'), '<!doctype html><title>Offline</title>');
  return dir;
}

let t: TestApp;
let webDist: string;
beforeAll(async () => {
  webDist = fakeWebDist();
  t = await createTestApp({
    env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '30', WEB_DIST: webDist },
  });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

const PAGE_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('rate limits', () => {
  it('code requests are limited per IP (5 a minute)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const reply = await call(t.app, 'POST', '/api/v1/auth/codes', {
        body: { channel: 'email', account: uniqueEmail(), purpose: 'register' },
        ip: '10.0.0.1',
      });
      statuses.push(reply.body.code);
    }
    expect(statuses).toEqual([0, 0, 0, 0, 0, 429]);
    const other = await call(t.app, 'POST', '/api/v1/auth/codes', {
      body: { channel: 'email', account: uniqueEmail(), purpose: 'register' },
      ip: '10.0.0.2',
    });
    expect(other.body.code).toBe(0);
  });

  it('sign-in attempts are limited per IP (10 a minute) with a localized envelope that names the wait', async () => {
    let last;
    for (let i = 0; i < 11; i++) {
      last = await call(t.app, 'POST', '/api/v1/auth/login', {
        body: { channel: 'email', account: uniqueEmail(), password: 'wrong-pass' },
        ip: '10.0.0.3',
        lang: 'es',
      });
    }
    expect(last?.status).toBe(429);
    expect(last?.body.code).toBe(429);
    const wait = Number(last?.response.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(last?.body.message).toBe(`Demasiadas solicitudes. Inténtalo de nuevo en ${wait} s.`);
  });

  it('anonymous API requests have a per-address limit', async () => {
    let last;
    for (let i = 0; i < 31; i++)
      last = await call(t.app, 'GET', '/api/v1/config', { ip: '10.0.0.4' });
    expect(last?.status).toBe(429);
    expect(last?.body.code).toBe(429);
    expect(Number(last?.response.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call(t.app, 'GET', '/api/v1/config', { ip: '10.0.0.5' })).body.code).toBe(0);
    // A load balancer's liveness probe from that address is never told to wait.
    expect((await call(t.app, 'GET', '/api/health', { ip: '10.0.0.4' })).status).toBe(200);
  });

  it('1,000 requests for static files from one address get no 429, and the API budget is untouched', async () => {
    const files = [
      ...Array.from({ length: 20 }, (_, i) => `/assets/chunk-${i}-a1b2c3.js`),
      '/icons/icon-192.png',
      '/manifest.webmanifest',
      '/sw.js',
      '/offline.html',
      '/',
    ];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      const url = files[i % files.length] as string;
      const reply = await t.app.inject({ method: 'GET', url, remoteAddress: '10.0.1.1' });
      statuses.set(reply.statusCode, (statuses.get(reply.statusCode) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1000 });
    // The static files took nothing from the address's API budget: all 30 API calls still pass.
    const codes = [];
    for (let i = 0; i < 30; i++)
      codes.push((await call(t.app, 'GET', '/api/v1/config', { ip: '10.0.1.1' })).body.code);
    expect(codes.every((code) => code === 0)).toBe(true);
  });

  it('a navigation is answered with the page, never with JSON, even when the address is over its API limit', async () => {
    for (let i = 0; i < 31; i++) await call(t.app, 'GET', '/api/v1/config', { ip: '10.0.2.1' });
    expect((await call(t.app, 'GET', '/api/v1/config', { ip: '10.0.2.1' })).status).toBe(429);
    for (const url of ['/', '/MiningDetail?id=7', '/Login', '/no-such-page.png']) {
      const reply = await t.app.inject({
        method: 'GET',
        url,
        remoteAddress: '10.0.2.1',
        headers: { accept: PAGE_ACCEPT },
      });
      expect(reply.statusCode, url).toBe(200);
      expect(reply.headers['content-type'], url).toMatch(/^text\/html/);
      expect(reply.body, url).toContain('<div id="root">');
    }
  });

  it('signed-in requests are limited per device, so a flood by one user does not limit another on the same address', async () => {
    const flooder = await registerUser(t.app);
    const neighbour = await registerUser(t.app);
    const ip = '10.0.3.1';
    const flood = [];
    for (let i = 0; i < 40; i++)
      flood.push(
        (await call(t.app, 'GET', '/api/v1/wallet/balances', { token: flooder.token, ip })).body
          .code,
      );
    expect(flood.slice(0, 30).every((code) => code === 0)).toBe(true);
    expect(flood.slice(30).every((code) => code === 429)).toBe(true);
    const neighbours = [];
    for (let i = 0; i < 30; i++)
      neighbours.push(
        (await call(t.app, 'GET', '/api/v1/wallet/balances', { token: neighbour.token, ip })).body
          .code,
      );
    expect(neighbours.every((code) => code === 0)).toBe(true);
    // Nor an anonymous visitor behind the same address.
    expect((await call(t.app, 'GET', '/api/v1/config', { ip })).body.code).toBe(0);
  });

  it("a signed-in route's own limit counts per user, not per address", async () => {
    const one = await registerUser(t.app);
    const two = await registerUser(t.app);
    const ip = '10.0.4.1';
    const body = {
      oldPassword: 'not-the-password-1',
      password: 'new-password-99',
      confirmPassword: 'new-password-99',
    };
    const first = [];
    for (let i = 0; i < 11; i++)
      first.push(
        (await call(t.app, 'POST', '/api/v1/auth/password/change', { token: one.token, ip, body }))
          .body.code,
      );
    expect(first.at(-1)).toBe(429);
    expect(first.slice(0, 10).includes(429)).toBe(false);
    const second = await call(t.app, 'POST', '/api/v1/auth/password/change', {
      token: two.token,
      ip,
      body: { ...body, oldPassword: PASSWORD },
    });
    expect(second.body.code).toBe(0);
  });

  it('made-up tokens are counted per address: they cannot buy a new budget each time', async () => {
    const ip = '10.0.5.1';
    const codes = [];
    for (let i = 0; i < UNKNOWN_TOKENS_PER_MINUTE + 5; i++) {
      codes.push(
        (
          await call(t.app, 'GET', '/api/v1/wallet/balances', {
            token: crypto.randomBytes(32).toString('base64url'),
            ip,
          })
        ).body.code,
      );
    }
    expect(codes.slice(0, UNKNOWN_TOKENS_PER_MINUTE).every((code) => code === 401)).toBe(true);
    expect(codes.slice(UNKNOWN_TOKENS_PER_MINUTE + 1).every((code) => code === 429)).toBe(true);
    // Another address is not affected.
    const user = await registerUser(t.app);
    expect(
      (await call(t.app, 'GET', '/api/v1/wallet/balances', { token: user.token, ip: '10.0.5.2' }))
        .body.code,
    ).toBe(0);
  });

  it('the dev outbox needs an address, lists only its codes, and is rate-limited', async () => {
    const ip = '10.0.6.1';
    const mine = uniqueEmail();
    const theirs = uniqueEmail();
    await call(t.app, 'POST', '/api/v1/auth/codes', {
      body: { channel: 'email', account: mine, purpose: 'register' },
      ip: '10.0.6.2',
    });
    await call(t.app, 'POST', '/api/v1/auth/codes', {
      body: { channel: 'email', account: theirs, purpose: 'register' },
      ip: '10.0.6.3',
    });
    const all = await call(t.app, 'GET', '/api/v1/dev/outbox', { ip });
    expect(all.status).toBe(422);
    expect(all.body.errors?.to).toBeDefined();
    const listed = await call<{ items: { to: string }[] }>(
      t.app,
      'GET',
      `/api/v1/dev/outbox?to=${encodeURIComponent(mine)}`,
      { ip },
    );
    expect(listed.body.data.items.map((item) => item.to)).toEqual([mine]);
    let last;
    for (let i = 0; i < 30; i++)
      last = await call(t.app, 'GET', `/api/v1/dev/outbox?to=${encodeURIComponent(mine)}`, { ip });
    expect(last?.body.code).toBe(429);
  });
});
