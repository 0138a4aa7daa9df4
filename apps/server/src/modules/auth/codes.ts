import crypto from 'node:crypto';
import type { Channel, CodePurpose } from '@tradewind/contract/auth';
import type { ErrorName } from '@tradewind/contract/errors';
import type { Language } from '@tradewind/contract/languages';
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { translate } from '#platform/i18n.ts';
import type { Notifier } from '#platform/notifier.ts';
import { verificationCodes } from './tables.ts';

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_RESEND_COOLDOWN_MS = 60_000;
/** Beyond the per-IP route limit: no address gets more than this many codes an hour. */
export const CODE_MAX_PER_TARGET_PER_HOUR = 10;

function hashCode(code: string, salt: string): string {
  return crypto.createHash('sha256').update(`${salt}:${code}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

export interface IssueCodeInput {
  channel: Channel;
  target: string;
  purpose: CodePurpose;
  ip: string;
  language: Language;
  /** False when the code must not actually go out (reset for an unknown address: same reply, nothing sent). */
  deliver: boolean;
}

/**
 * Creates a 6-digit code and sends it. Raises CODE_COOLDOWN within 60 s of the last
 * code for the same address and purpose, RATE_LIMITED past the hourly cap per address,
 * CHANNEL_UNAVAILABLE when nothing can deliver on that channel.
 */
export async function issueCode(
  deps: { db: Db; clock: Clock; notifier: Notifier },
  input: IssueCodeInput,
): Promise<void> {
  const { db, clock, notifier } = deps;
  if (!notifier.available(input.channel)) throw new AppError('CHANNEL_UNAVAILABLE');
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
  const now = clock.now();

  await db.transaction(async (tx) => {
    // One code at a time per address: concurrent requests queue here instead of both passing the cooldown check.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`code:${input.target}`}))`);
    const [latest] = await tx
      .select({ createdAt: verificationCodes.createdAt })
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.target, input.target),
          eq(verificationCodes.purpose, input.purpose),
        ),
      )
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    if (latest) {
      const waitMs = latest.createdAt.getTime() + CODE_RESEND_COOLDOWN_MS - now.getTime();
      if (waitMs > 0)
        throw new AppError('CODE_COOLDOWN', { seconds: Math.ceil(waitMs / 1000) }, 429);
    }
    const [recent] = await tx
      .select({ n: count() })
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.target, input.target),
          gt(verificationCodes.createdAt, new Date(now.getTime() - 3_600_000)),
        ),
      );
    if ((recent?.n ?? 0) >= CODE_MAX_PER_TARGET_PER_HOUR) throw new AppError('RATE_LIMITED');

    // A new code supersedes the older ones: only the newest can be used.
    await tx
      .update(verificationCodes)
      .set({ consumedAt: now })
      .where(
        and(
          eq(verificationCodes.target, input.target),
          eq(verificationCodes.purpose, input.purpose),
          isNull(verificationCodes.consumedAt),
        ),
      );
    const salt = crypto.randomBytes(16).toString('hex');
    await tx.insert(verificationCodes).values({
      channel: input.channel,
      target: input.target,
      purpose: input.purpose,
      codeHash: hashCode(code, salt),
      salt,
      ip: input.ip,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    });
  });

  if (!input.deliver) return;
  await notifier.send({
    channel: input.channel,
    to: input.target,
    subject: translate(input.language, 'notify.code_subject'),
    body: translate(input.language, 'notify.code_body', { code, minutes: CODE_TTL_MS / 60_000 }),
    language: input.language,
  });
}

/**
 * Checks a code against the newest one sent to the address for this purpose, inside the
 * caller's transaction. Returns the failure instead of throwing, so the caller can commit
 * the spent attempt before raising it; a matching code is consumed.
 */
export async function consumeCode(
  tx: Executor,
  now: Date,
  input: { target: string; purpose: CodePurpose; code: string },
): Promise<ErrorName | null> {
  const [row] = await tx
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.target, input.target),
        eq(verificationCodes.purpose, input.purpose),
        isNull(verificationCodes.consumedAt),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1)
    .for('update');
  if (!row) return 'CODE_INVALID';
  if (row.expiresAt.getTime() <= now.getTime()) return 'CODE_EXPIRED';
  if (row.attempts >= CODE_MAX_ATTEMPTS) return 'CODE_ATTEMPTS_EXCEEDED';
  if (!sameHash(hashCode(input.code, row.salt), row.codeHash)) {
    const attempts = row.attempts + 1;
    await tx.update(verificationCodes).set({ attempts }).where(eq(verificationCodes.id, row.id));
    return attempts >= CODE_MAX_ATTEMPTS ? 'CODE_ATTEMPTS_EXCEEDED' : 'CODE_INVALID';
  }
  await tx
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(eq(verificationCodes.id, row.id));
  return null;
}
