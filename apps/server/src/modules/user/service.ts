import { verify } from '@node-rs/argon2';
import { type Channel, normalizeAccount } from '@tradewind/contract/auth';
import type {
  ChangeContactRequest,
  SendContactCodeRequest,
  SendContactCodeResponse,
} from '@tradewind/contract/contact';
import type { ErrorName } from '@tradewind/contract/errors';
import type { Language } from '@tradewind/contract/languages';
import type { UpdateProfileRequest, UserProfile } from '@tradewind/contract/user';
import { eq } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { publicFileName, requireOwnFile } from '#platform/files.ts';
import { translate } from '#platform/i18n.ts';
import type { Notifier } from '#platform/notifier.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import { addressHolder, takeUnprovedAddress } from '../auth/address-claims.ts';
import { CODE_RESEND_COOLDOWN_MS, CODE_TTL_MS, consumeCode, issueCode } from '../auth/codes.ts';
import { creditScore } from '../credit/service.ts';
import { pointsBalance } from '../points/service.ts';
import { users } from './tables.ts';

/**
 * The user's own profile: nickname, avatar, and the email or phone they sign in with.
 * Errors: UNAUTHORIZED, FILE_NOT_FOUND / FILE_WRONG_PURPOSE (field `avatarFileId`),
 * CONTACT_UNCHANGED and CONTACT_IN_USE (field `account`), PASSWORD_INCORRECT (field
 * `password`), the CODE_* errors (field `code`), and issueCode's CODE_COOLDOWN,
 * RATE_LIMITED, CHANNEL_UNAVAILABLE.
 */

export interface UserDeps {
  db: Db;
  clock: Clock;
  notifier: Notifier;
}

const CONTACT_KEYS = { email: 'users_email_key', phone: 'users_phone_key' } as const;

export async function getProfile(db: Executor, userId: number): Promise<UserProfile> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError('UNAUTHORIZED');
  return {
    uid: String(user.id),
    nickname: user.nickname,
    avatar: user.avatar,
    email: user.email,
    phone: user.phone,
    emailVerified: user.emailVerified,
    phoneVerified: user.phoneVerified,
    // The users.points column predates the points events and stays 0; the balance is their sum.
    points: await pointsBalance(db, userId),
    creditScore: await creditScore(db, userId),
    inviteCode: user.inviteCode,
    verified: user.verified,
    createdAt: user.createdAt.toISOString(),
  };
}

/**
 * Changes the nickname and/or the avatar. The avatar is an upload of purpose `avatar`
 * (cropped square, re-encoded, public) that the user made themselves; the profile then
 * names it by its public file name under the image host.
 */
export async function updateProfile(
  deps: { db: Db; clock: Clock },
  userId: number,
  input: UpdateProfileRequest,
): Promise<UserProfile> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const changes: Partial<typeof users.$inferInsert> = { updatedAt: now };
    if (input.nickname !== undefined) changes.nickname = input.nickname;
    if (input.avatarFileId !== undefined) {
      const file = await requireOwnFile(tx, {
        ownerId: userId,
        id: input.avatarFileId,
        purpose: 'avatar',
        field: 'avatarFileId',
      });
      changes.avatar = publicFileName(file.storageKey);
    }
    await tx.update(users).set(changes).where(eq(users.id, userId));
  });
  return getProfile(deps.db, userId);
}

function targetOf(channel: Channel, account: string): string {
  const target = normalizeAccount(channel, account);
  // The request schema already refused a malformed address: reaching this is a bug.
  if (!target) throw new Error(`unchecked ${channel} address reached the service`);
  return target;
}

/**
 * Refuses the user's current address once proved, and one another account proved (the unique
 * index decides races later). The user's own unproved address may be proved here; another
 * account's unproved one goes to whoever proves it (decision 0026).
 */
async function checkNewAddress(
  db: Executor,
  userId: number,
  channel: Channel,
  target: string,
): Promise<void> {
  const [current] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!current) throw new AppError('UNAUTHORIZED');
  const holder = await addressHolder(db, channel, target);
  if (holder?.userId === userId && holder.proved)
    throw new AppError('CONTACT_UNCHANGED', {}, 422, 'account');
  if (holder && holder.userId !== userId && holder.proved)
    throw new AppError('CONTACT_IN_USE', {}, 409, 'account');
}

