import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/platform/config.ts';
import { parseTrustProxy } from '../src/platform/trust-proxy.ts';
import { type TestApp, call, createTestApp, uniqueEmail } from './harness.ts';

/** The load balancer in front of the server, as the server's peer address. */
const PROXY = '10.0.0.1';

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('TRUST_PROXY takes a hop count or the proxies’ addresses', () => {
  it('true is refused at boot, with the forms to use instead', () => {
    for (const value of ['true', 'yes']) {
      const message = refusal({ TRUST_PROXY: value });
      expect(message).toContain('TRUST_PROXY');
      expect(message).toContain('number of proxies');
      expect(message).toContain('addresses/CIDRs');
    }
  });

  it('reads a hop count, addresses and CIDRs, and off', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'loopback,uniquelocal' }).trustProxy).toEqual([
      'loopback',
      'uniquelocal',
    ]);
    expect(parseTrustProxy('10.0.0.0/33')).toMatchObject({ ok: false });
    expect(refusal({ TRUST_PROXY: '10.0.0.1,lb.internal' })).toContain('"lb.internal"');
    expect(refusal({ TRUST_PROXY: '99' })).toContain('at most');
  });
});

describe('behind a trusted proxy, a client cannot choose the address it is counted under', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  /**
   * 12 wrong sign-ins from one client, each with an X-Forwarded-For it made up; the proxy
   * appends the address it saw, as proxies do. Returns each reply's status.
   */
  async function signIns(t: TestApp, client: string, count = 12): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const reply = await call(t.app, 'POST', '/api/v1/auth/login', {
        body: { channel: 'email', account: uniqueEmail(), password: 'wrong-pass' },
        ip: PROXY,
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}, ${client}` },
      });
      statuses.push(reply.status);
    }
    return statuses;
  }

  for (const trust of [PROXY, '10.0.0.0/8', '1']) {
    it(`TRUST_PROXY=${trust}: the 11th sign-in gets the 429, another client is still served`, async () => {
      const t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: trust } });
      apps.push(t);
      const statuses = await signIns(t, '198.51.100.7');
      // Sign-in allows 10 a minute per address: the made-up addresses changed nothing.
      expect(statuses.slice(0, 10).every((status) => status !== 429)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
      const other = await signIns(t, '198.51.100.8', 1);
      expect(other).not.toContain(429);
    });
  }

  it('with no proxy trusted, the peer itself is the client, whatever it writes', async () => {
    const t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'true' } });
    apps.push(t);
    const statuses = await signIns(t, '198.51.100.7');
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});
