import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, registerUser } from './harness.ts';

/**
 * Sends malformed requests to every route in the route table, so routes added later
 * are covered without touching this file: no reply may be a 5xx, and every reply is an
 * envelope.
 */

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await registerUser(t.app)).token;
});
afterAll(() => t.close());

const RAW_BODIES: { payload: string; contentType: string }[] = [
  { payload: '', contentType: 'application/json' },
  { payload: '{', contentType: 'application/json' },
  { payload: 'null', contentType: 'application/json' },
  { payload: '[]', contentType: 'application/json' },
  { payload: '"text"', contentType: 'application/json' },
  { payload: '12345678901234567890123456789', contentType: 'application/json' },
  { payload: '{"__proto__": {"admin": true}}', contentType: 'application/json' },
  { payload: '{"constructor": {"prototype": {"x": 1}}}', contentType: 'application/json' },
  { payload: `{"a": "${'\u0000\uffff'.repeat(10)}"}`, contentType: 'application/json' },
  { payload: `{"x": ${'['.repeat(500)}${']'.repeat(500)}}`, contentType: 'application/json' },
  { payload: 'plain text', contentType: 'text/plain' },
  { payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
  { payload: '\u00ff\u00fe\u0000', contentType: 'application/octet-stream' },
];

/** Values of the wrong shape for any field: other types, boundaries, huge and odd strings. */
const hostileValue = fc.oneof(
  fc.constantFrom(
    null,
    true,
    -1,
    0,
    1e308,
    -0.000001,
    Number.MAX_SAFE_INTEGER,
    '',
    ' ',
    '-1',
    '1e999',
    '0.0000000001',
    'NaN',
    '🙂'.repeat(300),
    'x'.repeat(10_000),
    "'; drop table users; --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
  ),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }),
);

function fieldNames(schema: unknown): string[] {
  const shape = (
    schema as { shape?: Record<string, unknown>; def?: { shape?: Record<string, unknown> } }
  )?.shape;
  return shape ? Object.keys(shape) : [];
}

function assertEnvelope(
  status: number,
  body: string,
  label: string,
  response?: { headers: Record<string, unknown> },
  produces?: string,
) {
  expect(status, label).toBeLessThan(500);
  // A file route (an export) answers its file on success; every refusal is still an envelope.
  if (produces && status === 200) {
    expect(String(response?.headers['content-type']), label).toBe(produces);
    return;
  }
  const parsed = JSON.parse(body) as { code: unknown; message: unknown };
  expect(typeof parsed.code, label).toBe('number');
  expect(typeof parsed.message, label).toBe('string');
}

describe('bad input on every route', () => {
  it('the route table is not empty', () => {
    expect(t.app.routeTable.length).toBeGreaterThan(5);
  });

  it('malformed bodies never produce a 5xx, signed in or not', async () => {
    for (const route of t.app.routeTable) {
      for (const auth of [undefined, token]) {
        for (const body of RAW_BODIES) {
          const response = await t.app.inject({
            method: route.method,
            url: route.url,
            headers: {
              'content-type': body.contentType,
              ...(auth ? { authorization: `Bearer ${auth}` } : {}),
            },
            payload: route.method === 'POST' ? body.payload : undefined,
          });
          assertEnvelope(
            response.statusCode,
            response.body,
            `${route.method} ${route.url} ${body.payload.slice(0, 20)}`,
            response,
            route.produces,
          );
        }
      }
    }
  });

  it('a NUL character anywhere in the input is a field error, not a 500 (PostgreSQL text cannot hold one)', async () => {
    const nul = 'a\u0000b@example.com';
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { channel: 'email', account: nul, password: 'x' },
    });
    expect(login.statusCode).toBe(422);
    expect(login.json().errors).toHaveProperty('account');
    const codes = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/codes',
      payload: { channel: 'email', account: nul, purpose: 'register' },
    });
    expect(codes.statusCode).toBe(422);
    const outbox = await t.app.inject({
      method: 'GET',
      url: `/api/v1/dev/outbox?to=${encodeURIComponent(nul)}`,
    });
    expect(outbox.statusCode).toBe(422);
    expect(outbox.json().errors).toHaveProperty('to');
    // In a key too, and deep in a nested object.
    const nested = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: {
        channel: 'email',
        account: 'a@example.com',
        password: 'x',
        deep: { 'k\u0000': 1 },
      },
    });
    expect(nested.statusCode).toBe(422);
    expect(nested.json().errors).toHaveProperty(['deep.k\u0000']);
  });

  it('generated field values never produce a 5xx (seeded, replayable)', async () => {
    for (const route of t.app.routeTable) {
      const fields = [...fieldNames(route.body), ...fieldNames(route.query), 'unexpected'];
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(fc.constantFrom(...fields), hostileValue, { maxKeys: fields.length }),
          async (values) => {
            const isGet = route.method === 'GET';
            const query = isGet
              ? `?${new URLSearchParams(Object.entries(values).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]))}`
              : '';
            const response = await t.app.inject({
              method: route.method,
              url: `${route.url}${query}`,
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              payload: isGet ? undefined : JSON.stringify(values),
            });
            assertEnvelope(
              response.statusCode,
              response.body,
              `${route.method} ${route.url} ${JSON.stringify(values).slice(0, 200)}`,
              response,
              route.produces,
            );
          },
        ),
        { numRuns: 40, seed: 20261121 },
      );
    }
    // 40 requests per route, and issue 7 adds many operator routes (each now authenticated before validation).
  }, 120_000);
});
