import { z } from 'zod';

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
