import * as z from 'zod/mini';
import { LANGUAGES } from './languages.ts';

/** The signed-in user's own profile (spec §3 User). */
export const userProfileSchema = z.object({
  uid: z.string(),
  nickname: z.string(),
  /** A path under the image host (`imgBaseUrl`), or null for the default avatar. */
  avatar: z.nullable(z.string()),
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  emailVerified: z.boolean(),
  phoneVerified: z.boolean(),
  points: z.number().check(z.int()),
  creditScore: z.number().check(z.int()),
  inviteCode: z.string(),
  /** KYC passed. */
  verified: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/**
 * Nickname rules: 2 to 20 characters after trimming, letters and digits of any script,
 * and single spaces, "_", "-", "." between them. No control, format or invisible
 * characters, so a nickname cannot impersonate another by look-alike padding.
 */
export const NICKNAME_MIN_LENGTH = 2;
export const NICKNAME_MAX_LENGTH = 20;
const NICKNAME_PATTERN = /^[\p{L}\p{N}](?:[\p{L}\p{N}\p{M}_.-]| (?! ))*$/u;

export const nicknameSchema = z.pipe(
  z.pipe(
    z.string({ error: 'validation.required' }),
    z.transform((value) => value.normalize('NFC').trim()),
  ),
  z.string().check(
    z.refine((value) => value.length > 0, { error: 'validation.required', abort: true }),
    z.refine((value) => [...value].length >= NICKNAME_MIN_LENGTH, {
      error: 'validation.nickname_too_short',
      abort: true,
    }),
    z.refine((value) => [...value].length <= NICKNAME_MAX_LENGTH, {
      error: 'validation.nickname_too_long',
      abort: true,
    }),
    z.refine((value) => NICKNAME_PATTERN.test(value), { error: 'validation.nickname_chars' }),
  ),
);

/** `POST /api/v1/user/profile`: change the nickname, the avatar (an uploaded `avatar` file), or both. */
export const updateProfileRequestSchema = z
  .strictObject({
    nickname: z.optional(nicknameSchema),
    avatarFileId: z.optional(
      z
        .string({ error: 'validation.required' })
        .check(z.regex(/^\d{1,18}$/, { error: 'validation.file_id' })),
    ),
  })
  .check(
    z.refine((value) => value.nickname !== undefined || value.avatarFileId !== undefined, {
      error: 'validation.required',
      path: ['nickname'],
    }),
  );
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;

/** Side of the square an avatar is cropped and resized to. */
export const AVATAR_SIDE_PX = 256;

/**
 * The interface language the user chose: messages (in-site, e-mail) are written in it when
 * they are created, so the server keeps it, not only the browser's `lang`.
 */
export const setLanguageRequestSchema = z.strictObject({
  language: z.enum(LANGUAGES, { error: 'validation.invalid_value' }),
});
export type SetLanguageRequest = z.infer<typeof setLanguageRequestSchema>;
