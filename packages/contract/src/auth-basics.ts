import * as z from 'zod/mini';

/**
 * The parts of the sign-in schemas that other schemas share (money passwords, withdrawals,
 * the two-factor step) and the sign-in replies, apart from auth.ts so that those do not carry
 * the phone-number metadata auth.ts needs: a page that only asks for a code, or the sign-in
 * page before it validates, does not download it.
 */

export const CHANNELS = ['email', 'phone'] as const;
export type Channel = (typeof CHANNELS)[number];

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const CODE_LENGTH = 6;

export const codeSchema = z
  .string({ error: 'validation.required' })
  .check(z.regex(/^\d{6}$/, { error: 'validation.code_format' }));

export const sendCodeResponseSchema = z.object({
  /** Seconds until another code may be requested for the same address. */
  resendAfterS: z.number().check(z.int()),
  /** Seconds the code stays valid. */
  expiresInS: z.number().check(z.int()),
});
export type SendCodeResponse = z.infer<typeof sendCodeResponseSchema>;

export const sessionResponseSchema = z.object({
  token: z.string(),
  uid: z.string(),
  expiresAt: z.iso.datetime(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
