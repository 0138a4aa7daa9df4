/**
 * Stable error codes carried in the envelope's `code`. The numbers never change once
 * shipped; the names are what the code and the message catalogues use
 * (`errors.<NAME>` in `i18n/<lang>.json`).
 *
 * 401, 411 and 422 are the codes spec §7–8 gives meaning to; the other transport
 * codes mirror HTTP; business codes are grouped by domain (1xxx sign-in, 2xxx wallet,
 * 3xxx markets, 4xxx account, 5xxx products).
 */
export const ERROR_CODES = {
  OK: 0,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  SESSION_EXPIRED: 411,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_FAILED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,

  INVALID_CREDENTIALS: 1001,
  ACCOUNT_EXISTS: 1002,
  CODE_INVALID: 1003,
  CODE_EXPIRED: 1004,
  CODE_ATTEMPTS_EXCEEDED: 1005,
  CODE_COOLDOWN: 1006,
  INVITE_CODE_INVALID: 1007,
  CHANNEL_UNAVAILABLE: 1008,
  PASSWORD_INCORRECT: 1009,
  SESSION_NOT_FOUND: 1010,
  ACCOUNT_FROZEN: 1011,

  INSUFFICIENT_BALANCE: 2001,
  IDEMPOTENCY_KEY_REQUIRED: 2002,
  IDEMPOTENCY_KEY_REUSED: 2003,
  AMOUNT_PRECISION: 2004,
  ASSET_UNAVAILABLE: 2005,

  DEPOSIT_UNAVAILABLE: 2101,
  DEPOSIT_ADDRESS_INVALID: 2102,
  DEPOSIT_SIMULATION_OFF: 2103,

  FILE_TYPE_UNSUPPORTED: 2201,
  FILE_TOO_LARGE: 2202,
  FILE_CORRUPT: 2203,
  FILE_NOT_PLAIN_IMAGE: 2204,
  FILE_EMPTY: 2205,
  FILE_REQUIRED: 2206,
  FILE_NOT_FOUND: 2207,
  FILE_WRONG_PURPOSE: 2208,
  FILE_ONE_ONLY: 2209,
  FILE_PIXELS_TOO_MANY: 2210,
  FILE_ALREADY_USED: 2211,
  UPLOAD_QUOTA_EXCEEDED: 2212,
  KYC_PENDING_EXISTS: 2220,
  KYC_ALREADY_VERIFIED: 2221,
  CARD_DEPOSIT_UNAVAILABLE: 2240,
  CARD_DEPOSIT_AMOUNT_RANGE: 2241,
  CARD_DEPOSIT_TOO_MANY_PENDING: 2242,

  PRICE_UNAVAILABLE: 2401,
  CONVERSION_VIA_USDT: 2402,
  QUOTE_EXPIRED: 2403,
  QUOTE_USED: 2404,
  CONVERSION_TOO_SMALL: 2405,
  EXPORT_TOO_LARGE: 2406,

  INVALID_STATE: 2501,
} as const;

export type ErrorName = keyof typeof ERROR_CODES;
export type ErrorCode = (typeof ERROR_CODES)[ErrorName];

/** Codes after which the client drops the token and goes to /Login without a message (spec §8). */
export const SESSION_END_CODES: readonly number[] = [ERROR_CODES.UNAUTHORIZED, ERROR_CODES.SESSION_EXPIRED];

const NAMES_BY_CODE = new Map<number, ErrorName>(
  Object.entries(ERROR_CODES).map(([name, code]) => [code, name as ErrorName]),
);

export function errorName(code: number): ErrorName | undefined {
  return NAMES_BY_CODE.get(code);
}
