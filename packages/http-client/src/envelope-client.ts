import type { FieldErrors } from '@tradewind/contract/envelope';
import { ERROR_CODES, SESSION_END_CODES } from '@tradewind/contract/errors';
import { ApiError } from './api-error.ts';
import { type Params, serializeParams } from './params.ts';
import { retryAfterS } from './retry-after.ts';

/**
 * The envelope client of spec §7–8 that both apps build theirs on: requests with the session's
 * token and the reader's language, `{code, message, data, errors?}` unwrapped, failures as
 * `ApiError` with the server's localized message, 429s waited out or told once, identical
 * requests shared. Where the token lives, where a session end leads and how a message is shown
 * are each app's own (its deps).
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

/** What parses an envelope's data: a contract schema (zod or zod/mini), never a cast. */
export interface Schema<T> {
  parse(data: unknown): T;
}

export interface EnvelopeClientDeps {
  /** Put before every URL: '' for the same origin, or a path prefix such as '/api/admin/v1'. */
  baseUrl: string;
  /** The bearer token, read at each request; null when signed out. */
  token: () => string | null;
  /** The Accept-Language, read at each request so that it follows the reader's choice. */
  language: () => string;
  /** The server ended the session (401, 411) on a request to `url`: the app forgets its token and goes to sign-in. */
  onSessionEnd: (url: string) => void;
  /** Tells the reader of a failure nobody else will show (with its code); without it, failures are only thrown. */
  toast?: (message: string, code?: number) => void;
  /** The localized "network error" text, read when needed so it follows the language. */
  networkErrorMessage: () => string;
  /** The localized "too many requests, try again in …" text for a wait of `waitS` seconds, if known. */
  rateLimitedMessage: (waitS: number | undefined) => string;
  timeoutMs?: number;
  /** An early GET nobody asked for (a page's list out of date): the app warns in the console. */
  onUnusedEarly?: (url: string) => void;
  fetch?: typeof fetch;
}

export interface RequestOptions<T> {
  params?: Params;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Parses the envelope's data (the shared schema); never a cast. */
  schema?: Schema<T>;
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

type Envelope = { code?: unknown; message?: unknown; data?: unknown; errors?: FieldErrors };

/** The reply's content type, without parameters, lower case. */
function contentType(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

async function readEnvelope(response: Response, type: string): Promise<Envelope | undefined> {
  try {
    return type === 'application/json' ? ((await response.json()) as Envelope) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A 429 whatever its body (a proxy in front may answer it with a page of its own), unless the
 * envelope names another reason (a sign-in paused for wrong passwords): that one is its own error.
 */
function isRateLimited(response: Response, envelope: Envelope | undefined): boolean {
  const otherReason =
    typeof envelope?.code === 'number' &&
    envelope.code !== 0 &&
    envelope.code !== ERROR_CODES.RATE_LIMITED;
  return (
    (response.status === ERROR_CODES.RATE_LIMITED && !otherReason) ||
    envelope?.code === ERROR_CODES.RATE_LIMITED
  );
}

export function createEnvelopeClient(deps: EnvelopeClientDeps): HttpClient {
  const doFetch = deps.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = deps.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const toast = (message: string) => deps.toast?.(message);
  const inFlight = new Map<string, Promise<unknown>>();
  /** Early GETs by URL, with the headers they went with. */
  const earlyReplies = new Map<string, { headers: string; response: Promise<Response> }>();
  let rateLimitToastAtMs = Number.NEGATIVE_INFINITY;

  function toastRateLimited(message: string): void {
    const nowMs = Date.now();
    if (nowMs - rateLimitToastAtMs < RATE_LIMIT_TOAST_GAP_MS) return;
    rateLimitToastAtMs = nowMs;
    toast(message);
  }

  function baseHeaders(): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-language': deps.language(),
    };
    const token = deps.token();
    if (token) headers.authorization = `Bearer ${token}`;
    return headers;
  }

  function early(urls: readonly string[]): void {
    const headers = baseHeaders();
    for (const url of urls) {
      if (earlyReplies.has(url)) continue;
      const response = doFetch(`${deps.baseUrl}${url}`, {
        method: 'GET',
        headers,
        signal: AbortSignal.timeout(timeoutMs),
      });
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

  async function send(
    method: 'GET' | 'POST',
    url: string,
    body: unknown,
    options: RequestOptions<unknown>,
    retried = false,
  ): Promise<unknown> {
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
        doFetch(`${deps.baseUrl}${path}`, {
          method,
          headers,
          body: payload,
          signal: AbortSignal.timeout(timeoutMs),
        }));
    } catch (error) {
      // Network failure, timeout or abort: the platform's own error, with a localized toast.
      toast(deps.networkErrorMessage());
      throw error;
    }

    const type = contentType(response);
    if (response.ok && SPREADSHEET_TYPES.includes(type)) return response.blob();
    if (response.ok && type === 'image/jpeg') return URL.createObjectURL(await response.blob());

    const envelope = await readEnvelope(response, type);
    if (isRateLimited(response, envelope)) {
      const waitS = retryAfterS(response.headers.get('retry-after'), Date.now());
      // Inside the shared request: the callers of an identical GET wait for the one retry together.
      if (method === 'GET' && !retried && waitS !== undefined && waitS <= RATE_LIMIT_RETRY_MAX_S) {
        await new Promise((resolve) => setTimeout(resolve, waitS * 1000));
        return send(method, url, body, options, true);
      }
      // Without a wait to tell, the server's own (localized) message says it best.
      const serverMessage = typeof envelope?.message === 'string' ? envelope.message : '';
      const text =
        waitS === undefined && serverMessage ? serverMessage : deps.rateLimitedMessage(waitS);
      toastRateLimited(text);
      throw new ApiError(ERROR_CODES.RATE_LIMITED, text);
    }
    if (!envelope || typeof envelope.code !== 'number') {
      toast(deps.networkErrorMessage());
      throw new ApiError(response.status || ERROR_CODES.INTERNAL, deps.networkErrorMessage());
    }
    const message = typeof envelope.message === 'string' ? envelope.message : '';
    if (envelope.code === 0 && response.ok)
      return options.schema ? options.schema.parse(envelope.data) : envelope.data;
    if (envelope.code === ERROR_CODES.VALIDATION_FAILED)
      throw new ApiError(envelope.code, message, envelope.errors ?? {});
    if (SESSION_END_CODES.includes(envelope.code)) {
      deps.onSessionEnd(url);
      throw new ApiError(envelope.code, message);
    }
    if (message) deps.toast?.(message, envelope.code);
    throw new ApiError(envelope.code, message);
  }

  function request<T>(
    method: 'GET' | 'POST',
    url: string,
    body: unknown,
    options: RequestOptions<T> = {},
  ): Promise<T> {
    const key = JSON.stringify([
      method,
      url,
      serializeParams(options.params),
      body instanceof FormData ? null : (body ?? null),
    ]);
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
