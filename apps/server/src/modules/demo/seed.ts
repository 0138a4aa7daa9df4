import { and, eq } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import type { FileStore } from '#platform/files.ts';
import { seedDemoIdentity } from '../kyc/demo-identity.ts';
import { parseAmount } from '@tradewind/contract/money';
import { ASSETS, type AssetCode } from '@tradewind/contract/wallet';
import { hashPassword } from '../auth/passwords.ts';
import { seedDemoIeo } from './ieo-projects.ts';
import {
  DuplicateEntryError,
  type Ledger,
  externalAccount,
  userAccount,
} from '../ledger/service.ts';
import { users } from '../user/tables.ts';
import { seedDemoBonusCode } from '../invite/service.ts';
import { seedProducts } from '../mining/service.ts';
import { createMessages } from '../messages/service.ts';
import { userMessages } from '../messages/tables.ts';
import { seedDemoArticles } from '../news/demo-articles.ts';
import { seedDemoPolls } from '../vote/service.ts';
import { DEMO_MINING_PRODUCTS } from './mining-products.ts';
import { DEMO_LOAN_PRODUCTS } from './loan-products.ts';
import { seedLoanProducts } from '../loans/service.ts';

/** The documented demo account (README): exists only in demo mode. */
export const DEMO_ACCOUNT = {
  email: 'demo@tradewind.app',
  password: 'demo-pass-2026',
  inviteCode: 'DEMO2026',
} as const;

/** Demo funds, credited once from the `external:demo` account as a deposit (never a balance edit). */
const DEMO_FUNDS: { wallet: 'spot' | 'futures'; asset: AssetCode; amount: string }[] = [
  { wallet: 'spot', asset: 'USDT', amount: '10000' },
  { wallet: 'futures', asset: 'USDT', amount: '2000' },
  { wallet: 'spot', asset: 'BTC', amount: '0.25' },
  { wallet: 'spot', asset: 'ETH', amount: '3' },
];

/**
 * Creates the demo account and funds it, its welcome message, the demo polls, articles, bonus
 * code, miners, launchpad projects and loan products, once. With the file store (the server
 * passes it) the account's verified identity gets its placeholder document photos too.
 */
export async function seedDemo(deps: {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  fileStore?: FileStore;
}): Promise<void> {
  const now = deps.clock.now();
  await insertDemoUser(deps.db, now);
  await seedDemoPolls(deps.db, now);
  await seedDemoBonusCode(deps.db, now);
  await seedProducts(deps.db, now, DEMO_MINING_PRODUCTS);
  await seedDemoIeo(deps, now);
  await seedLoanProducts(deps.db, now, DEMO_LOAN_PRODUCTS);
  const [demo] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, DEMO_ACCOUNT.email))
    .limit(1);
  if (!demo) throw new Error('demo user missing after insert');
  if (deps.fileStore) await seedDemoIdentity({ ...deps, fileStore: deps.fileStore }, demo.id);
  await seedDemoArticles(deps.db, now);
  const [welcomed] = await deps.db
    .select({ id: userMessages.id })
    .from(userMessages)
    .where(and(eq(userMessages.userId, demo.id), eq(userMessages.kind, 'welcome')))
    .limit(1);
  if (!welcomed)
    await createMessages(deps.db, now, [
      { userId: demo.id, kind: 'welcome', ref: 'demo', link: null },
    ]);
  await deps.db
    .transaction(async (tx) => {
      await deps.ledger.post(tx, now, {
        kind: 'demo_funding',
        reference: `demo:funding:${demo.id}`,
        userId: demo.id,
        postings: DEMO_FUNDS.flatMap(({ wallet, asset, amount }) => {
          const minor = parseAmount(amount, ASSETS[asset].scale) as bigint;
          return [
            { account: externalAccount('demo', asset), amount: -minor, type: 'deposit' as const },
            {
              account: userAccount(demo.id, wallet, asset),
              amount: minor,
              type: 'deposit' as const,
            },
          ];
        }),
      });
    })
    .catch((error: unknown) => {
      if (!(error instanceof DuplicateEntryError)) throw error;
    });
}

async function insertDemoUser(db: Db, now: Date): Promise<void> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, DEMO_ACCOUNT.email))
    .limit(1);
  if (existing) return;
  await db
    .insert(users)
    .values({
      email: DEMO_ACCOUNT.email,
      emailVerified: true,
      // Trying Tradewind stays easy: the demo account has passed KYC (spec §5's gate).
      verified: true,
      passwordHash: await hashPassword(DEMO_ACCOUNT.password),
      nickname: 'Demo trader',
      inviteCode: DEMO_ACCOUNT.inviteCode,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
}
