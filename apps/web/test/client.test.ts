import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, EARLY_TTL_MS, REQUEST_TIMEOUT_MS, createClient, type KeyValueStorage } from '@/api/client.ts';

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
            data: { search: url.search, lang: req.headers['accept-language'] ?? null, auth: req.headers.authorization ?? null, body: body || null },
          });
        case '/slow':
          return setTimeout(() => json(200, { code: 0, message: 'ok', data: { n: hits.get('/slow') } }), 150);
        case '/422':
          return json(200, { code: 422, message: 'Check fields', data: null, errors: { email: ['Invalid email format.'] } });
        case '/422-http':
          return json(422, { code: 422, message: 'Check fields', data: null, errors: { password: ['Too short'] } });
        case '/401':
          return json(401, { code: 401, message: 'Please sign in.', data: null });
        case '/411':
          return json(401, { code: 411, message: 'Session ended', data: null });
        case '/business':
          return json(400, { code: 1001, message: 'Incorrect account or password.', data: null });
        case '/xlsx':
          res.writeHead(200, { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
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

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { data: Map<string, string> } {
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

function client(storage = memoryStorage(), timeoutMs?: number, url = baseUrl) {
  return createClient({
    baseUrl: url,
    storage,
    onSessionEnd: () => (sessionEnds += 1),
    toast: (message) => toasts.push(message),
    networkErrorMessage: () => 'Network error',
    ...(timeoutMs ? { timeoutMs } : {}),
  });
}

const echoSchema = z.object({ search: z.string(), lang: z.string().nullable(), auth: z.string().nullable(), body: z.string().nullable() });

describe('HTTP client (spec §7–8)', () => {
  it('the timeout is 60000 ms', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(60_000);
  });

  it('code 0 resolves to the data, parsed by the schema', async () => {
    const data = await client().get('/echo', { schema: echoSchema });
    expect(data.search).toBe('');
  });

  it('sends Accept-Language from the stored lang (default en) and the bearer token when stored', async () => {
    expect(await client().get('/echo', { schema: echoSchema })).toMatchObject({ lang: 'en', auth: null });
    const storage = memoryStorage({ lang: 'de', token: 'abc' });
    expect(await client(storage).get('/echo', { schema: echoSchema })).toMatchObject({ lang: 'de', auth: 'Bearer abc' });
  });

  it('serialises arrays as repeated keys, not indexed ones', async () => {
    const data = await client().get('/echo', { params: { type: ['deposit', 'withdraw'], page: 2, skip: undefined }, schema: echoSchema });
    expect(data.search).toBe('?type=deposit&type=withdraw&page=2');
  });

  it('identical in-flight requests share one pending result', async () => {
    const c = client();
    const [a, b] = await Promise.all([c.get('/slow', { params: { x: 1 } }), c.get('/slow', { params: { x: 1 } })]);
    expect(hits.get('/slow')).toBe(1);
    expect(a).toBe(b);
    await Promise.all([c.get('/slow', { params: { x: 1 } }), c.get('/slow', { params: { x: 2 } })]);
    expect(hits.get('/slow')).toBe(3);
    await Promise.all([c.post('/slow', { a: 1 }), c.post('/slow', { a: 1 }), c.post('/slow', { a: 2 })]);
    expect(hits.get('/slow')).toBe(5);
    expect(c.pending()).toBe(0);
  });

  it('422, in a 200 or an error reply, rejects with the errors for the form and no toast', async () => {
    const storage = memoryStorage({ token: 't' });
    const first = await client(storage).get('/422').catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ApiError);
    expect((first as ApiError).errors).toEqual({ email: ['Invalid email format.'] });
    const second = await client(storage).post('/422-http', {}).catch((e: unknown) => e);
    expect((second as ApiError).errors).toEqual({ password: ['Too short'] });
    expect(toasts).toEqual([]);
    expect(storage.data.get('token')).toBe('t');
  });

  it.each(['/401', '/411'])('%s clears the token and goes to /Login without a message', async (path) => {
    const storage = memoryStorage({ token: 't', uid: '10000001' });
    const error = await client(storage).get(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(storage.data.has('token')).toBe(false);
    expect(sessionEnds).toBe(1);
    expect(toasts).toEqual([]);
  });

  it('another failure with a message toasts it and rejects', async () => {
    const error = await client().post('/business', { x: 1 }).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe(1001);
    expect(toasts).toEqual(['Incorrect account or password.']);
  });

  it('a non-envelope error reply shows the network error', async () => {
    const error = await client().get('/html-error').catch((e: unknown) => e);
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
    const error = await client(memoryStorage(), 200).get('/hang').catch((e: unknown) => e);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect(toasts).toEqual(['Network error']);
  });

  it('a network failure rejects with the library error and a network-error toast', async () => {
    const error = await client(memoryStorage(), undefined, 'http://127.0.0.1:1').get('/echo').catch((e: unknown) => e);
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
    expect(await c.get('/echo', { params: { a: 1 }, schema: echoSchema })).toMatchObject({ search: '?a=1', lang: 'de', auth: 'Bearer abc' });
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
