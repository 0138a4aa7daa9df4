/**
 * An incoming `X-Request-Id` worth keeping: one value of at most 128 characters from a safe set
 * (a UUID, a proxy's hex id, `trace-id:span`). Anything else (several values, spaces, control
 * characters that could forge log lines, a megabyte) is replaced by a fresh UUID.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function saneRequestId(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : undefined;
}
