import { ERROR_CODES } from '@tradewind/contract/errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../src/platform/i18n.ts';
import { type TestApp, call, createTestApp, registerUser } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    beforeReady: (app) => {
      app.get('/api/test/explode', async () => {
        throw new Error('secret database detail: password=hunter2');
      });
    },
  });
});
afterAll(() => t.close());

describe('the envelope', () => {
  it('success is code 0 with data and a message', async () => {
    const reply = await call(t.app, 'GET', '/api/health');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      code: 0,
      message: 'Operation successful',
      data: { status: 'ok', role: 'all' },
    });
  });

  it('no token is 401', async () => {
    const reply = await call(t.app, 'GET', '/api/v1/user/profile');
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ code: 401, message: 'Please sign in.', data: null });
  });

  it('an unknown token is 401, a malformed header too', async () => {
    expect(
      (await call(t.app, 'GET', '/api/v1/user/profile', { token: 'A'.repeat(43) })).body.code,
    ).toBe(401);
    expect(
      (
        await call(t.app, 'GET', '/api/v1/user/profile', {
          headers: { authorization: 'Basic abc' },
        })
      ).body.code,
    ).toBe(401);
  });

  it('a revoked session is 411', async () => {
    const { token } = await registerUser(t.app);
    await t.database.db.execute(sql`update sessions set revoked_at = now()`);
    const reply = await call(t.app, 'GET', '/api/v1/user/profile', { token });
    expect(reply.body.code).toBe(411);
  });

  it('422 carries errors per field', async () => {
    const reply = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account: 'x@y', password: '' },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors).toEqual({
      password: ['This field is required.'],
      account: ['Invalid email format.'],
    });
  });

  it('a missing field says required; a wrong type says so', async () => {
    const reply = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', password: 5 },
    });
    expect(reply.body.errors?.account).toEqual(['This field is required.']);
    expect(reply.body.errors?.password).toEqual(['This value has the wrong type.']);
  });

  it('unknown fields are refused by name', async () => {
    const reply = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account: 'a@example.com', password: 'x', isAdmin: true },
    });
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.isAdmin).toEqual(['This field is not accepted.']);
  });

  it('malformed JSON is a clean 400', async () => {
    const reply = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: '{"channel": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      code: 400,
      message: translate('en', 'errors.BAD_REQUEST'),
      data: null,
    });
  });

  it('an unsupported content type is 415', async () => {
    const reply = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: '<xml/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(reply.status).toBe(415);
    expect(reply.body.code).toBe(415);
  });

  it('an oversized body is 413', async () => {
    const reply = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: JSON.stringify({
        channel: 'email',
        account: 'a@example.com',
        password: 'x'.repeat(2_000_000),
      }),
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(413);
    expect(reply.body.code).toBe(413);
  });

  it('an unknown API route is a 404 envelope', async () => {
    const reply = await call(t.app, 'GET', '/api/v1/nothing-here');
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe(404);
  });

  it('a server failure is 500 without its details', async () => {
    const reply = await call(t.app, 'GET', '/api/test/explode');
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({
      code: 500,
      message: translate('en', 'errors.INTERNAL'),
      data: null,
    });
    expect(reply.response.body).not.toContain('hunter2');
  });

  it('messages follow Accept-Language, in all seven languages', async () => {
    const seen = new Set<string>();
    for (const lang of ['en', 'zh_TW', 'zh_CN', 'es', 'fr', 'it', 'de']) {
      const reply = await call(t.app, 'GET', '/api/v1/user/profile', { lang });
      expect(reply.body.message).toBe(translate(lang as never, 'errors.UNAUTHORIZED'));
      seen.add(reply.body.message);
    }
    expect(seen.size).toBe(7);
    expect(
      (await call(t.app, 'GET', '/api/v1/user/profile', { lang: 'de-DE,de;q=0.9,en;q=0.5' })).body
        .message,
    ).toBe(translate('de', 'errors.UNAUTHORIZED'));
    expect(
      (await call(t.app, 'GET', '/api/v1/user/profile', { lang: 'zh-Hant' })).body.message,
    ).toBe(translate('zh_TW', 'errors.UNAUTHORIZED'));
  });

  it('validation messages are localized too', async () => {
    const reply = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account: 'bad', password: 'x' },
      lang: 'fr',
    });
    expect(reply.body.errors?.account).toEqual([translate('fr', 'validation.email_invalid')]);
    expect(translate('fr', 'validation.email_invalid')).not.toBe(
      translate('en', 'validation.email_invalid'),
    );
  });

  it('sends security headers', async () => {
    const reply = await call(t.app, 'GET', '/api/health');
    expect(reply.response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(reply.response.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.response.headers['strict-transport-security']).toBeDefined();
  });

  it('every error name has a message in every language', () => {
    for (const name of Object.keys(ERROR_CODES)) {
      for (const lang of ['en', 'zh_TW', 'zh_CN', 'es', 'fr', 'it', 'de'] as const) {
        expect(translate(lang, `errors.${name}`), `${lang} errors.${name}`).not.toBe(
          `errors.${name}`,
        );
      }
    }
  });
});

describe('public configuration and docs', () => {
  it('GET /api/v1/config gives the image host, languages and flags', async () => {
    const reply = await call<{
      imgBaseUrl: string;
      languages: string[];
      features: { devOutbox: boolean };
    }>(t.app, 'GET', '/api/v1/config');
    expect(reply.body.data.imgBaseUrl).toBe('/files');
    expect(reply.body.data.languages).toEqual(['en', 'zh_TW', 'zh_CN', 'es', 'fr', 'it', 'de']);
    expect(reply.body.data.features.devOutbox).toBe(true);
  });

  it('the OpenAPI document lists every route of the route table with its schemas', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/api/docs' });
    const doc = reply.json() as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const route of t.app.routeTable) {
      const operation = doc.paths[route.url]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.url}`).toBeDefined();
      if (route.body) expect(operation?.requestBody, `${route.url} body`).toBeDefined();
    }
  });
});

describe('demo mode', () => {
  it('the dev outbox does not exist outside demo mode', async () => {
    const prod = await createTestApp({ env: { DEMO_MODE: 'false' } });
    try {
      const reply = await call(prod.app, 'GET', '/api/v1/dev/outbox');
      expect(reply.status).toBe(404);
      const config = await call<{ demoMode: boolean; features: { emailSignIn: boolean } }>(
        prod.app,
        'GET',
        '/api/v1/config',
      );
      expect(config.body.data.demoMode).toBe(false);
      // No SMTP configured: email codes cannot be sent, and the client is told.
      expect(config.body.data.features.emailSignIn).toBe(false);
      const send = await call(prod.app, 'POST', '/api/v1/auth/codes', {
        body: { channel: 'email', account: 'a@example.com', purpose: 'register' },
      });
      expect(send.body.code).toBe(1008);
    } finally {
      await prod.close();
    }
  });
});
