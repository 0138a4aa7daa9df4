import { sql } from 'drizzle-orm';
import { DEMO_LOAN_PRODUCTS } from '../src/modules/demo/loan-products.ts';
import { DEMO_MINING_PRODUCTS } from '../src/modules/demo/mining-products.ts';
import { seedLoanProducts } from '../src/modules/loans/service.ts';
import { createMessages } from '../src/modules/messages/service.ts';
import { seedProducts } from '../src/modules/mining/service.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  PASSWORD,
  T0,
  type TestApp,
  call,
  fund,
  idempotencyKey,
  TRADE_PIN,
  operatorToken,
  type registerUser,
  setTradePassword,
  verifyUser,
} from './harness.ts';
import { pngImage, upload } from './uploads.ts';

/**
 * A user's own objects, made through the API where there is one: the ownership matrix and
 * the generated bad-input suite arrange their owners with these.
 */

export type User = Awaited<ReturnType<typeof registerUser>>;

export async function uploadFor(
  t: TestApp,
  user: User,
  purpose: 'kyc' | 'card_deposit' | 'avatar' | 'loan',
): Promise<string> {
  const reply = await upload(t.app, user.token, { purpose, data: await pngImage(48, 32) });
  if (reply.body.code !== 0) throw new Error(`upload failed: ${JSON.stringify(reply.body)}`);
  return reply.body.data.id;
}

/** A message for the owner. */
export async function ownerMessage(t: TestApp, owner: User): Promise<string> {
  const [created] = await createMessages(t.database.db, new Date(T0), [
    { userId: Number(owner.uid), kind: 'welcome', ref: `bola-${owner.uid}` },
  ]);
  if (!created) throw new Error('no message created');
  return created.message.id;
}

/** The id of the demo's 100 USDT miner, seeded on first use. */
export async function demoMiner(t: TestApp): Promise<string> {
  await seedProducts(t.database.db, new Date(T0), DEMO_MINING_PRODUCTS);
  const [row] = await queryRows<{ id: string }>(
    t.database.db,
    sql`select id::text from mining_products where slug = 'demo-s19-xp'`,
  );
  if (!row) throw new Error('demo miner missing');
  return row.id;
}

export const PIN = TRADE_PIN;

/**
 * Withdrawals: a verified owner (an approved identity in the name "Mei Lin", `verifyUser`)
 * with a withdrawal password, a trading password (both PIN) and 100 USDT.
 */
export async function withdrawalOwner(t: TestApp, owner: User) {
  await verifyUser(t, Number(owner.uid));
  await setTradePassword(t, Number(owner.uid));
  await call(t.app, 'POST', '/api/v1/money-passwords', {
    token: owner.token,
    body: {
      kind: 'withdraw',
      proof: 'login_password',
      loginPassword: PASSWORD,
      password: PIN,
      confirmPassword: PIN,
    },
  });
  await fund(t, Number(owner.uid), 100_000_000n);
}

export async function ownerWithdrawal(t: TestApp, owner: User): Promise<string> {
  await withdrawalOwner(t, owner);
  const reply = await call<{ id: string }>(t.app, 'POST', '/api/v1/withdrawals', {
    token: owner.token,
    headers: { 'idempotency-key': idempotencyKey() },
    body: {
      asset: 'USDT',
      network: 'TRC20',
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      amount: '20',
      password: PIN,
    },
  });
  if (reply.body.code !== 0) throw new Error(JSON.stringify(reply.body));
  return reply.body.data.id;
}

export async function demoLoanProduct(t: TestApp): Promise<string> {
  await seedLoanProducts(t.database.db, t.clock.now(), DEMO_LOAN_PRODUCTS);
  const [row] = await queryRows<{ id: string }>(
    t.database.db,
    sql`select id::text from loan_products where slug = 'demo-quick-loan'`,
  );
  return String(row?.id);
}

export async function loanPhotos(t: TestApp, owner: User) {
  return {
    frontFileId: await uploadFor(t, owner, 'loan'),
    backFileId: await uploadFor(t, owner, 'loan'),
    holdingFileId: await uploadFor(t, owner, 'loan'),
  };
}

/** A verified owner's disbursed loan of 100 USDT for 7 days (approved and disbursed by an operator). */
export async function ownerLoan(t: TestApp, owner: User): Promise<string> {
  await verifyUser(t, Number(owner.uid));
  const applied = await call<{ id: string }>(t.app, 'POST', '/api/v1/loans', {
    token: owner.token,
    body: {
      productId: await demoLoanProduct(t),
      amount: '100',
      periodDays: 7,
      ...(await loanPhotos(t, owner)),
    },
  });
  if (applied.body.code !== 0) throw new Error(JSON.stringify(applied.body));
  const { token } = await operatorToken(t, 'reviewer');
  const id = applied.body.data.id;
  for (const [url, body] of [
    ['/api/admin/v1/loans/decide', { id, decision: 'approve' }],
    ['/api/admin/v1/loans/disburse', { id }],
  ] as const) {
    const reply = await call(t.app, 'POST', url, { token, body });
    if (reply.body.code !== 0) throw new Error(JSON.stringify(reply.body));
  }
  return id;
}

export async function ownerCard(
  t: TestApp,
  owner: User,
  card: Partial<Record<'bankName' | 'accountNumber' | 'holderName', string>> = {},
): Promise<string> {
  const reply = await call<{ id: string }>(t.app, 'POST', '/api/v1/bank-cards', {
    token: owner.token,
    body: {
      bankName: 'Harbour Bank',
      accountNumber: '6222021234567890',
      branchName: 'Central',
      branchCode: 'HBK-001',
      holderName: 'Mei Lin',
      ...card,
    },
  });
  if (reply.body.code !== 0) throw new Error(JSON.stringify(reply.body));
  return reply.body.data.id;
}
