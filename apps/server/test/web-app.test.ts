import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from './harness.ts';

/** The server serves the built client on the same origin as the API. */
let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  t = await createTestApp({ env: { WEB_DIST: dist } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('web app hosting', () => {
  it.each(['/', '/Login', '/My', '/no/such/page'])('%s gets index.html, not cached', async (url) => {
    const reply = await t.app.inject({ method: 'GET', url });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toContain('<div id="root">');
    expect(reply.headers['cache-control']).toBe('no-cache');
  });

  it('hashed assets are cached for a year', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['cache-control']).toContain('immutable');
  });

  it('a missing asset and an unknown API path are 404s, not the page', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await t.app.inject({ method: 'GET', url: '/api/v1/missing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 404 });
  });
});
