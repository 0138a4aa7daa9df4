import { z } from 'zod';
import { LANGUAGES } from './languages.ts';

/** The signed-in user's own profile (spec §3 User). */
export const userProfileSchema = z.object({
  uid: z.string(),
  nickname: z.string(),
  /** A path under the image host (`imgBaseUrl`), or null for the default avatar. */
  avatar: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  emailVerified: z.boolean(),
  phoneVerified: z.boolean(),
  points: z.number().int(),
  creditScore: z.number().int(),
  inviteCode: z.string(),
  /** KYC passed. */
  verified: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/**
 * The interface language the user chose: messages (in-site, e-mail) are written in it when
 * they are created, so the server keeps it, not only the browser's `lang`.
 */
export const setLanguageRequestSchema = z.strictObject({ language: z.enum(LANGUAGES, { error: 'validation.invalid_value' }) });
export type SetLanguageRequest = z.infer<typeof setLanguageRequestSchema>;
