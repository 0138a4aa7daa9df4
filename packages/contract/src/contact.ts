import * as z from 'zod/mini';
import {
  type Channel,
  channelSchema,
  codeSchema,
  EMAIL_MAX_LENGTH,
  normalizeAccount,
  PASSWORD_MAX_LENGTH,
} from './auth.ts';

/**
 * Binding or changing the account's email or phone (spec §2 /SetEmail, /SetPhone): a code
 * goes to the new address, and the change needs that code and the current login password.
 */

const accountText = z
  .string({ error: 'validation.required' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'validation.required' }),
    z.maxLength(EMAIL_MAX_LENGTH, { error: 'validation.too_long' }),
  );

function checkAccount(value: { channel: Channel; account: string }, ctx: z.core.$RefinementCtx) {
  if (normalizeAccount(value.channel, value.account) === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['account'],
      message: value.channel === 'email' ? 'validation.email_invalid' : 'validation.phone_invalid',
    });
  }
}

export const sendContactCodeRequestSchema = z
  .strictObject({ channel: channelSchema, account: accountText })
  .check(z.superRefine(checkAccount));
export type SendContactCodeRequest = z.infer<typeof sendContactCodeRequestSchema>;

export const sendContactCodeResponseSchema = z.object({
  resendAfterS: z.number().check(z.int()),
  expiresInS: z.number().check(z.int()),
});
export type SendContactCodeResponse = z.infer<typeof sendContactCodeResponseSchema>;

export const changeContactRequestSchema = z
  .strictObject({
    channel: channelSchema,
    account: accountText,
    code: codeSchema,
    password: z
      .string({ error: 'validation.required' })
      .check(
        z.minLength(1, { error: 'validation.required' }),
        z.maxLength(PASSWORD_MAX_LENGTH, { error: 'validation.too_long' }),
      ),
  })
  .check(z.superRefine(checkAccount));
export type ChangeContactRequest = z.infer<typeof changeContactRequestSchema>;
