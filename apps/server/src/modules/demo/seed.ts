import { eq } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { hashPassword } from '../auth/service.ts';
import { users } from '../user/tables.ts';

/** The documented demo account (README): exists only in demo mode. */
export const DEMO_ACCOUNT = { email: 'demo@tradewind.app', password: 'demo-pass-2026', inviteCode: 'DEMO2026' } as const;

/** Creates the demo account once; later releases fund it through the ledger. */
export async function seedDemo(deps: { db: Db; clock: Clock }): Promise<void> {
  const [existing] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ACCOUNT.email)).limit(1);
  if (existing) return;
  const now = deps.clock.now();
  await deps.db
    .insert(users)
    .values({
      email: DEMO_ACCOUNT.email,
      emailVerified: true,
      passwordHash: await hashPassword(DEMO_ACCOUNT.password),
      nickname: 'Demo trader',
      inviteCode: DEMO_ACCOUNT.inviteCode,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
}
