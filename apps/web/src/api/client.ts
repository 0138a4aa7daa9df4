import { SESSION_END_CODES, ERROR_CODES } from '@tradewind/contract/errors';
import type { FieldErrors } from '@tradewind/contract/envelope';
import type { z } from 'zod';

/**
 * The one HTTP client of spec §7–8. It is built from its dependencies (storage,
 * navigation, toast) so the same code runs in the app and against a real server in tests.
 */

export const REQUEST_TIMEOUT_MS = 60_000;
/** An early GET (`HttpClient.early`) that no request took within this long is dropped. */
export const EARLY_TTL_MS = 5_000;
/**
 * A GET refused with 429 is sent again once, by itself, after the server's Retry-After when that
 * is at most this long; a longer wait is the user's to decide. A POST is never sent again by the
 * client: the user decides, even where an idempotency key would make it safe.
 */
export const RATE_LIMIT_RETRY_MAX_S = 10;
/** Requests refused together (a page's parallel GETs) make one rate-limit message, not one each. */
export const RATE_LIMIT_TOAST_GAP_MS = 2_000;

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
  /** The localized "too many requests, try again in …" text for a wait of `waitS` seconds, if known (`rateLimitedText`). */
  rateLimitedMessage: (waitS: number | undefined) => string;
  timeoutMs?: number;
  /** An early GET nobody asked for (a page's list out of date): the app warns in the console. */
  onUnusedEarly?: (url: string) => void;
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

/**
 * True when the server said that what was asked for does not exist: 404, or the domain's own
 * not-found code. A rate limit, an outage or a dropped connection is not that, and a page shows
 * "could not load" with a retry for those instead of "does not exist".
 */
export function isNotFound(error: unknown, domainCode?: number): boolean {
  return error instanceof ApiError && (error.code === ERROR_CODES.NOT_FOUND || (domainCode !== undefined && error.code === domainCode));
}

/** Retry-After in whole seconds, from a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterS(value: string | null, nowMs: number): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const atMs = Date.parse(text);
  return Number.isNaN(atMs) ? undefined : Math.max(0, Math.ceil((atMs - nowMs) / 1000));
}

/** "Too many requests. Try again in 12 s." (under a minute), "… in 2 min." (rounded up) or, with no wait known, "… in a moment.", in the language of `t`. */
export function rateLimitedText(t: (key: string, values?: Record<string, number>) => string, waitS: number | undefined): string {
  if (waitS === undefined) return t('common.rate_limited');
  return waitS < 60 ? t('common.rate_limited_s', { seconds: Math.max(1, waitS) }) : t('common.rate_limited_min', { minutes: Math.ceil(waitS / 60) });
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
  /**
   * Starts GETs of these URLs (path and query, as `get` would send them) now, before the code
   * that asks for them has loaded: a page's first requests go out with its code instead of
   * after it. The first `get` of the same URL, with the same token and language, within
   * EARLY_TTL_MS takes the reply; an early reply nobody took is dropped (`onUnusedEarly` hears of it).
   */
  early(urls: readonly string[]): void;
  /** How many requests are in flight (deduplicated ones count once). */
  pending(): number;
}

export function createClient(deps: ClientDeps): HttpClient {
  const doFetch = deps.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = deps.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const inFlight = new Map<string, Promise<unknown>>();
  /** Early GETs by URL, with the headers they went with. */
  const earlyReplies = new Map<string, { headers: string; response: Promise<Response> }>();
  let rateLimitToastAtMs = Number.NEGATIVE_INFINITY;

  function toastRateLimited(message: string): void {
    const nowMs = Date.now();
    if (nowMs - rateLimitToastAtMs < RATE_LIMIT_TOAST_GAP_MS) return;
    rateLimitToastAtMs = nowMs;
    deps.toast(message);
  }

  function baseHeaders(): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', 'accept-language': deps.storage.getItem('lang') || 'en' };
    const token = deps.storage.getItem('token');
    if (token) headers.authorization = `Bearer ${token}`;
    return headers;
  }

  function early(urls: readonly string[]): void {
    const headers = baseHeaders();
    for (const url of urls) {
      if (earlyReplies.has(url)) continue;
      const response = doFetch(`${deps.baseUrl}${url}`, { method: 'GET', headers, signal: AbortSignal.timeout(timeoutMs) });
      // Its failure belongs to the request that takes it, if one does.
      response.catch(() => undefined);
      const entry = { headers: JSON.stringify(headers), response };
      earlyReplies.set(url, entry);
      setTimeout(() => {
        if (earlyReplies.get(url) !== entry) return;
        earlyReplies.delete(url);
        deps.onUnusedEarly?.(url);
      }, EARLY_TTL_MS);
    }
  }

  /** The early reply to this GET, if one went out with the same headers (taken once). */
  function takeEarly(url: string, headers: Record<string, string>): Promise<Response> | undefined {
    const entry = earlyReplies.get(url);
    if (!entry || entry.headers !== JSON.stringify(headers)) return undefined;
    earlyReplies.delete(url);
    return entry.response;
  }

  async function send(method: 'GET' | 'POST', url: string, body: unknown, options: RequestOptions<unknown>, retried = false): Promise<unknown> {
    const headers: Record<string, string> = { ...baseHeaders(), ...options.headers };
    let payload: BodyInit | undefined;
    if (method === 'POST' && body !== undefined) {
      if (body instanceof FormData) payload = body;
      else {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body);
      }
    }

    const path = `${url}${serializeParams(options.params)}`;
    let response: Response;
    try {
      response = await ((method === 'GET' && !retried ? takeEarly(path, headers) : undefined) ??
        doFetch(`${deps.baseUrl}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(timeoutMs) }));
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
    // A 429 whatever its body (a proxy in front may answer it with a page of its own), unless the
    // envelope names another reason (a sign-in paused for wrong passwords): that one is its own error.
    const otherReason = typeof envelope?.code === 'number' && envelope.code !== 0 && envelope.code !== ERROR_CODES.RATE_LIMITED;
    if ((response.status === ERROR_CODES.RATE_LIMITED && !otherReason) || envelope?.code === ERROR_CODES.RATE_LIMITED) {
      const waitS = retryAfterS(response.headers.get('retry-after'), Date.now());
      // Inside the shared request: the callers of an identical GET wait for the one retry together.
      if (method === 'GET' && !retried && waitS !== undefined && waitS <= RATE_LIMIT_RETRY_MAX_S) {
        await new Promise((resolve) => setTimeout(resolve, waitS * 1000));
        return send(method, url, body, options, true);
      }
      // Without a wait to tell, the server's own (localized) message says it best.
      const serverMessage = typeof envelope?.message === 'string' ? envelope.message : '';
      const text = waitS === undefined && serverMessage ? serverMessage : deps.rateLimitedMessage(waitS);
      toastRateLimited(text);
      throw new ApiError(ERROR_CODES.RATE_LIMITED, text);
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
    early,
    pending: () => inFlight.size,
  };
}
