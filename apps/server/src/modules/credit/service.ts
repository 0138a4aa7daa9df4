import {
  CREDIT_BASE_SCORE,
  CREDIT_EVENT_KINDS,
  CREDIT_MAX_SCORE,
  CREDIT_MIN_SCORE,
  CREDIT_RULES,
  type Credit,
  type CreditEventKind,
  creditRule,
  creditScoreOf,
} from '@tradewind/contract/credit';
import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '#platform/db.ts';
import { creditEvents } from './tables.ts';

/**
 * The credit score (spec §1): base plus recorded events, by the published rule table.
 * Nothing here raises a domain error. The score is computed on every read rather than
 * cached in `users`: a user has a handful of events, the sum is one indexed query, and a
 * cache would be a second place that could disagree with the events.
 */

/** At most this many events are listed on the credit screen (the score counts them all). */
export const CREDIT_EVENTS_SHOWN = 50;

/**
 * Records one event inside the caller's transaction (the one that writes its cause, e.g.
 * the KYC approval), with the points its rule gives now. A second event for the same cause
 * (or a second KYC approval) changes nothing. Returns whether it was recorded.
 */
export async function recordCreditEvent(
  tx: Executor,
  now: Date,
  input: { userId: number; kind: CreditEventKind; ref: string },
): Promise<boolean> {
  const rule = creditRule(input.kind);
  const inserted = await tx
    .insert(creditEvents)
    .values({
      userId: input.userId,
      kind: input.kind,
      points: rule.points,
      ref: input.ref,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: creditEvents.id });
  return inserted.length > 0;
}

export async function creditScore(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${creditEvents.points}), 0)` })
    .from(creditEvents)
    .where(eq(creditEvents.userId, userId));
  return creditScoreOf(Number(row?.total ?? 0));
}

function toKind(kind: string): CreditEventKind {
  if (!(CREDIT_EVENT_KINDS as readonly string[]).includes(kind))
    throw new Error(`unknown credit event kind ${kind}`);
  return kind as CreditEventKind;
}

/** The user's score, the rules that make it, and their own events (newest first). */
export async function creditView(db: Executor, userId: number): Promise<Credit> {
  const rows = await db
    .select()
    .from(creditEvents)
    .where(eq(creditEvents.userId, userId))
    .orderBy(desc(creditEvents.id))
    .limit(CREDIT_EVENTS_SHOWN);
  return {
    score: await creditScore(db, userId),
    base: CREDIT_BASE_SCORE,
    min: CREDIT_MIN_SCORE,
    max: CREDIT_MAX_SCORE,
    rules: CREDIT_RULES.map((rule) => ({ ...rule })),
    events: rows.map((row) => ({
      id: String(row.id),
      kind: toKind(row.kind),
      points: row.points,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}
