import { ERROR_CODES } from '@tradewind/contract/errors';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api-error.ts';
import { type EnvelopeClientDeps, createEnvelopeClient } from '../src/envelope-client.ts';

/**
 * What the console relies on beyond the user app's client tests (apps/web/test/client.test.ts,
 * which run this client through the user app's layer): where the token and language come from,
 * a session end told with its URL, and failures thrown without a toast when the app has none.
 */

type Reply = { status: number; body: unknown; type?: string };

/** A fetch that answers each call with the next reply (the last one repeats), and the requests it got. */
function scriptedFetch(replies: Reply[]) {
  const calls: {
    url: string;
    method: string;
    headers: Record<string, string>;
    body: string | null;
  }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const reply = replies[Math.min(calls.length, replies.length - 1)] as Reply;
    calls.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      body: typeof init?.body === 'string' ? init.body : null,
    });
    return new Response(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': reply.type ?? 'application/json' },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

function consoleLikeClient(replies: Reply[], overrides: Partial<EnvelopeClientDeps> = {}) {
  const scripted = scriptedFetch(replies);
  const ended: string[] = [];
  let token: string | null = 'op-token';
  let language = 'zh-CN';
  const client = createEnvelopeClient({
    baseUrl: '/api/admin/v1',
    token: () => token,
    language: () => language,
    onSessionEnd: (url) => ended.push(url),
    networkErrorMessage: () => '网络错误',
    rateLimitedMessage: () => '请求过于频繁',
    fetch: scripted.fetch,
    ...overrides,
  });
  return {
    client,
    calls: scripted.calls,
    ended,
    setToken: (next: string | null) => (token = next),
    setLanguage: (next: string) => (language = next),
  };
}

const ok = (data: unknown): Reply => ({ status: 200, body: { code: 0, message: 'ok', data } });

describe('envelope client, as the console uses it', () => {
  it('reads the token and the language at each request, under the base URL', async () => {
    const c = consoleLikeClient([ok({ n: 1 })]);
    await c.client.get('/kyc/queue', { params: { cursor: 'abc' } });
    c.setToken(null);
    c.setLanguage('en');
    await c.client.post('/auth/login', { username: 'root' });
    expect(c.calls[0]).toMatchObject({
      url: '/api/admin/v1/kyc/queue?cursor=abc',
      method: 'GET',
      headers: { authorization: 'Bearer op-token', 'accept-language': 'zh-CN' },
    });
    expect(c.calls[1]?.headers.authorization).toBeUndefined();
    expect(c.calls[1]).toMatchObject({
      method: 'POST',
      headers: { 'accept-language': 'en', 'content-type': 'application/json' },
      body: '{"username":"root"}',
    });
  });

  it('parses the data with the schema it is given', async () => {
    const c = consoleLikeClient([ok({ n: '2' })]);
    const parsed = await c.client.get('/x', {
      schema: { parse: (data) => Number((data as { n: string }).n) },
    });
    expect(parsed).toBe(2);
  });

  it.each([ERROR_CODES.UNAUTHORIZED, ERROR_CODES.SESSION_EXPIRED])(
    'a session end (%i) is told with the URL that met it, and rejects',
    async (code) => {
      const c = consoleLikeClient([
        { status: 401, body: { code, message: '会话已结束', data: null } },
      ]);
      const error = await c.client.get('/dashboard').catch((e: unknown) => e);
      expect(error).toMatchObject({ code, message: '会话已结束' });
      expect(c.ended).toEqual(['/dashboard']);
    },
  );

  it('without a toast, a business failure is only thrown, with the server message', async () => {
    const c = consoleLikeClient([
      { status: 400, body: { code: 1001, message: '账号或密码错误。', data: null } },
    ]);
    const error = await c.client.post('/auth/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 1001, message: '账号或密码错误。' });
    expect(c.ended).toEqual([]);
  });

  it('a 422 carries its field errors, and `detail` is the first field message', async () => {
    const c = consoleLikeClient([
      {
        status: 422,
        body: {
          code: 422,
          message: 'Check the fields',
          data: null,
          errors: { txid: ['Not a transaction id.'], other: ['x'] },
        },
      },
    ]);
    const error = (await c.client
      .post('/withdrawals/complete', { id: '1', txid: 'zz' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.errors).toEqual({ txid: ['Not a transaction id.'], other: ['x'] });
    expect(error.isValidation).toBe(true);
    expect(error.detail).toBe('Not a transaction id.');
    expect(new ApiError(409, 'Already decided.').detail).toBe('Already decided.');
  });

  it('a reply that is not an envelope rejects with the localized network error', async () => {
    const toasts: string[] = [];
    const c = consoleLikeClient(
      [{ status: 502, body: '<h1>Bad gateway</h1>', type: 'text/html' }],
      { toast: (message) => toasts.push(message) },
    );
    const error = await c.client.get('/dashboard').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 502, message: '网络错误' });
    expect(toasts).toEqual(['网络错误']);
  });

  it('a POST refused with 429 rejects at once with the server message and is not sent again', async () => {
    const c = consoleLikeClient([
      { status: 429, body: { code: 429, message: 'Too many requests', data: null } },
    ]);
    const error = await c.client
      .post('/kyc/decide', { id: '1', decision: 'approve' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ERROR_CODES.RATE_LIMITED, message: 'Too many requests' });
    expect(c.calls).toHaveLength(1);
  });
});
