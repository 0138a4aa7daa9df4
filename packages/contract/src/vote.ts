import * as z from 'zod/mini';
import { idSchema } from './ids.ts';
import { LANGUAGES } from './languages.ts';
import { localizedTextViewSchema } from './messages.ts';

/** Polls (spec /Vote; entity Vote: vote count). One vote per user per poll (spec §4). */

/** Where a poll stands at the server's clock; the i18n key is `vote.status.<value>` in the web app. */
export const VOTE_POLL_STATUSES = ['upcoming', 'open', 'ended'] as const;
export const votePollStatusSchema = z.enum(VOTE_POLL_STATUSES);
export type VotePollStatus = z.infer<typeof votePollStatusSchema>;

/** How long an ended poll stays in the list, so voters can see the result. */
export const VOTE_ENDED_VISIBLE_DAYS = 30;
/** The list is short by nature; this bounds it. */
export const VOTE_LIST_MAX = 50;
/** A poll has at most this many options. */
export const VOTE_OPTIONS_MAX = 10;

export const castVoteRequestSchema = z.strictObject({ pollId: idSchema, optionId: idSchema });
export type CastVoteRequest = z.infer<typeof castVoteRequestSchema>;

export const voteOptionSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** Ballots for this option, counted from the ballots themselves. */
  count: z.number().check(z.int(), z.nonnegative()),
});
export type VoteOption = z.infer<typeof voteOptionSchema>;

export const votePollSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: votePollStatusSchema,
  startsAt: z.iso.datetime(),
  endsAt: z.iso.datetime(),
  options: z.array(voteOptionSchema),
  total: z.number().check(z.int(), z.nonnegative()),
  /** The option the requesting user chose, or null when they have not voted in this poll. */
  votedOptionId: z.nullable(z.string()),
});
export type VotePoll = z.infer<typeof votePollSchema>;

export const votePollListSchema = z.object({ items: z.array(votePollSchema) });
export type VotePollList = z.infer<typeof votePollListSchema>;

/** An option's share of the poll in whole percent (display only; counts stay exact). */
export function votePercent(count: number, total: number): number {
  return total === 0 ? 0 : Math.round((count * 100) / total);
}

/* Operators (the console's Polls page). */

const pollText = (max: number) =>
  z.strictObject({
    en: z
      .string({ error: 'validation.required' })
      .check(
        z.trim(),
        z.minLength(1, { error: 'validation.required' }),
        z.maxLength(max, { error: 'validation.too_long' }),
      ),
    ...Object.fromEntries(
      LANGUAGES.filter((l) => l !== 'en').map((l) => [
        l,
        z.optional(z.string().check(z.trim(), z.maxLength(max, { error: 'validation.too_long' }))),
      ]),
    ),
  });

export const VOTE_TITLE_MAX = 160;
export const VOTE_DESCRIPTION_MAX = 1000;
export const VOTE_OPTION_MAX = 80;

export const votePollCreateSchema = z
  .strictObject({
    title: pollText(VOTE_TITLE_MAX),
    description: pollText(VOTE_DESCRIPTION_MAX),
    options: z
      .array(z.strictObject({ label: pollText(VOTE_OPTION_MAX) }))
      .check(
        z.minLength(2, { error: 'validation.invalid_value' }),
        z.maxLength(VOTE_OPTIONS_MAX, { error: 'validation.invalid_value' }),
      ),
    /** Absent: opens at once. */
    startsAt: z.optional(z.iso.datetime({ error: 'validation.invalid_value' })),
    endsAt: z.iso.datetime({ error: 'validation.invalid_value' }),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.startsAt && Date.parse(value.endsAt) <= Date.parse(value.startsAt))
        ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'validation.invalid_value' });
    }),
  );
export type VotePollCreate = z.infer<typeof votePollCreateSchema>;

export const votePollCloseSchema = z.strictObject({
  id: idSchema,
  reason: z.optional(
    z.string().check(z.trim(), z.maxLength(500, { error: 'validation.too_long' })),
  ),
});

export const votePollAdminSchema = z.object({
  id: z.string(),
  title: localizedTextViewSchema,
  description: localizedTextViewSchema,
  status: votePollStatusSchema,
  startsAt: z.iso.datetime(),
  endsAt: z.iso.datetime(),
  options: z.array(
    z.object({
      id: z.string(),
      label: localizedTextViewSchema,
      count: z.number().check(z.int(), z.nonnegative()),
    }),
  ),
  total: z.number().check(z.int(), z.nonnegative()),
  createdAt: z.iso.datetime(),
});
export type VotePollAdmin = z.infer<typeof votePollAdminSchema>;
export const votePollAdminListSchema = z.object({ items: z.array(votePollAdminSchema) });
