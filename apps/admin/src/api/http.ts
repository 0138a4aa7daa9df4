import { ERROR_CODES, SESSION_END_CODES } from '@tradewind/contract/errors';
import type { z } from 'zod';
import { getLanguage } from '@admin/lib/i18n';

const TOKEN_KEY = 'tw-admin-token';
const BASE = '/api/admin/v1';

/** A reply whose envelope code was not 0; `message` is already in the console's language. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly fields?: Record<string, string[]>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The first field message, else the message: what a form shows. */
  get detail(): string {
    const first = this.fields ? Object.values(this.fields)[0]?.[0] : undefined;
    return first ?? this.message;
  }
}

const sessionEndListeners = new Set<() => void>();

/** The shell signs out when the server says the session is over (401, or 411 after 30 idle minutes). */
export function onSessionEnd(listener: () => void): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}

export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

export type Query = Record<string, string | number | boolean | undefined | null>;

function url(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const search = params.toString();
  return `${BASE}${path}${search ? `?${search}` : ''}`;
}

async function request<T>(method: 'GET' | 'POST', path: string, schema: z.ZodType<T>, options: { query?: Query; body?: unknown } = {}): Promise<T> {
  const token = session.token();
  const headers: Record<string, string> = { 'accept-language': getLanguage() };
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url(path, options.query), { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  } catch {
    throw new ApiError(ERROR_CODES.INTERNAL, getLanguage() === 'zh-CN' ? '网络错误，请重试。' : 'Network error. Please try again.');
  }
  const envelope = (await response.json().catch(() => null)) as { code: number; message: string; data: unknown; errors?: Record<string, string[]> } | null;
  if (!envelope) throw new ApiError(ERROR_CODES.INTERNAL, `HTTP ${response.status}`);
  if (envelope.code !== 0) {
    if (SESSION_END_CODES.includes(envelope.code) && !path.startsWith('/auth/login')) {
      session.clear();
      for (const listener of sessionEndListeners) listener();
    }
    throw new ApiError(envelope.code, envelope.message, envelope.errors);
  }
  return schema.parse(envelope.data);
}

/** The operator API under /api/admin/v1; every reply's data is parsed with the contract's schema. */
export const api = {
  get: <T>(path: string, schema: z.ZodType<T>, query?: Query) => request('GET', path, schema, { query }),
  post: <T>(path: string, schema: z.ZodType<T>, body?: unknown) => request('POST', path, schema, { body: body ?? {} }),
  /** A private upload as a blob URL, fetched with the operator's token (never a public link). */
  async fileUrl(path: string, query?: Query): Promise<string> {
    const token = session.token();
    const response = await fetch(url(path, query), { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (!response.ok) throw new ApiError(response.status, `HTTP ${response.status}`);
    return URL.createObjectURL(await response.blob());
  },
};
