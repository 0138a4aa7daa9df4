import type { Language } from '@tradewind/contract/languages';
import {
  CHECKIN_POINTS,
  type CheckinResult,
  type CheckinState,
  type LastCheckin,
  POINTS_EVENT_KINDS,
  type PointsEventKind,
  type PointsHistory,
  type PointsHistoryQuery,
  STREAK_BONUS_EVERY,
  STREAK_BONUS_POINTS,
  checkinReward,
  checkinView,
  currentStreak,
  nextStreak,
  utcDay,
} from '@tradewind/contract/points';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { translate } from '#platform/i18n.ts';
import { users } from '../user/tables.ts';
import { type PointsEventRow, pointsEvents } from './tables.ts';

/**
 * Points and the daily check-in (spec §2 Home check-in). Raises CHECKIN_ALREADY_DONE.
 * "Today" is the UTC day of the injected clock's `now`.
 */

/** The user's points balance: the sum of their events. */
export async function pointsBalance(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${pointsEvents.amount}), 0)` })
    .from(pointsEvents)
    .where(eq(pointsEvents.userId, userId));
  return Number(row?.total ?? 0);
}

async function lastCheckin(db: Executor, userId: number): Promise<LastCheckin | null> {
  const [row] = await db
    .select({ day: pointsEvents.day, streak: pointsEvents.streak })
    .from(pointsEvents)
    .where(and(eq(pointsEvents.userId, userId), eq(pointsEvents.kind, 'checkin')))
    .orderBy(desc(pointsEvents.day))
    .limit(1);
  if (!row?.day || row.streak === null) return null;
  return { day: row.day, streak: row.streak };
}

export function ruleText(language: Language): string {
  return translate(language, 'points.rule', {
    checkin: CHECKIN_POINTS,
    every: STREAK_BONUS_EVERY,
    bonus: STREAK_BONUS_POINTS,
  });
}

export async function checkinState(
  db: Executor,
  now: Date,
  userId: number,
  language: Language,
): Promise<CheckinState> {
  const today = utcDay(now);
  const [last, points] = [await lastCheckin(db, userId), await pointsBalance(db, userId)];
  return { ...checkinView(last, today), points, rule: ruleText(language), today };
}

/**
 * Checks the user in for today's UTC day: a 'checkin' event, plus a 'streak_bonus' event in
 * the same transaction on every 7th consecutive day. The partial unique index on
 * (user_id, day) decides concurrent attempts: exactly one inserts, the others change nothing.
 */
export async function checkIn(
  db: Db,
  now: Date,
  userId: number,
  language: Language,
): Promise<CheckinResult> {
  const today = utcDay(now);
  const awarded = await db.transaction(async (tx) => {
    const streak = nextStreak(await lastCheckin(tx, userId), today);
    const reward = checkinReward(streak);
    const inserted = await tx
      .insert(pointsEvents)
      .values({
        userId,
        kind: 'checkin',
        amount: reward.checkin,
        day: today,
        streak,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: pointsEvents.id });
    if (inserted.length === 0) throw new AppError('CHECKIN_ALREADY_DONE', {}, 409);
    if (reward.bonus > 0) {
      await tx
        .insert(pointsEvents)
        .values({ userId, kind: 'streak_bonus', amount: reward.bonus, day: today, createdAt: now });
    }
    return reward;
  });
  return { ...(await checkinState(db, now, userId, language)), awarded };
}

/** The longest run of consecutive check-in days the user ever made. */
export async function bestStreak(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ best: sql<number | null>`max(${pointsEvents.streak})` })
    .from(pointsEvents)
    .where(and(eq(pointsEvents.userId, userId), eq(pointsEvents.kind, 'checkin')));
  return Number(row?.best ?? 0);
}

/** The current streak: consecutive days ending today or yesterday. */
export async function streakNow(db: Executor, now: Date, userId: number): Promise<number> {
  return currentStreak(await lastCheckin(db, userId), utcDay(now));
}

/**
 * Locks the user's row for the rest of `tx`, so points spent and awarded by other requests of
 * the same user queue behind this one and a balance read here stays true until it commits.
 */
export async function lockPoints(tx: Executor, userId: number): Promise<number> {
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!user) throw new Error(`no user ${userId}`);
  return pointsBalance(tx, userId);
}

/** Appends one points event (a reward or, negative, a purchase) and returns its id. */
export async function addPointsEvent(
  tx: Tx,
  now: Date,
  event: { userId: number; kind: Exclude<PointsEventKind, 'checkin'>; amount: number },
): Promise<number> {
  if (!Number.isInteger(event.amount) || event.amount === 0)
    throw new Error('a points event is a non-zero whole number');
  const [row] = await tx
    .insert(pointsEvents)
    .values({ userId: event.userId, kind: event.kind, amount: event.amount, createdAt: now })
    .returning({ id: pointsEvents.id });
  if (!row) throw new Error('points event insert returned no row');
  return row.id;
}

function toKind(kind: string): PointsEventKind {
  if (!(POINTS_EVENT_KINDS as readonly string[]).includes(kind))
    throw new Error(`unknown points event kind ${kind}`);
  return kind as PointsEventKind;
}

function toEvent(row: PointsEventRow) {
  return {
    id: String(row.id),
    kind: toKind(row.kind),
    amount: row.amount,
    day: row.day,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The user's own points events, newest first, a page at a time (`cursor` = last id of the previous page). */
export async function pointsHistory(
  db: Executor,
  userId: number,
  query: PointsHistoryQuery,
): Promise<PointsHistory> {
  const rows = await db
    .select()
    .from(pointsEvents)
    .where(
      and(
        eq(pointsEvents.userId, userId),
        query.cursor ? lt(pointsEvents.id, Number(query.cursor)) : undefined,
      ),
    )
    .orderBy(desc(pointsEvents.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toEvent),
    nextCursor: rows.length > query.limit && last ? String(last.id) : null,
  };
}
