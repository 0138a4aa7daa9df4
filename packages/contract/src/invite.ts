import * as z from 'zod/mini';
import { amountSchema } from './money.ts';
import { ASSET_CODES, type AssetCode, assetSchema } from './wallet.ts';

/**
 * Invitation codes and bonus codes (spec §1, /Invite). A user's invitation code is fixed at
 * registration; the share link is the register page with the code prefilled. A bonus code,
 * created by an operator, credits a reward through the ledger (entry type `reward`, from
 * `house:rewards`), within its limits: total redemptions, per user, a time window and,
 * optionally, verified (KYC passed) users only.
 */

/** The register page reads the inviter's code from this query parameter. */
export const INVITE_QUERY_PARAM = 'invite';

/** The link a user shares: `origin` is where the app is served. */
export function inviteLink(origin: string, inviteCode: string): string {
  return `${origin.replace(/\/+$/, '')}/Register?${INVITE_QUERY_PARAM}=${encodeURIComponent(inviteCode)}`;
}

/** The invitee list is a page of at most this many, newest first. */
export const INVITEES_PAGE_MAX = 50;

/**
 * How an invitee's contact is shown to the inviter: enough to recognise a friend, not
 * enough to reach them. `ab***@example.com`, `+1415***0123`.
 */
export function maskContact(contact: string): string {
  const at = contact.lastIndexOf('@');
  if (at > 0) return `${contact.slice(0, Math.min(2, at))}***${contact.slice(at)}`;
  if (contact.length <= 6) return `***${contact.slice(-2)}`;
  return `${contact.slice(0, 5)}***${contact.slice(-4)}`;
}

export const inviteSummarySchema = z.object({
  inviteCode: z.string(),
  /** People who registered with this user's code. */
  invitedCount: z.number().check(z.int(), z.nonnegative()),
  /** Of those, how many passed identity verification. */
  verifiedCount: z.number().check(z.int(), z.nonnegative()),
});
export type InviteSummary = z.infer<typeof inviteSummarySchema>;

export const inviteesQuerySchema = z.strictObject({
  /** The `nextCursor` of the previous page. */
  cursor: z.optional(
    z.string().check(z.regex(/^\d{1,18}$/, { error: 'validation.invalid_value' })),
  ),
  limit: z._default(
    z.coerce
      .number({ error: 'validation.invalid_type' })
      .check(
        z.int({ error: 'validation.invalid_value' }),
        z.gte(1, { error: 'validation.too_small' }),
        z.lte(INVITEES_PAGE_MAX, { error: 'validation.too_big' }),
      ),
    20,
  ),
});
export type InviteesQuery = z.infer<typeof inviteesQuerySchema>;

export const inviteeSchema = z.object({
  /** Masked email or phone (`maskContact`). */
  contact: z.string(),
  joinedAt: z.iso.datetime(),
  verified: z.boolean(),
});
export type Invitee = z.infer<typeof inviteeSchema>;

export const inviteesSchema = z.object({
  items: z.array(inviteeSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type Invitees = z.infer<typeof inviteesSchema>;

/** Letters, digits and dashes; stored upper-case, so users may type it in any case. */
export const bonusCodeSchema = z
  .string({ error: 'validation.required' })
  .check(
    z.trim(),
    z.toUpperCase(),
    z.regex(/^[A-Z0-9][A-Z0-9-]{2,30}[A-Z0-9]$/, { error: 'validation.bonus_code_format' }),
  );

export const redeemBonusCodeRequestSchema = z.strictObject({ code: bonusCodeSchema });
export type RedeemBonusCodeRequest = z.infer<typeof redeemBonusCodeRequestSchema>;

export const redeemBonusCodeResultSchema = z.object({
  code: z.string(),
  asset: z.string(),
  /** The reward credited to the spot account. */
  amount: z.string(),
  /** "Congratulations on receiving a reward", in the request's language. */
  message: z.string(),
});
export type RedeemBonusCodeResult = z.infer<typeof redeemBonusCodeResultSchema>;

/** Limits an operator may set; bigger values are typos. */
export const BONUS_CODE_MAX_REDEMPTIONS = 1_000_000;
export const BONUS_CODE_MAX_PER_USER = 100;
export const BONUS_CODE_LIST_MAX = 100;

export const createBonusCodeRequestSchema = z
  .strictObject({
    code: bonusCodeSchema,
    asset: assetSchema,
    /** Credited per redemption, a decimal string in the asset's scale. */
    amount: amountSchema,
    maxRedemptions: z.coerce
      .number({ error: 'validation.invalid_type' })
      .check(
        z.int({ error: 'validation.invalid_value' }),
        z.gte(1, { error: 'validation.too_small' }),
        z.lte(BONUS_CODE_MAX_REDEMPTIONS, { error: 'validation.too_big' }),
      ),
    perUserLimit: z._default(
      z.coerce
        .number({ error: 'validation.invalid_type' })
        .check(
          z.int({ error: 'validation.invalid_value' }),
          z.gte(1, { error: 'validation.too_small' }),
          z.lte(BONUS_CODE_MAX_PER_USER, { error: 'validation.too_big' }),
        ),
      1,
    ),
    /** Defaults to now. */
    startsAt: z.optional(z.iso.datetime({ error: 'validation.invalid_value' })),
    expiresAt: z.iso.datetime({ error: 'validation.invalid_value' }),
    verifiedOnly: z._default(z.boolean({ error: 'validation.invalid_type' }), false),
    reason: z.optional(
      z.string().check(z.trim(), z.maxLength(500, { error: 'validation.too_long' })),
    ),
  })
  .check(
    z.refine(
      (value) => !value.startsAt || Date.parse(value.expiresAt) > Date.parse(value.startsAt),
      { path: ['expiresAt'], error: 'validation.invalid_value' },
    ),
  );
export type CreateBonusCodeRequest = z.infer<typeof createBonusCodeRequestSchema>;

export const bonusCodeViewSchema = z.object({
  id: z.string(),
  code: z.string(),
  asset: z.enum(ASSET_CODES as [AssetCode, ...AssetCode[]]),
  amount: z.string(),
  maxRedemptions: z.number().check(z.int()),
  perUserLimit: z.number().check(z.int()),
  redeemedCount: z.number().check(z.int()),
  startsAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  verifiedOnly: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type BonusCodeView = z.infer<typeof bonusCodeViewSchema>;

export const bonusCodeListSchema = z.object({ items: z.array(bonusCodeViewSchema) });
