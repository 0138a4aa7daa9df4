import type { Channel } from '@tradewind/contract/auth';
import { eq } from 'drizzle-orm';
import type { Executor } from '#platform/db.ts';
import { users } from '../user/tables.ts';
import { revokeSessions } from './sessions.ts';

/**
 * An address belongs to whoever proves it (decision 0026). Every way an address reaches an
 * account (registration in both tabs, binding or changing a contact) proves it with a code;
 * accounts registered before that by invitation code may still hold an address nobody proved,
 * and such an address gives way to the first person who proves it.
 */

const columns = {
  email: { address: users.email, proved: users.emailVerified },
  phone: { address: users.phone, proved: users.phoneVerified },
} as const;

/** Who holds the address, and whether they proved it. */
export async function addressHolder(
  db: Executor,
  channel: Channel,
  target: string,
): Promise<{ userId: number; proved: boolean } | undefined> {
  const column = columns[channel];
  const [row] = await db
    .select({ userId: users.id, proved: column.proved })
    .from(users)
    .where(eq(column.address, target))
    .limit(1);
  return row;
}

export const FROZEN_ADDRESS_CLAIMED =
  'Its only address was never proved by this account; the address owner proved it and took it.';

/**
 * Inside the caller's transaction, after the caller consumed a code for `target`: takes the
 * address from an account that holds it without having proved it. That account is signed out
 * everywhere (whoever used the address there did not own it); one left without any address is
 * frozen, so no pending two-factor step or operator can bring it back without a review. Returns
 * 'proved' when the holder proved the address (the caller refuses), 'free' otherwise.
 * `exceptUserId`: the caller's own account, which keeps its address and proves it.
 */
export async function takeUnprovedAddress(
  tx: Executor,
  now: Date,
  input: { channel: Channel; target: string; exceptUserId?: number },
): Promise<'free' | 'proved'> {
  const column = columns[input.channel];
  const [holder] = await tx
    .select({
      id: users.id,
      proved: column.proved,
      email: users.email,
      phone: users.phone,
      frozenAt: users.frozenAt,
    })
    .from(users)
    .where(eq(column.address, input.target))
    .for('update');
  if (!holder || holder.id === input.exceptUserId) return 'free';
  if (holder.proved) return 'proved';
  const other = input.channel === 'email' ? holder.phone : holder.email;
  const cleared =
    input.channel === 'email'
      ? { email: null, emailVerified: false }
      : { phone: null, phoneVerified: false };
  await tx
    .update(users)
    .set({
      ...cleared,
      addressClaimedAt: now,
      updatedAt: now,
      ...(other === null && !holder.frozenAt
        ? { frozenAt: now, frozenReason: FROZEN_ADDRESS_CLAIMED }
        : {}),
    })
    .where(eq(users.id, holder.id));
  await revokeSessions(tx, { userId: holder.id, now, reason: 'address_claimed' });
  return 'free';
}
