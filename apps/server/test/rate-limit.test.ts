import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, call, createTestApp, uniqueEmail } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_PER_MINUTE: '30' } });
});
afterAll(() => t.close());

describe('rate limits', () => {
  it('code requests are limited per IP (5 a minute)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const reply = await call(t.app, 'POST', '/api/v1/auth/codes', { body: { channel: 'email', account: uniqueEmail(), purpose: 'register' }, ip: '10.0.0.1' });
      statuses.push(reply.body.code);
    }
    expect(statuses).toEqual([0, 0, 0, 0, 0, 429]);
    const other = await call(t.app, 'POST', '/api/v1/auth/codes', { body: { channel: 'email', account: uniqueEmail(), purpose: 'register' }, ip: '10.0.0.2' });
    expect(other.body.code).toBe(0);
  });

  it('sign-in attempts are limited per IP (10 a minute) with a localized envelope', async () => {
    let last;
    for (let i = 0; i < 11; i++) {
      last = await call(t.app, 'POST', '/api/v1/auth/login', { body: { channel: 'email', account: 'a@example.com', password: 'wrong-pass' }, ip: '10.0.0.3', lang: 'es' });
    }
    expect(last?.status).toBe(429);
    expect(last?.body.code).toBe(429);
    expect(last?.response.headers['retry-after']).toBeDefined();
  });

  it('every route has a global per-IP limit', async () => {
    let last;
    for (let i = 0; i < 31; i++) last = await call(t.app, 'GET', '/api/v1/config', { ip: '10.0.0.4' });
    expect(last?.body.code).toBe(429);
  });
});
