import { SESSION_END_CODES, ERROR_CODES } from '@tradewind/contract/errors';
import type { FieldErrors } from '@tradewind/contract/envelope';
import type { z } from 'zod';

/**
 * The one HTTP client of spec §7–8. It is built from its dependencies (storage,
 * navigation, toast) so the same code runs in the app and against a real server in tests.
 */

export const REQUEST_TIMEOUT_MS = 60_000;

/** Replies with these content types are files, not envelopes: they pass through. */
const SPREADSHEET_TYPES = [
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
  'text/csv',
];

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface ClientDeps {
  baseUrl: string;
  storage: KeyValueStorage;
  /** Called after a 401/411 cleared the token: go to /Login, silently. */
  onSessionEnd: () => void;
  toast: (message: string) => void;
  /** The localized "network error" text, read when needed so it follows the language. */
  networkErrorMessage: () => string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** A reply whose envelope code was not 0. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isValidation(): boolean {
    return this.code === ERROR_CODES.VALIDATION_FAILED;
  }
}

export type Params = Record<string, string | number | boolean | null | undefined | readonly (string | number | boolean)[]>;

export interface RequestOptions<T> {
  params?: Params;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Parses the envelope's data (the shared zod schema); never a cast. */
  schema?: z.ZodType<T>;
}

/** Arrays become repeated keys (`a=1&a=2`), not indexed ones. */
export function serializeParams(params: Params | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Rejects when the caller cancels, without cancelling the shared request for the others. */
function withCallerSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error)),
    );
  });
}

export interface HttpClient {
  get<T = unknown>(url: string, options?: RequestOptions<T>): Promise<T>;
  post<T = unknown>(url: string, body?: unknown, options?: RequestOptions<T>): Promise<T>;
  /** How many requests are in flight (deduplicated ones count once). */
  pending(): number;
}

export function createClient(deps: ClientDeps): HttpClient {
  const doFetch = deps.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = deps.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const inFlight = new Map<string, Promise<unknown>>();

  async function send(method: 'GET' | 'POST', url: string, body: unknown, options: RequestOptions<unknown>): Promise<unknown> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-language': deps.storage.getItem('lang') || 'en',
      ...options.headers,
    };
    const token = deps.storage.getItem('token');
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: BodyInit | undefined;
    if (method === 'POST' && body !== undefined) {
      if (body instanceof FormData) payload = body;
      else {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body);
      }
    }

    let response: Response;
    try {
      response = await doFetch(`${deps.baseUrl}${url}${serializeParams(options.params)}`, {
        method,
        headers,
        body: payload,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      // Network failure, timeout or abort: the library's own error, with a localized toast.
      deps.toast(deps.networkErrorMessage());
      throw error;
    }

    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (response.ok && SPREADSHEET_TYPES.includes(type)) return response.blob();
    if (response.ok && type === 'image/jpeg') return URL.createObjectURL(await response.blob());

    let envelope: { code?: unknown; message?: unknown; data?: unknown; errors?: FieldErrors } | undefined;
    try {
      envelope = type === 'application/json' ? await response.json() : undefined;
    } catch {
      envelope = undefined;
    }
    if (!envelope || typeof envelope.code !== 'number') {
      deps.toast(deps.networkErrorMessage());
      throw new ApiError(response.status || ERROR_CODES.INTERNAL, deps.networkErrorMessage());
    }
    const message = typeof envelope.message === 'string' ? envelope.message : '';
    if (envelope.code === 0 && response.ok) return options.schema ? options.schema.parse(envelope.data) : envelope.data;
    if (envelope.code === ERROR_CODES.VALIDATION_FAILED) throw new ApiError(envelope.code, message, envelope.errors ?? {});
    if (SESSION_END_CODES.includes(envelope.code)) {
      deps.storage.removeItem('token');
      deps.onSessionEnd();
      throw new ApiError(envelope.code, message);
    }
    if (message) deps.toast(message);
    throw new ApiError(envelope.code, message);
  }

  function request<T>(method: 'GET' | 'POST', url: string, body: unknown, options: RequestOptions<T> = {}): Promise<T> {
    const key = JSON.stringify([method, url, serializeParams(options.params), body instanceof FormData ? null : (body ?? null)]);
    const shareable = !(body instanceof FormData);
    let shared = shareable ? inFlight.get(key) : undefined;
    if (!shared) {
      shared = send(method, url, body, options as RequestOptions<unknown>).finally(() => {
        if (inFlight.get(key) === shared) inFlight.delete(key);
      });
      if (shareable) inFlight.set(key, shared);
    }
    // A caller's own cancel rejects only its promise, with the abort reason and no toast.
    return withCallerSignal(shared as Promise<T>, options.signal);
  }

  return {
    get: (url, options) => request('GET', url, undefined, options),
    post: (url, body, options) => request('POST', url, body, options),
    pending: () => inFlight.size,
  };
}
