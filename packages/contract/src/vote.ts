import { z } from 'zod';
import { idSchema } from './bank-card.ts';

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
  count: z.number().int().nonnegative(),
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
  total: z.number().int().nonnegative(),
  /** The option the requesting user chose, or null when they have not voted in this poll. */
  votedOptionId: z.string().nullable(),
});
export type VotePoll = z.infer<typeof votePollSchema>;

export const votePollListSchema = z.object({ items: z.array(votePollSchema) });
export type VotePollList = z.infer<typeof votePollListSchema>;

/** An option's share of the poll in whole percent (display only; counts stay exact). */
export function votePercent(count: number, total: number): number {
  return total === 0 ? 0 : Math.round((count * 100) / total);
}