/** Sends a code to the new address, after checking it is free and not the current one. */
export async function sendContactCode(
  deps: UserDeps,
  userId: number,
  input: SendContactCodeRequest,
  meta: { ip: string; language: Language },
): Promise<SendContactCodeResponse> {
  const target = targetOf(input.channel, input.account);
  await checkNewAddress(deps.db, userId, input.channel, target);
  await issueCode(deps, {
    channel: input.channel,
    target,
    purpose: 'bind_contact',
    ip: meta.ip,
    language: meta.language,
    deliver: true,
  });
  return { resendAfterS: CODE_RESEND_COOLDOWN_MS / 1000, expiresInS: CODE_TTL_MS / 1000 };
}

export function maskAddress(channel: Channel, target: string): string {
  if (channel === 'phone') return `***${target.slice(-4)}`;
  const [local = '', domain = ''] = target.split('@');
  return `${local.slice(0, 2)}***@${domain}`;
}

/**
 * Binds or changes the email or phone: the login password re-authenticates the user, the
 * code proves they hold the new address. The new address is marked verified. The old
 * address, if there was one, is told of the change (with the new one masked), so a
 * hijacked session cannot move an account away silently. Two accounts racing for one
 * address are decided by the unique index: the loser gets CONTACT_IN_USE and keeps its
 * old address.
 */
export async function changeContact(
  deps: UserDeps,
  userId: number,
  input: ChangeContactRequest,
  language: Language,
): Promise<UserProfile> {
  const target = targetOf(input.channel, input.account);
  await checkNewAddress(deps.db, userId, input.channel, target);
  const [user] = await deps.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw new AppError('UNAUTHORIZED');
  if (!(await verify(user.passwordHash, input.password)))
    throw new AppError('PASSWORD_INCORRECT', {}, 422, 'password');

  const now = deps.clock.now();
  let outcome: { failure: ErrorName } | { previous: string | null };
  try {
    outcome = await deps.db.transaction(async (tx) => {
      const failure = await consumeCode(tx, now, {
        target,
        purpose: 'bind_contact',
        code: input.code,
      });
      // A wrong code returns here, so its counted attempt commits before the error is raised.
      if (failure) return { failure };
      const taken = await takeUnprovedAddress(tx, now, {
        channel: input.channel,
        target,
        exceptUserId: userId,
      });
      if (taken === 'proved') return { failure: 'CONTACT_IN_USE' as const };
      const [row] = await tx
        .select({ email: users.email, phone: users.phone })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      const changes =
        input.channel === 'email'
          ? { email: target, emailVerified: true, updatedAt: now }
          : { phone: target, phoneVerified: true, updatedAt: now };
      await tx.update(users).set(changes).where(eq(users.id, userId));
      return { previous: row?.[input.channel] ?? null };
    });
  } catch (error) {
    if (isUniqueViolation(error, CONTACT_KEYS[input.channel]))
      throw new AppError('CONTACT_IN_USE', {}, 409, 'account');
    throw error;
  }
  if ('failure' in outcome) {
    if (outcome.failure === 'CONTACT_IN_USE')
      throw new AppError('CONTACT_IN_USE', {}, 409, 'account');
    throw new AppError(outcome.failure, {}, 422, 'code');
  }

  const old = outcome.previous;
  if (old && old !== target) {
    const what = translate(language, `notify.contact_${input.channel}`);
    // The change is made; a notice that fails to go out must not report it as failed.
    await deps.notifier
      .send({
        channel: input.channel,
        to: old,
        subject: translate(language, 'notify.contact_changed_subject', { what }),
        body: translate(language, 'notify.contact_changed_body', {
          what,
          uid: userId,
          to: maskAddress(input.channel, target),
          time: now.toISOString().slice(0, 16).replace('T', ' '),
        }),
      })
      .catch(() => undefined);
  }
  return getProfile(deps.db, userId);
}
