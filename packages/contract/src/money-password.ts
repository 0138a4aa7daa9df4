import * as z from 'zod/mini';
import { CHANNELS, PASSWORD_MAX_LENGTH, codeSchema } from './auth-basics.ts';

/**
 * Passwords for money (ARCHITECTURE §8): a withdrawal password and a trading password,
 * each its own secret with its own hash and its own attempt counter, apart from the login
 * password.
 *
 * The rule: **exactly 6 digits**, not one digit repeated ("111111") and not a straight run
 * ("123456", "987654"). A PIN is typed on a phone at every withdrawal or order; what keeps it
 * safe is the lock: 5 wrong attempts lock it for 15 minutes. Because a PIN is never 8
 * characters, it can never equal the login password.
 */

export const MONEY_PASSWORD_KINDS = ['withdraw', 'trade'] as const;
export type MoneyPasswordKind = (typeof MONEY_PASSWORD_KINDS)[number];

export const MONEY_PASSWORD_LENGTH = 6;
/** Wrong attempts in a row (the password itself, or the login password offered to change it) before the lock. */
export const MONEY_PASSWORD_MAX_ATTEMPTS = 5;
export const MONEY_PASSWORD_LOCK_MS = 15 * 60_000;

/** How the user proves it is them when setting or changing a money password. */
export const MONEY_PASSWORD_PROOFS = ['login_password', 'code'] as const;
export type MoneyPasswordProof = (typeof MONEY_PASSWORD_PROOFS)[number];

/** The code purpose (auth `CODE_PURPOSES`) for each kind. */
export const MONEY_PASSWORD_CODE_PURPOSE = {
  withdraw: 'withdraw_password',
  trade: 'trade_password',
} as const;

const RUNS = ['0123456789', '9876543210'];

/** True for "111111", "123456", "987654" and the like. */
export function isTrivialPin(pin: string): boolean {
  if (/^(\d)\1*$/.test(pin)) return true;
  return RUNS.some((run) => run.includes(pin));
}

export const moneyPasswordKindSchema = z.enum(MONEY_PASSWORD_KINDS, {
  error: 'validation.invalid_value',
});

/** A new money password: the rule above. */
export const newMoneyPasswordSchema = z.string({ error: 'validation.required' }).check(
  z.regex(/^\d{6}$/, { error: 'validation.money_password_format', abort: true }),
  z.refine((pin) => !isTrivialPin(pin), { error: 'validation.money_password_simple' }),
);

/** A money password typed to authorise something: only its shape is checked here. */
export const moneyPasswordInputSchema = z
  .string({ error: 'validation.required' })
  .check(
    z.minLength(1, { error: 'validation.required', abort: true }),
    z.regex(/^\d{6}$/, { error: 'validation.money_password_format' }),
  );

export const setMoneyPasswordRequestSchema = z
  .strictObject({
    kind: moneyPasswordKindSchema,
    proof: z.enum(MONEY_PASSWORD_PROOFS, { error: 'validation.invalid_value' }),
    /** With `proof: login_password`. */
    loginPassword: z.optional(
      z.string().check(z.maxLength(PASSWORD_MAX_LENGTH, { error: 'validation.too_long' })),
    ),
    /** With `proof: code`: where the code was sent (the account's own address on that channel). */
    channel: z.optional(z.enum(CHANNELS, { error: 'validation.invalid_value' })),
    code: z.optional(codeSchema),
    password: newMoneyPasswordSchema,
    confirmPassword: z
      .string({ error: 'validation.required' })
      .check(z.maxLength(PASSWORD_MAX_LENGTH, { error: 'validation.too_long' })),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.proof === 'login_password' && !value.loginPassword) {
        ctx.addIssue({ code: 'custom', path: ['loginPassword'], message: 'validation.required' });
      }
      if (value.proof === 'code') {
        if (!value.channel)
          ctx.addIssue({ code: 'custom', path: ['channel'], message: 'validation.required' });
        if (!value.code)
          ctx.addIssue({ code: 'custom', path: ['code'], message: 'validation.required' });
      }
      if (value.password !== value.confirmPassword) {
        ctx.addIssue({
          code: 'custom',
          path: ['confirmPassword'],
          message: 'validation.passwords_mismatch',
        });
      }
    }),
  );
export type SetMoneyPasswordRequest = z.infer<typeof setMoneyPasswordRequestSchema>;

export const sendMoneyPasswordCodeRequestSchema = z.strictObject({
  kind: moneyPasswordKindSchema,
  channel: z.enum(CHANNELS, { error: 'validation.invalid_value' }),
});
export type SendMoneyPasswordCodeRequest = z.infer<typeof sendMoneyPasswordCodeRequestSchema>;

export const sendMoneyPasswordCodeResponseSchema = z.object({
  /** Where it went, masked ("ab***@example.com", "***0123"). */
  sentTo: z.string(),
  resendAfterS: z.number().check(z.int()),
  expiresInS: z.number().check(z.int()),
});

export const moneyPasswordStateSchema = z.object({
  set: z.boolean(),
  /** While locked after too many wrong attempts: when it opens again. */
  lockedUntil: z.nullable(z.iso.datetime()),
});

export const moneyPasswordStatusSchema = z.object({
  withdraw: moneyPasswordStateSchema,
  trade: moneyPasswordStateSchema,
  /** The account's own addresses a code can be sent to, masked. */
  contacts: z.array(z.object({ channel: z.enum(CHANNELS), masked: z.string() })),
});
export type MoneyPasswordStatus = z.infer<typeof moneyPasswordStatusSchema>;
