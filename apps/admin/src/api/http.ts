import { ERROR_CODES } from '@tradewind/contract/errors';
import { ApiError } from '@tradewind/http-client/api-error';
import { type RequestOptions, createEnvelopeClient } from '@tradewind/http-client/envelope-client';
import type { Params } from '@tradewind/http-client/params';
import { type AdminLanguage, fill, getLanguage } from '@/lib/i18n.ts';
import { clearSessionToken, getSessionToken } from '@/lib/session-token.ts';

const STRINGS: Record<
  AdminLanguage,
  Record<'network' | 'limited' | 'limitedS' | 'limitedMin', string>
> = {
  en: {
    network: 'Network error. Please try again.',
    limited: 'Too many requests. Please wait a moment and try again.',
    limitedS: 'Too many requests. Try again in {n}\u00a0s.',
    limitedMin: 'Too many requests. Try again in {n}\u00a0min.',
  },
  'zh-CN': {
    network: '网络错误，请重试。',
    limited: '请求过于频繁，请稍后重试。',
    limitedS: '请求过于频繁，请 {n} 秒后重试。',
    limitedMin: '请求过于频繁，请 {n} 分钟后重试。',
  },
};
const text = (key: keyof (typeof STRINGS)['en'], n?: number) =>
  fill(STRINGS[getLanguage()][key], n === undefined ? undefined : { n });

const sessionEndListeners = new Set<() => void>();

/** The shell signs out when the server says the session is over (401, or 411 after 30 idle minutes). */
export function onSessionEnd(listener: () => void): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}

const client = createEnvelopeClient({
  baseUrl: '/api/admin/v1',
  token: getSessionToken,
  language: getLanguage,
  onSessionEnd: (url) => {
    // A refused sign-in is the form's to show; it ends no session.
    if (url.startsWith('/auth/login')) return;
    clearSessionToken();
    for (const listener of sessionEndListeners) listener();
  },
  networkErrorMessage: () => text('network'),
  rateLimitedMessage: (waitS) =>
    waitS === undefined
      ? text('limited')
      : waitS < 60
        ? text('limitedS', Math.max(1, waitS))
        : text('limitedMin', Math.ceil(waitS / 60)),
});

/**
 * The console shows every failure where it happened (the form, the table, the drawer), so the
 * client toasts nothing, and a network failure or timeout is an ApiError with a message in the
 * console's language like any other.
 */
async function inPlace<T>(reply: Promise<T>): Promise<T> {
  try {
    return await reply;
  } catch (error) {
    if (error instanceof ApiError || (error instanceof DOMException && error.name === 'AbortError'))
      throw error;
    throw new ApiError(ERROR_CODES.INTERNAL, text('network'));
  }
}

/** An empty filter is no filter: '' never reaches the query string. */
function withoutEmpty(params: Params | undefined): Params | undefined {
  return params && Object.fromEntries(Object.entries(params).filter(([, value]) => value !== ''));
}

/** The operator API under /api/admin/v1; every reply's data is parsed with the contract's schema. */
export const http = {
  get: <T = unknown>(url: string, options: RequestOptions<T> = {}) =>
    inPlace(client.get(url, { ...options, params: withoutEmpty(options.params) })),
  /** The operator API's POST routes all take a JSON object: none sends `{}`. */
  post: <T = unknown>(url: string, body: unknown = {}, options?: RequestOptions<T>) =>
    inPlace(client.post(url, body, options)),
};
