import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, isNotFound } from '@tradewind/http-client/api-error';
import {
  EARLY_TTL_MS,
  RATE_LIMIT_RETRY_MAX_S,
  REQUEST_TIMEOUT_MS,
} from '@tradewind/http-client/envelope-client';
import { retryAfterS } from '@tradewind/http-client/retry-after';
import { createClient, rateLimitedText, type KeyValueStorage } from '@/api/client.ts';
import { translateFrom } from '@/lib/i18n.ts';
import { ERROR_CODES } from '@tradewind/contract/errors';

/** A real local server that answers the way the API can: envelopes, files, slowness, silence. */
let server: http.Server;
let baseUrl: string;
const hits = new Map<string, number>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const json = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(payload));
      };
      switch (url.pathname) {
        case '/echo':
          return json(200, {
            code: 0,
            message: 'ok',
            data: {
              search: url.search,
              lang: req.headers['accept-language'] ?? null,
              auth: req.headers.authorization ?? null,
              body: body || null,
            },
          });
        case '/slow':
          return setTimeout(
            () => json(200, { code: 0, message: 'ok', data: { n: hits.get('/slow') } }),
            150,
          );
        case '/422':
          return json(200, {
            code: 422,
            message: 'Check fields',
            data: null,
            errors: { email: ['Invalid email format.'] },
          });
        case '/422-http':
          return json(422, {
            code: 422,
            message: 'Check fields',
            data: null,
            errors: { password: ['Too short'] },
          });
        case '/401':
          return json(401, { code: 401, message: 'Please sign in.', data: null });
        case '/411':
          return json(401, { code: 411, message: 'Session ended', data: null });
        case '/business':
          return json(400, { code: 1001, message: 'Incorrect account or password.', data: null });
        case '/xlsx':
          res.writeHead(200, {
            'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          });
          return res.end(Buffer.from('PK\u0003\u0004sheet'));
        case '/jpeg':
          res.writeHead(200, { 'content-type': 'image/jpeg' });
          return res.end(Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
        case '/html-error':
          res.writeHead(502, { 'content-type': 'text/html' });
          return res.end('<h1>Bad gateway</h1>');
        case '/hang':
          return undefined;
        default:
          return json(404, { code: 404, message: 'Not found.', data: null });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function memoryStorage(
  initial: Record<string, string> = {},
): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

let toasts: string[];
let sessionEnds: number;
beforeEach(() => {
  toasts = [];
  sessionEnds = 0;
  hits.clear();
});

const rateLimitedMessage = (waitS: number | undefined) =>
  waitS === undefined ? 'Too many requests.' : `Too many requests. Try again in ${waitS} s.`;

function client(storage = memoryStorage(), timeoutMs?: number, url = baseUrl) {
  return createClient({
    baseUrl: url,
    storage,
    onSessionEnd: () => (sessionEnds += 1),
    toast: (message) => toasts.push(message),
    networkErrorMessage: () => 'Network error',
    rateLimitedMessage,
    ...(timeoutMs ? { timeoutMs } : {}),
  });
}

const echoSchema = z.object({
  search: z.string(),
  lang: z.string().nullable(),
  auth: z.string().nullable(),
  body: z.string().nullable(),
});

describe('HTTP client (spec §7–8)', () => {
  it('the timeout is 60000 ms', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(60_000);
  });

  it('code 0 resolves to the data, parsed by the schema', async () => {
    const data = await client().get('/echo', { schema: echoSchema });
    expect(data.search).toBe('');
  });

  it('sends Accept-Language from the stored lang (default en) and the bearer token when stored', async () => {
    expect(await client().get('/echo', { schema: echoSchema })).toMatchObject({
      lang: 'en',
      auth: null,
    });
    const storage = memoryStorage({ lang: 'de', token: 'abc' });
    expect(await client(storage).get('/echo', { schema: echoSchema })).toMatchObject({
      lang: 'de',
      auth: 'Bearer abc',
    });
  });

  it('unknown stored lang falls back to en in the Accept-Language header too', async () => {
    for (const stored of ['xx', 'de-DE', 'zh-CN', ' en', 'EN', '']) {
      const storage = memoryStorage({ lang: stored });
      expect(await client(storage).get('/echo', { schema: echoSchema })).toMatchObject({
        lang: 'en',
      });
    }
    const storage = memoryStorage({ lang: 'zh_TW' });
    expect(await client(storage).get('/echo', { schema: echoSchema })).toMatchObject({
      lang: 'zh_TW',
    });
  });

  it('serialises arrays as repeated keys, not indexed ones', async () => {
    const data = await client().get('/echo', {
      params: { type: ['deposit', 'withdraw'], page: 2, skip: undefined },
      schema: echoSchema,
    });
    expect(data.search).toBe('?type=deposit&type=withdraw&page=2');
  });

  it('identical in-flight requests share one pending result', async () => {
    const c = client();
    const [a, b] = await Promise.all([
      c.get('/slow', { params: { x: 1 } }),
      c.get('/slow', { params: { x: 1 } }),
    ]);
    expect(hits.get('/slow')).toBe(1);
    expect(a).toBe(b);
    await Promise.all([c.get('/slow', { params: { x: 1 } }), c.get('/slow', { params: { x: 2 } })]);
    expect(hits.get('/slow')).toBe(3);
    await Promise.all([
      c.post('/slow', { a: 1 }),
      c.post('/slow', { a: 1 }),
      c.post('/slow', { a: 2 }),
    ]);
    expect(hits.get('/slow')).toBe(5);
    expect(c.pending()).toBe(0);
  });

  it('422, in a 200 or an error reply, rejects with the errors for the form and no toast', async () => {
    const storage = memoryStorage({ token: 't' });
    const first = await client(storage)
      .get('/422')
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ApiError);
    expect((first as ApiError).errors).toEqual({ email: ['Invalid email format.'] });
    const second = await client(storage)
      .post('/422-http', {})
      .catch((e: unknown) => e);
    expect((second as ApiError).errors).toEqual({ password: ['Too short'] });
    expect(toasts).toEqual([]);
    expect(storage.data.get('token')).toBe('t');
  });

  it.each(['/401', '/411'])(
    '%s clears the token and goes to /Login without a message',
    async (path) => {
      const storage = memoryStorage({ token: 't', uid: '10000001' });
      const error = await client(storage)
        .get(path)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(storage.data.has('token')).toBe(false);
      expect(sessionEnds).toBe(1);
      expect(toasts).toEqual([]);
    },
  );

  it('another failure with a message toasts it and rejects', async () => {
    const error = await client()
      .post('/business', { x: 1 })
      .catch((e: unknown) => e);
    expect((error as ApiError).code).toBe(1001);
    expect(toasts).toEqual(['Incorrect account or password.']);
  });

  it('a non-envelope error reply shows the network error', async () => {
    const error = await client()
      .get('/html-error')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(toasts).toEqual(['Network error']);
  });

  it('spreadsheets pass through as files; a jpeg becomes an object URL', async () => {
    const sheet = await client().get('/xlsx');
    expect(sheet).toBeInstanceOf(Blob);
    expect(await (sheet as Blob).text()).toContain('sheet');
    const image = await client().get('/jpeg');
    expect(String(image)).toMatch(/^blob:/);
  });

  it('a timeout rejects with the library error and a network-error toast', async () => {
    const error = await client(memoryStorage(), 200)
      .get('/hang')
      .catch((e: unknown) => e);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect(toasts).toEqual(['Network error']);
  });

  it('a network failure rejects with the library error and a network-error toast', async () => {
    const error = await client(memoryStorage(), undefined, 'http://127.0.0.1:1')
      .get('/echo')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(toasts).toEqual(['Network error']);
  });

  it('a cancelled request is not reported, and others sharing it still get the result', async () => {
    const c = client();
    const controller = new AbortController();
    const cancelled = c.get('/slow', { signal: controller.signal }).catch((e: unknown) => e);
    const kept = c.get('/slow');
    controller.abort();
    expect(((await cancelled) as DOMException).name).toBe('AbortError');
    expect(await kept).toEqual({ n: 1 });
    expect(toasts).toEqual([]);
  });

  it('an early GET is taken by the first request for the same URL, token and language, once', async () => {
    const storage = memoryStorage({ lang: 'de', token: 'abc' });
    const c = client(storage);
    c.early(['/slow?x=1', '/echo?a=1']);
    expect(await c.get('/slow', { params: { x: 1 } })).toEqual({ n: 1 });
    expect(await c.get('/echo', { params: { a: 1 }, schema: echoSchema })).toMatchObject({
      search: '?a=1',
      lang: 'de',
      auth: 'Bearer abc',
    });
    expect(hits.get('/slow')).toBe(1);
    expect(hits.get('/echo')).toBe(1);
    // Taken once: the next request for it goes out.
    expect(await c.get('/slow', { params: { x: 1 } })).toEqual({ n: 2 });
    expect(hits.get('/slow')).toBe(2);
  });

  it('an early GET sent with another token or language is not taken, and one nobody takes is dropped', async () => {
    const storage = memoryStorage({ token: 'abc' });
    const unused: string[] = [];
    const c = createClient({
      baseUrl,
      storage,
      onSessionEnd: () => undefined,
      toast: (message) => toasts.push(message),
      networkErrorMessage: () => 'Network error',
      rateLimitedMessage,
      onUnusedEarly: (url) => unused.push(url),
    });
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      c.early(['/echo', '/slow']);
      storage.setItem('token', 'other');
      expect(await c.get('/echo', { schema: echoSchema })).toMatchObject({ auth: 'Bearer other' });
      expect(hits.get('/echo')).toBe(2);
      expect(unused).toEqual([]);
      vi.advanceTimersByTime(EARLY_TTL_MS);
      expect(unused).toEqual(['/echo', '/slow']);
    } finally {
      vi.useRealTimers();
    }
    // Dropped: a later request sends its own.
    storage.setItem('token', 'abc');
    await c.get('/slow');
    expect(hits.get('/slow')).toBe(2);
  });
});

/** A fetch that answers each call with the next of `replies` (the last one repeats), and the calls it got. */
function scriptedFetch(replies: { status: number; body: unknown; retryAfter?: string }[]) {
  const calls: { method: string; url: string }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const reply = replies[Math.min(calls.length, replies.length - 1)] as (typeof replies)[number];
    calls.push({ method: init?.method ?? 'GET', url: String(input) });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter;
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

const limited = (retryAfter?: string) => ({
  status: 429,
  body: { code: 429, message: 'Too many requests, please try again later.', data: null },
  retryAfter,
});
const ok = (data: unknown) => ({ status: 200, body: { code: 0, message: 'ok', data } });

function scriptedClient(replies: Parameters<typeof scriptedFetch>[0]) {
  const scripted = scriptedFetch(replies);
  const c = createClient({
    baseUrl: 'http://api.test',
    storage: memoryStorage(),
    onSessionEnd: () => (sessionEnds += 1),
    toast: (message) => toasts.push(message),
    networkErrorMessage: () => 'Network error',
    rateLimitedMessage,
    fetch: scripted.fetch,
  });
  return { c, calls: scripted.calls };
}

describe('HTTP client on a rate limit (429)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    return () => vi.useRealTimers();
  });

  it('a GET refused with a short Retry-After is sent again once after the wait, and resolves with the data', async () => {
    const { c, calls } = scriptedClient([limited('3'), ok({ n: 1 })]);
    let settled: unknown;
    const done = c
      .get('/api/v1/mining/rental', { params: { id: '7' } })
      .then((data) => (settled = data));
    await vi.advanceTimersByTimeAsync(2_900);
    expect(calls).toHaveLength(1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(100);
    await done;
    expect(settled).toEqual({ n: 1 });
    expect(calls.map((call) => call.url)).toEqual([
      'http://api.test/api/v1/mining/rental?id=7',
      'http://api.test/api/v1/mining/rental?id=7',
    ]);
    expect(toasts).toEqual([]);
  });

  it('identical GETs waiting out a 429 share the one retry', async () => {
    const { c, calls } = scriptedClient([limited('1'), ok({ n: 1 })]);
    const both = Promise.all([c.get('/a'), c.get('/a')]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await both).toEqual([{ n: 1 }, { n: 1 }]);
    expect(calls).toHaveLength(2);
  });

  it('a GET refused twice rejects with ApiError 429 and the wait, after one retry only', async () => {
    const { c, calls } = scriptedClient([limited('2'), limited('5')]);
    const error = c.get('/a').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await error).toMatchObject({
      code: 429,
      message: 'Too many requests. Try again in 5 s.',
    });
    expect(calls).toHaveLength(2);
    expect(toasts).toEqual(['Too many requests. Try again in 5 s.']);
  });

  it("a 429 that names another reason (a sign-in paused for wrong passwords) keeps its code and the server's message", async () => {
    const paused = {
      status: 429,
      body: {
        code: ERROR_CODES.SIGN_IN_THROTTLED,
        message: 'Too many wrong passwords for this account. Try again in 30 s.',
        data: null,
      },
      retryAfter: '30',
    };
    const { c, calls } = scriptedClient([paused, ok({ n: 1 })]);
    const error = await c.post('/api/v1/auth/login', { channel: 'email' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: ERROR_CODES.SIGN_IN_THROTTLED,
      message: 'Too many wrong passwords for this account. Try again in 30 s.',
    });
    expect(calls).toHaveLength(1);
    expect(toasts).toEqual(['Too many wrong passwords for this account. Try again in 30 s.']);
  });

  it('a POST refused with 429 rejects with ApiError 429 and is never sent again', async () => {
    const { c, calls } = scriptedClient([limited('3'), ok({ n: 1 })]);
    const error = await c.post('/api/v1/mining/rent', { productId: '1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(429);
    expect((error as ApiError).message).toBe('Too many requests. Try again in 3 s.');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toEqual([{ method: 'POST', url: 'http://api.test/api/v1/mining/rent' }]);
    expect(toasts).toEqual(['Too many requests. Try again in 3 s.']);
  });

  it(`a Retry-After over ${RATE_LIMIT_RETRY_MAX_S} s (120 s) is not waited out: the GET rejects at once with the wait in its message`, async () => {
    const { c, calls } = scriptedClient([limited('120'), ok({ n: 1 })]);
    const error = await c.get('/a').catch((e: unknown) => e);
    expect((error as ApiError).code).toBe(429);
    expect((error as ApiError).message).toBe('Too many requests. Try again in 120 s.');
    await vi.advanceTimersByTimeAsync(130_000);
    expect(calls).toHaveLength(1);
    expect(toasts).toEqual(['Too many requests. Try again in 120 s.']);
  });

  it("without a Retry-After, a GET is not sent again and the server's message is shown", async () => {
    const { c, calls } = scriptedClient([limited(), ok({ n: 1 })]);
    const error = await c.get('/a').catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 429,
      message: 'Too many requests, please try again later.',
    });
    expect(calls).toHaveLength(1);
  });

  it('requests refused together make one toast, not one each', async () => {
    const { c } = scriptedClient([limited('60')]);
    await Promise.all(
      ['/a', '/b', '/c', '/d', '/e'].map((url) => c.get(url).catch(() => undefined)),
    );
    await c.post('/f', {}).catch(() => undefined);
    expect(toasts).toEqual(['Too many requests. Try again in 60 s.']);
    // A later burst is told again.
    await vi.advanceTimersByTimeAsync(2_000);
    await c.get('/g').catch(() => undefined);
    expect(toasts).toHaveLength(2);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const nowMs = Date.parse('2026-11-27T10:00:00Z');
    expect(retryAfterS('12', nowMs)).toBe(12);
    expect(retryAfterS('Fri, 27 Nov 2026 10:00:30 GMT', nowMs)).toBe(30);
    expect(retryAfterS('Fri, 27 Nov 2026 09:59:00 GMT', nowMs)).toBe(0);
    expect(retryAfterS(null, nowMs)).toBeUndefined();
    expect(retryAfterS('soon', nowMs)).toBeUndefined();
  });

  it("says the wait in the user's language: seconds under a minute, whole minutes above (a number and its unit never split)", async () => {
    const text = async (language: 'en' | 'de' | 'zh_CN', waitS: number | undefined) => {
      const catalogue = (
        (await import(`@/locales/${language}.json`)) as { default: Record<string, unknown> }
      ).default;
      return rateLimitedText(
        (key, values) => translateFrom(catalogue, language, key, values),
        waitS,
      );
    };
    expect(await text('en', 12)).toBe('Too many requests. Try again in 12\u00a0s.');
    expect(await text('en', 120)).toBe('Too many requests. Try again in 2\u00a0min.');
    expect(await text('en', 0)).toBe('Too many requests. Try again in 1\u00a0s.');
    expect(await text('de', 12)).toBe('Zu viele Anfragen. Bitte in 12\u00a0s erneut versuchen.');
    expect(await text('zh_CN', 90)).toBe('请求过于频繁，请 2 分钟后重试。');
    expect(await text('en', undefined)).toBe(
      'Too many requests. Please wait a moment and try again.',
    );
  });

  it("a not-found is 404 or the domain's own code; a rate limit or a dropped connection is not", () => {
    expect(isNotFound(new ApiError(404, 'Not found.'))).toBe(true);
    expect(isNotFound(new ApiError(3406, 'This rental does not exist.'), 3406)).toBe(true);
    expect(isNotFound(new ApiError(3406, 'This rental does not exist.'))).toBe(false);
    expect(isNotFound(new ApiError(429, 'Too many requests.'), 3406)).toBe(false);
    expect(isNotFound(new TypeError('Failed to fetch'), 3406)).toBe(false);
  });
});
