import type { Payee } from '@tradewind/contract/card-deposit';
import type { AdminPayeeAccount, PayeeAccountSave } from '@tradewind/contract/catalog';
import { asc, count, eq } from 'drizzle-orm';
import type { Config } from '#platform/config.ts';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { type CardDepositPayeeRow, cardDepositPayees } from './tables.ts';

/**
 * Card-deposit payee accounts, kept by operators (issue 7). Users are shown the first
 * enabled account by sort; with none enabled, card deposits are unavailable. Before any
 * account exists, the configured payee (CARD_PAYEE_*) or, in demo mode, the demo payee
 * applies, as before the console. A deposit copies its payee, so edits never change what
 * a user was told. Raises PAYEE_ACCOUNT_NOT_FOUND.
 */

const PAYEES_MAX = 100;

const adminPayeeView = (row: CardDepositPayeeRow): AdminPayeeAccount => ({
  id: String(row.id),
  bankName: row.bankName,
  accountName: row.accountName,
  accountNumber: row.accountNumber,
  phone: row.phone,
  enabled: row.enabled,
  sort: row.sort,
});

/** The payee shown to depositing users now, and whether it is the demo payee; null: unavailable. */
export async function currentPayee(
  db: Executor,
  config: Config,
): Promise<{ payee: Payee; demo: boolean } | null> {
  const [first] = await db
    .select()
    .from(cardDepositPayees)
    .where(eq(cardDepositPayees.enabled, true))
    .orderBy(asc(cardDepositPayees.sort), asc(cardDepositPayees.id))
    .limit(1);
  if (first)
    return {
      payee: {
        bank: first.bankName,
        cardNumber: first.accountNumber,
        name: first.accountName,
        phone: first.phone,
      },
      demo: false,
    };
  const [any] = await db.select({ n: count() }).from(cardDepositPayees);
  if ((any?.n ?? 0) > 0) return null;
  const { payee, demoPayee } = config.cardDeposit;
  return payee ? { payee, demo: demoPayee } : null;
}

/** A payee configured in the environment becomes the first account the console shows (once, when there is none). */
export async function seedConfiguredPayee(db: Db, now: Date, config: Config): Promise<void> {
  const { payee, demoPayee } = config.cardDeposit;
  if (!payee || demoPayee) return;
  await db.transaction(async (tx) => {
    await tx.execute('lock table card_deposit_payees in exclusive mode');
    const [any] = await tx.select({ n: count() }).from(cardDepositPayees);
    if ((any?.n ?? 0) > 0) return;
    await tx.insert(cardDepositPayees).values({
      bankName: payee.bank,
      accountName: payee.name,
      accountNumber: payee.cardNumber,
      phone: payee.phone,
      enabled: true,
      sort: 0,
      createdAt: now,
      updatedAt: now,
    });
  });
}

export async function listPayeeAccounts(db: Executor): Promise<AdminPayeeAccount[]> {
  const rows = await db
    .select()
    .from(cardDepositPayees)
    .orderBy(asc(cardDepositPayees.sort), asc(cardDepositPayees.id))
    .limit(PAYEES_MAX);
  return rows.map(adminPayeeView);
}

/** Creates (no `id`) or edits an account, audit-logged with before and after. */
export async function savePayeeAccount(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: PayeeAccountSave,
): Promise<AdminPayeeAccount> {
  const values = {
    bankName: input.bankName,
    accountName: input.accountName,
    accountNumber: input.accountNumber,
    phone: input.phone,
    enabled: input.enabled,
    sort: input.sort,
  };
  return db.transaction(async (tx) => {
    if (input.id === undefined) {
      const [created] = await tx
        .insert(cardDepositPayees)
        .values({ ...values, createdAt: now, updatedAt: now })
        .returning();
      if (!created) throw new Error('payee insert returned no row');
      await audit(tx, now, operator, {
        action: 'payee_account.create',
        targetType: 'payee_account',
        targetId: created.id,
        after: adminPayeeView(created),
      });
      return adminPayeeView(created);
    }
    const id = Number(input.id);
    const [before] = await tx
      .select()
      .from(cardDepositPayees)
      .where(eq(cardDepositPayees.id, id))
      .for('update');
    if (!before) throw new AppError('PAYEE_ACCOUNT_NOT_FOUND', {}, 404);
    const [after] = await tx
      .update(cardDepositPayees)
      .set({ ...values, updatedAt: now })
      .where(eq(cardDepositPayees.id, id))
      .returning();
    if (!after) throw new Error('payee update returned no row');
    await audit(tx, now, operator, {
      action: 'payee_account.update',
      targetType: 'payee_account',
      targetId: id,
      before: adminPayeeView(before),
      after: adminPayeeView(after),
    });
    return adminPayeeView(after);
  });
}
