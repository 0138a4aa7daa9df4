import * as z from 'zod/mini';

/**
 * Points (spec §2 Home check-in, §3 User.points). Points are not money and never touch the
 * ledger, but they are kept the same way: an append-only list of events whose sum is the balance.
 */

/** Points one daily check-in gives. */
export const CHECKIN_POINTS = 10;
/** Extra points on every `STREAK_BONUS_EVERY`-th consecutive day. */
export const STREAK_BONUS_POINTS = 50;
export const STREAK_BONUS_EVERY = 7;

export const POINTS_EVENT_KINDS = [
  'checkin',
  'streak_bonus',
  'task_reward',
  'shop_purchase',
] as const;
export type PointsEventKind = (typeof POINTS_EVENT_KINDS)[number];

/** A UTC calendar day, `YYYY-MM-DD`: check-in days roll over at 00:00 UTC for everyone. */
export type UtcDay = string;

export function utcDay(at: Date): UtcDay {
  return at.toISOString().slice(0, 10);
}

/** The UTC day before `day`. */
export function previousUtcDay(day: UtcDay): UtcDay {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000));
}

/** The user's latest check-in: its day and the streak it made. */
export interface LastCheckin {
  day: UtcDay;
  streak: number;
}

/** The streak a check-in on `today` makes: one more than yesterday's, or 1 after a missed day. */
export function nextStreak(last: LastCheckin | null, today: UtcDay): number {
  return last && last.day === previousUtcDay(today) ? last.streak + 1 : 1;
}

/** Consecutive days ending today (or yesterday, while today's check-in is still open); 0 once a day was missed. */
export function currentStreak(last: LastCheckin | null, today: UtcDay): number {
  if (!last) return 0;
  return last.day === today || last.day === previousUtcDay(today) ? last.streak : 0;
}

export interface CheckinReward {
  checkin: number;
  bonus: number;
  total: number;
}

/** What a check-in that makes a streak of `streak` days gives: 10, plus 50 on every 7th day. */
export function checkinReward(streak: number): CheckinReward {
  const bonus = streak > 0 && streak % STREAK_BONUS_EVERY === 0 ? STREAK_BONUS_POINTS : 0;
  return { checkin: CHECKIN_POINTS, bonus, total: CHECKIN_POINTS + bonus };
}

export interface CheckinView {
  checkedInToday: boolean;
  streak: number;
  /** What today's check-in gives (or gave). */
  todayReward: number;
  /** Check-ins until the next streak bonus; 0 when today's check-in (still to do) earns it. */
  nextBonusInDays: number;
}

/** The check-in card's figures from the latest check-in. */
export function checkinView(last: LastCheckin | null, today: UtcDay): CheckinView {
  const checkedInToday = last?.day === today;
  const streak = currentStreak(last, today);
  const todayStreak = checkedInToday ? streak : nextStreak(last, today);
  const untilBonus = (STREAK_BONUS_EVERY - (todayStreak % STREAK_BONUS_EVERY)) % STREAK_BONUS_EVERY;
  return {
    checkedInToday,
    streak,
    todayReward: checkinReward(todayStreak).total,
    // Once today's bonus is collected the next one is a full cycle away.
    nextBonusInDays: checkedInToday && untilBonus === 0 ? STREAK_BONUS_EVERY : untilBonus,
  };
}

export const checkinStateSchema = z.object({
  checkedInToday: z.boolean(),
  /** Consecutive UTC days checked in, ending today or yesterday. */
  streak: z.number().check(z.int(), z.nonnegative()),
  /** The user's points balance: the sum of their points events. */
  points: z.number().check(z.int()),
  todayReward: z.number().check(z.int(), z.nonnegative()),
  nextBonusInDays: z.number().check(z.int(), z.nonnegative()),
  /** The rule, in the request's language. */
  rule: z.string(),
  /** The current UTC day, `YYYY-MM-DD`. */
  today: z.string(),
});
export type CheckinState = z.infer<typeof checkinStateSchema>;

export const checkinResultSchema = z.extend(checkinStateSchema, {
  awarded: z.object({
    checkin: z.number().check(z.int()),
    bonus: z.number().check(z.int()),
    total: z.number().check(z.int()),
  }),
});
export type CheckinResult = z.infer<typeof checkinResultSchema>;

export const POINTS_PAGE_MAX = 50;

export const pointsHistoryQuerySchema = z.strictObject({
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
        z.lte(POINTS_PAGE_MAX, { error: 'validation.too_big' }),
      ),
    20,
  ),
});
export type PointsHistoryQuery = z.infer<typeof pointsHistoryQuerySchema>;

export const pointsEventSchema = z.object({
  id: z.string(),
  kind: z.enum(POINTS_EVENT_KINDS),
  amount: z.number().check(z.int()),
  /** The UTC day checked in (check-ins and their bonus); null for other kinds. */
  day: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
});
export type PointsEvent = z.infer<typeof pointsEventSchema>;

export const pointsHistorySchema = z.object({
  items: z.array(pointsEventSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type PointsHistory = z.infer<typeof pointsHistorySchema>;
