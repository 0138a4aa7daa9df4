import * as z from 'zod/mini';

/**
 * The credit score (spec §1, §3 User): a published rule table applied to recorded events.
 * Every user starts at the base score; each event adds its rule's points (negative for a
 * penalty); the total is kept between CREDIT_MIN_SCORE and CREDIT_MAX_SCORE.
 * Nobody edits a score: it is recomputed from `credit_events`, which are append-only.
 */
export const CREDIT_BASE_SCORE = 100;
export const CREDIT_MIN_SCORE = 0;
export const CREDIT_MAX_SCORE = 200;

export const CREDIT_EVENT_KINDS = ['kyc_approved', 'loan_repaid_on_time', 'loan_overdue'] as const;
export type CreditEventKind = (typeof CREDIT_EVENT_KINDS)[number];

export interface CreditRule {
  kind: CreditEventKind;
  /** Points one event of this kind adds (negative: removes). */
  points: number;
  /** At most one event of this kind per user (e.g. identity is verified once). */
  oncePerUser: boolean;
  /** False while the feature that records this event does not exist yet (loans). */
  active: boolean;
}

export const CREDIT_RULES: readonly CreditRule[] = [
  { kind: 'kyc_approved', points: 20, oncePerUser: true, active: true },
  { kind: 'loan_repaid_on_time', points: 5, oncePerUser: false, active: true },
  { kind: 'loan_overdue', points: -20, oncePerUser: false, active: true },
];

export function creditRule(kind: CreditEventKind): CreditRule {
  const rule = CREDIT_RULES.find((r) => r.kind === kind);
  if (!rule) throw new Error(`no credit rule for ${kind}`);
  return rule;
}

/** The score: the base plus every recorded event's points, kept within the bounds. */
export function creditScoreOf(eventPointsTotal: number): number {
  return Math.min(
    CREDIT_MAX_SCORE,
    Math.max(CREDIT_MIN_SCORE, CREDIT_BASE_SCORE + eventPointsTotal),
  );
}

export const creditEventKindSchema = z.enum(CREDIT_EVENT_KINDS);

export const creditSchema = z.object({
  score: z.number().check(z.int()),
  base: z.number().check(z.int()),
  min: z.number().check(z.int()),
  max: z.number().check(z.int()),
  rules: z.array(
    z.object({
      kind: creditEventKindSchema,
      points: z.number().check(z.int()),
      oncePerUser: z.boolean(),
      active: z.boolean(),
    }),
  ),
  events: z.array(
    z.object({
      id: z.string(),
      kind: creditEventKindSchema,
      points: z.number().check(z.int()),
      createdAt: z.iso.datetime(),
    }),
  ),
});
export type Credit = z.infer<typeof creditSchema>;
