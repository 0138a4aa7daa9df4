import type { UserProfile } from '@tradewind/contract/user';
import { eq } from 'drizzle-orm';
import type { Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { pointsBalance } from '../points/service.ts';
import { users } from './tables.ts';

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
    creditScore: user.creditScore,
    inviteCode: user.inviteCode,
    verified: user.verified,
    createdAt: user.createdAt.toISOString(),
  };
}
