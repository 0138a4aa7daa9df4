import type { FieldErrors } from '@tradewind/contract/envelope';
import { ERROR_CODES } from '@tradewind/contract/errors';

/** A reply whose envelope code was not 0; `message` is the server's, already in the reader's language. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** Per-field messages of a 422, for the form that sent the request. */
    readonly errors?: FieldErrors,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isValidation(): boolean {
    return this.code === ERROR_CODES.VALIDATION_FAILED;
  }

  /** The first field message, else the message: what a form shows in one line. */
  get detail(): string {
    const first = this.errors ? Object.values(this.errors)[0]?.[0] : undefined;
    return first ?? this.message;
  }
}

/**
 * True when the server said that what was asked for does not exist: 404, or the domain's own
 * not-found code. A rate limit, an outage or a dropped connection is not that, and a page shows
 * "could not load" with a retry for those instead of "does not exist".
 */
export function isNotFound(error: unknown, domainCode?: number): boolean {
  return (
    error instanceof ApiError &&
    (error.code === ERROR_CODES.NOT_FOUND ||
      (domainCode !== undefined && error.code === domainCode))
  );
}
