import { ERROR_CODES, type ErrorName } from '@tradewind/contract/errors';
import type { FieldErrors } from '@tradewind/contract/envelope';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { z } from 'zod';
import { translate, type Params } from './i18n.ts';
import type { Language } from '@tradewind/contract/languages';
import { issuesToFieldErrors } from '@tradewind/contract/validation';

/**
 * A failure the user can be told about: a stable code name, optional message
 * parameters, and the HTTP status to reply with. Services throw these; the one error
 * handler below turns them into the envelope in the request's language.
 */
export class AppError extends Error {
  readonly code: number;
  /** Sent as `Retry-After` (seconds): when the same request may succeed. */
  retryAfterS: number | undefined;

  /** The message's parameters in the reader's language (a wait in its units); the same for every language unless overridden. */
  paramsFor(_language: Language): Params {
    return this.params;
  }

  constructor(
    readonly errorName: ErrorName,
    readonly params: Params = {},
    readonly httpStatus: number = defaultStatus(errorName),
    /** Set when the error belongs to one form field: the reply is then a 422 with `errors`. */
    readonly field?: string,
  ) {
    super(errorName);
    this.name = 'AppError';
    this.code = ERROR_CODES[errorName];
  }
}

function defaultStatus(name: ErrorName): number {
  const code = ERROR_CODES[name];
  if (code === ERROR_CODES.SESSION_EXPIRED) return 401;
  // One answer on every route, wherever the shortfall is found (a service's check or the ledger's).
  if (code === ERROR_CODES.INSUFFICIENT_BALANCE) return 409;
  if (code >= 400 && code < 600) return code;
  return 400;
}

/** Carries zod issues from the validator to the error handler, with what was sent, so "missing" and "wrong type" differ. */
export class RequestValidationError extends Error {
  constructor(
    readonly issues: z.core.$ZodIssue[],
    readonly input: unknown,
  ) {
    super('request validation failed');
    this.name = 'RequestValidationError';
  }
}

export function fieldErrors(error: RequestValidationError, language: Language): FieldErrors {
  return issuesToFieldErrors(error.issues, error.input, (key, params) =>
    translate(language, key, params),
  );
}

/** Fastify's own 4xx errors (bad JSON, wrong content type, oversize body, rate limit) mapped to our codes. */
function frameworkError(error: FastifyError): ErrorName | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'PAYLOAD_TOO_LARGE';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'BAD_REQUEST';
    default:
      break;
  }
  const status = error.statusCode ?? 500;
  if (status === 429) return 'RATE_LIMITED';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status === 404) return 'NOT_FOUND';
  if (status === 405) return 'METHOD_NOT_ALLOWED';
  if (status >= 400 && status < 500) return 'BAD_REQUEST';
  return undefined;
}

/** "Too many requests", with the wait when the reply names one (`Retry-After`, seconds). */
function rateLimitedMessage(language: Language, reply: FastifyReply): string {
  const seconds = Number(reply.getHeader('retry-after'));
  return Number.isInteger(seconds) && seconds > 0
    ? translate(language, 'rate_limit.retry_in', { seconds })
    : translate(language, 'errors.RATE_LIMITED');
}

/** The one error handler: every failure leaves as an envelope; 5xx details stay in the log. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const language = request.lang;
    if (error instanceof RequestValidationError) {
      const errors = fieldErrors(error, language);
      const first = Object.values(errors)[0]?.[0];
      return reply.status(422).send({
        code: ERROR_CODES.VALIDATION_FAILED,
        message: first ?? translate(language, 'errors.VALIDATION_FAILED'),
        data: null,
        errors,
      });
    }
    if (error instanceof AppError && error.field) {
      const message = translate(language, `errors.${error.errorName}`, error.paramsFor(language));
      return reply.status(422).send({
        code: ERROR_CODES.VALIDATION_FAILED,
        message,
        data: null,
        errors: { [error.field]: [message] },
      });
    }
    if (error instanceof AppError) {
      if (error.retryAfterS !== undefined) reply.header('retry-after', String(error.retryAfterS));
      return reply.status(error.httpStatus).send({
        code: error.code,
        message:
          error.errorName === 'RATE_LIMITED'
            ? rateLimitedMessage(language, reply)
            : translate(language, `errors.${error.errorName}`, error.paramsFor(language)),
        data: null,
      });
    }
    const name = frameworkError(error);
    if (name) {
      const status = name === 'BAD_REQUEST' ? 400 : ERROR_CODES[name];
      if (name === 'RATE_LIMITED')
        reply.header('retry-after', reply.getHeader('retry-after') ?? '60');
      return reply.status(status).send({
        code: ERROR_CODES[name],
        message:
          name === 'RATE_LIMITED'
            ? rateLimitedMessage(language, reply)
            : translate(language, `errors.${name}`),
        data: null,
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({
      code: ERROR_CODES.INTERNAL,
      message: translate(language, 'errors.INTERNAL'),
      data: null,
    });
  });
}
