import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/min';
import * as z from 'zod/mini';
import {
  CHANNELS,
  type Channel,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  codeSchema,
} from './auth-basics.ts';

export {
  CHANNELS,
  CODE_LENGTH,
  type Channel,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type SendCodeResponse,
  type SessionResponse,
  codeSchema,
  sendCodeResponseSchema,
  sessionResponseSchema,
} from './auth-basics.ts';

/**
 * Sign-in schemas, shared by the server (validation, OpenAPI) and the web forms.
 * Messages are i18n keys (`validation.*` in `i18n/<lang>.json`); both sides translate them.
 */

/** What the sign-in screens ask codes for, to any address (`POST /api/v1/auth/codes`). */
export const AUTH_CODE_PURPOSES = ['register', 'reset_password'] as const;
export type AuthCodePurpose = (typeof AUTH_CODE_PURPOSES)[number];

/**
 * Every purpose a code serves. The money-password ones are sent only to the signed-in
 * user's own address (`POST /api/v1/money-passwords/codes`), never through the sign-in route.
 */
export const CODE_PURPOSES = [
  ...AUTH_CODE_PURPOSES,
  'withdraw_password',
  'trade_password',
  'bind_contact',
] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

export const INVITE_CODE_LENGTH = 8;
/** RFC 5321 caps a forward path at 254 characters. */
export const EMAIL_MAX_LENGTH = 254;

const EMAIL_PATTERN =
  /^[^\s@"<>()[\]\\,;:]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** Email: trimmed, lower-cased, a plain address (no display names, no quoted local parts). */
export function normalizeEmail(value: string): string | undefined {
  const email = value.trim().toLowerCase();
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email) ? email : undefined;
}

/** Phone: E.164 with the leading "+" (the form composes it from country code and number). */
export function normalizePhone(value: string): string | undefined {
  const raw = value.replace(/[\s()-]/g, '');
  if (!/^\+[1-9]\d{5,14}$/.test(raw) || !isValidPhoneNumber(raw)) return undefined;
  return parsePhoneNumberFromString(raw)?.number;
}

export function normalizeAccount(channel: Channel, account: string): string | undefined {
  return channel === 'email' ? normalizeEmail(account) : normalizePhone(account);
}

export const channelSchema = z.enum(CHANNELS, { error: 'validation.invalid_value' });

const accountText = z
  .string({ error: 'validation.required' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'validation.required' }),
    z.maxLength(EMAIL_MAX_LENGTH, { error: 'validation.too_long' }),
  );

export const passwordSchema = z
  .string({ error: 'validation.required' })
  .check(
    z.minLength(PASSWORD_MIN_LENGTH, { error: 'validation.password_too_short' }),
    z.maxLength(PASSWORD_MAX_LENGTH, { error: 'validation.too_long' }),
  );

export const inviteCodeSchema = z
  .string({ error: 'validation.required' })
  .check(
    z.trim(),
    z.toUpperCase(),
    z.regex(/^[A-Z0-9]{8}$/, { error: 'validation.invite_code_format' }),
  );

interface AccountFields {
  channel: Channel;
  account: string;
}

function checkAccount(value: AccountFields, ctx: z.core.$RefinementCtx) {
  if (normalizeAccount(value.channel, value.account) === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['account'],
      message: value.channel === 'email' ? 'validation.email_invalid' : 'validation.phone_invalid',
    });
  }
}

function checkPasswordsMatch(
  value: { password: string; confirmPassword: string },
  ctx: z.core.$RefinementCtx,
) {
  if (value.password !== value.confirmPassword) {
    ctx.addIssue({
      code: 'custom',
      path: ['confirmPassword'],
      message: 'validation.passwords_mismatch',
    });
  }
}

export const sendCodeRequestSchema = z
  .strictObject({
    channel: channelSchema,
    account: accountText,
    purpose: z.enum(AUTH_CODE_PURPOSES, { error: 'validation.invalid_value' }),
  })
  .check(z.superRefine(checkAccount));
export type SendCodeRequest = z.infer<typeof sendCodeRequestSchema>;

export const REGISTER_MODES = ['code', 'invite'] as const;
export type RegisterMode = (typeof REGISTER_MODES)[number];

/**
 * Register by verification code or by invitation code (spec §2 /Register). Both tabs prove the
 * address with the code sent to it: no account holds an address it has not proved (decision 0026).
 */
export const registerRequestSchema = z
  .strictObject({
    mode: z.enum(REGISTER_MODES, { error: 'validation.invalid_value' }),
    channel: channelSchema,
    account: accountText,
    code: z.optional(codeSchema),
    inviteCode: z.optional(inviteCodeSchema),
    password: passwordSchema,
    confirmPassword: z
      .string({ error: 'validation.required' })
      .check(z.maxLength(PASSWORD_MAX_LENGTH, { error: 'validation.too_long' })),
  })
  .check(
    z.superRefine((value, ctx) => {
      checkAccount(value, ctx);
      checkPasswordsMatch(value, ctx);
      // An empty code already fails its own format check; one left out entirely is asked for here.
      if (value.code === undefined) {
        ctx.addIssue({ code: 'custom', path: ['code'], message: 'validation.required' });
      }
      if (value.mode === 'invite' && !value.inviteCode) {
        ctx.addIssue({ code: 'custom', path: ['inviteCode'], message: 'validation.required' });
      }
    }),
  );
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const loginRequestSchema = z
  .strictObject({
    channel: channelSchema,
    account: accountText,
    password: z
      .string({ error: 'validation.required' })
      .check(
        z.minLength(1, { error: 'validation.required' }),
        z.maxLength(PASSWORD_MAX_LENGTH, { error: 'validation.too_long' }),
      ),
  })
  .check(z.superRefine(checkAccount));
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const resetPasswordRequestSchema = z
  .strictObject({
    channel: channelSchema,
    account: accountText,
    code: codeSchema,
    password: passwordSchema,
    confirmPassword: z
      .string({ error: 'validation.required' })
      .check(z.maxLength(PASSWORD_MAX_LENGTH, { error: 'validation.too_long' })),
  })
  .check(
    z.superRefine((value, ctx) => {
      checkAccount(value, ctx);
      checkPasswordsMatch(value, ctx);
    }),
  );
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

export const changePasswordRequestSchema = z
  .strictObject({
    oldPassword: z
      .string({ error: 'validation.required' })
      .check(
        z.minLength(1, { error: 'validation.required' }),
        z.maxLength(PASSWORD_MAX_LENGTH, { error: 'validation.too_long' }),
      ),
    password: passwordSchema,
    confirmPassword: z
      .string({ error: 'validation.required' })
      .check(z.maxLength(PASSWORD_MAX_LENGTH, { error: 'validation.too_long' })),
  })
  .check(z.superRefine(checkPasswordsMatch));
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const deviceSessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  ip: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  current: z.boolean(),
});
export type DeviceSession = z.infer<typeof deviceSessionSchema>;

export const sessionListSchema = z.object({ items: z.array(deviceSessionSchema) });

export const revokeSessionRequestSchema = z.strictObject({
  id: z
    .string({ error: 'validation.required' })
    .check(z.regex(/^\d{1,18}$/, { error: 'validation.invalid_value' })),
});
