import { eq, lte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { type Params, translate } from '#platform/i18n.ts';
import type { Language } from '@tradewind/contract/languages';
import { Sweeper } from '#platform/sweeper.ts';
import { signInThrottles } from './tables.ts';

/**
 * Sign-in throttling per account (ARCHITECTURE §8), beside the per-address limit: a guesser
 * with many addresses gets the same few tries as one with a single address.
 *
 * Every attempt counts when it starts, before its password is checked, and a right password
 * clears the count. Up to `FREE_ATTEMPTS` attempts in a row go through at once; from the
 * `FREE_ATTEMPTS`-th on, each one makes the next wait: 30 s, 1, 2, 4, 8 min, then 15 min for
 * every further one. An attempt during a wait is refused without checking the password, so
 * the right password still works once the wait is over, and a guesser learns nothing from
 * it. The row lock makes concurrent attempts queue: 40 wrong passwords sent at once from 40
 * addresses evaluate exactly `FREE_ATTEMPTS`.
 *
 * The count lives in the database, so every process of the same install shares it.
 */
export const FREE_ATTEMPTS = 5;
export const FIRST_WAIT_S = 30;
export const MAX_WAIT_S = 15 * 60;
/** A day without attempts forgets the count (the prune removes the row). */
export const FORGET_AFTER_MS = 24 * 3_600_000;

/** How long the attempt after the `attempts`-th waits (0: none). */
export function waitAfterS(attempts: number): number {
  if (attempts < FREE_ATTEMPTS) return 0;
  return Math.min(MAX_WAIT_S, FIRST_WAIT_S * 2 ** (attempts - FREE_ATTEMPTS));
}

/** The subject of a user's sign-in: the address typed, whether or not an account has it. */
export const userSubject = (channel: string, target: string) => `user:${channel}:${target}`;
export const operatorSubject = (username: string) => `operator:${username.toLowerCase()}`;

/** An admitted attempt: its number in the current run of attempts (1 after a success). */
export interface Attempt {
  number: number;
}

/** A refusal: the wait is still running (429 with `Retry-After`). */
export class SignInThrottledError extends AppError {
  constructor(readonly waitS: number) {
    super('SIGN_IN_THROTTLED', {}, 429);
    this.retryAfterS = waitS;
  }

  /** The wait in seconds up to two minutes, then in whole minutes (rounded up), in the reader's units. */
  override paramsFor(language: Language): Params {
    const wait =
      this.waitS >= 120
        ? translate(language, 'security.wait_minutes', { n: Math.ceil(this.waitS / 60) })
        : translate(language, 'security.wait_seconds', { n: this.waitS });
    return { wait };
  }
}

/**
 * Admits one attempt for `subject` at `now`, or throws SignInThrottledError while a wait
 * runs. Call it before checking the password; call `clearAttempts` when the password was right.
 */
export async function admitAttempt(db: Db, subject: string, now: Date): Promise<Attempt> {
  const outcome = await db.transaction(async (tx): Promise<Attempt | { waitS: number }> => {
    await tx
      .insert(signInThrottles)
      .values({ subject, failures: 0, lastAttemptAt: now })
      .onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(signInThrottles)
      .where(eq(signInThrottles.subject, subject))
      .for('update');
    if (!row)
      throw new Error(`sign-in throttle row for ${subject} vanished inside its transaction`);
    if (row.lockedUntil && row.lockedUntil.getTime() > now.getTime()) {
      return { waitS: Math.ceil((row.lockedUntil.getTime() - now.getTime()) / 1000) };
    }
    const forgotten = now.getTime() - row.lastAttemptAt.getTime() >= FORGET_AFTER_MS;
    const number = (forgotten ? 0 : row.failures) + 1;
    const waitS = waitAfterS(number);
    await tx
      .update(signInThrottles)
      .set({
        failures: number,
        lastAttemptAt: now,
        lockedUntil: waitS > 0 ? new Date(now.getTime() + waitS * 1000) : null,
      })
      .where(eq(signInThrottles.subject, subject));
    return { number };
  });
  if ('waitS' in outcome) throw new SignInThrottledError(outcome.waitS);
  return outcome;
}

/** The password was right: the count starts over. */
export async function clearAttempts(db: Db, subject: string): Promise<void> {
  await db.delete(signInThrottles).where(eq(signInThrottles.subject, subject));
}

/** Forgets runs of attempts that ended a day ago (their waits are long over). Returns how many went. */
export async function pruneThrottles(db: Db, now: Date): Promise<number> {
  const removed = await db
    .delete(signInThrottles)
    .where(lte(signInThrottles.lastAttemptAt, new Date(now.getTime() - FORGET_AFTER_MS)))
    .returning({ subject: signInThrottles.subject });
  return removed.length;
}

/** An hourly prune of forgotten runs (ROLE `all` or `worker`): the table holds only the last day's attempts. */
export function registerSignInThrottlePrune(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock },
): void {
  const sweeper = new Sweeper(
    'sign-in throttle prune',
    () => pruneThrottles(deps.db, deps.clock.now()),
    3_600_000,
    app.log,
  );
  app.addHook('onReady', async () => sweeper.start());
  app.addHook('onClose', () => sweeper.stop());
}
