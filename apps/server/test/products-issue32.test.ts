import type { IeoApplication, IeoProject } from '@tradewind/contract/ieo';
import type { Loan, LoanProduct } from '@tradewind/contract/loans';
import type { MiningProduct, MiningRental } from '@tradewind/contract/mining';
import type { ProductSwitches } from '@tradewind/contract/operator';
import type { Balances } from '@tradewind/contract/wallet';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOAN_PRODUCTS } from '../src/modules/demo/loan-products.ts';
import { DEMO_MINING_PRODUCTS } from '../src/modules/demo/mining-products.ts';
import { runDueIeo } from '../src/modules/ieo/service.ts';
import { checkLedger } from '../src/modules/ledger/invariants.ts';
import { seedLoanProducts } from '../src/modules/loans/service.ts';
import { seedProducts } from '../src/modules/mining/service.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  operatorSession,
  operatorToken,
  registerUser,
} from './harness.ts';
import { pngImage, upload } from './uploads.ts';

/**
 * Issue 32: every IEO event of a user writes them an in-site message (accepted, allocated,
 * refunded, listed, cancelled with the operator's reason), /IEOHis carries a cancellation's
 * reason, the mining products reply says whether rentals start at once, and operators can
 * switch loans, mining and IEO off (shared settings, two admins): then new actions are
 * refused with a localized error and nothing changes, while what users hold still settles.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const USDT = 1_000_000n;

let t: TestApp;
let loanProduct: LoanProduct;
let miner: MiningProduct;

beforeAll(async () => {
  t = await createTestApp({ env: { SESSION_TTL_DAYS: '365' } });
  await seedLoanProducts(t.database.db, t.clock.now(), DEMO_LOAN_PRODUCTS);
  await seedProducts(t.database.db, t.clock.now(), DEMO_MINING_PRODUCTS);
  const user = await registerUser(t.app);
  loanProduct = (
    await call<{ items: LoanProduct[] }>(t.app, 'GET', '/api/v1/loans/products', {
      token: user.token,
    })
  ).body.data.items[0] as LoanProduct;
  miner = (
    await call<{ items: MiningProduct[] }>(t.app, 'GET', '/api/v1/mining/products', {
      token: user.token,
    })
  ).body.data.items.find((p) => p.minInvestment === '100') as MiningProduct;
  expect(miner).toBeDefined();
  await operatorToken(t, 'admin', 'issue32-admin-a');
  await operatorToken(t, 'admin', 'issue32-admin-b');
});
/** Operator sessions end after 30 idle minutes of the test clock: a fresh one for each use. */
const adminA = () => operatorSession(t, 'issue32-admin-a');
const adminB = () => operatorSession(t, 'issue32-admin-b');
afterEach(async () => {
  expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof registerUser>>;

async function verifiedUser(usdt: bigint, language = 'en'): Promise<User> {
  const user = await registerUser(t.app);
  await t.database.db.execute(
    sql`update users set verified = true, language = ${language} where id = ${Number(user.uid)}`,
  );
  if (usdt > 0n) await fund(t, Number(user.uid), usdt * USDT);
  return user;
}

async function spot(user: User, asset = 'USDT') {
  const reply = await call<Balances>(t.app, 'GET', '/api/v1/wallet/balances', {
    token: user.token,
  });
  const row = reply.body.data.spot.find((b) => b.asset === asset);
  return { available: row?.available ?? '0', locked: row?.locked ?? '0' };
}

const messages = (user: User, prefix: string) =>
  queryRows<{ kind: string; language: string; title: string; body: string; link: string }>(
    t.database.db,
    sql`select kind, language, title, body, link from user_messages
        where user_id = ${Number(user.uid)} and kind like ${`${prefix}%`} order by id`,
  );

/* IEO */

async function adminIeo<T = unknown>(action: string, body: unknown) {
  const { token } = await operatorToken(t, 'catalog');
  return call<T>(t.app, 'POST', `/api/admin/v1/ieo/${action}`, { token, body });
}

let projectCounter = 0;
async function createProject(overrides: Record<string, unknown> = {}): Promise<IeoProject> {
  projectCounter += 1;
  const now = t.clock.now().getTime();
  const at = (ms: number) => new Date(ms).toISOString();
  const reply = await adminIeo<IeoProject>('create', {
    slug: `issue32-${projectCounter}-${now}`,
    token: `MSG${projectCounter}${String(now % 1000).padStart(3, '0')}`.slice(0, 10),
    tokenName: `Message token ${projectCounter}`,
    name: { en: `Project ${projectCounter}` },
    description: { en: 'A test project' },
    supply: '100',
    unitPrice: '1',
    priceMin: '1',
    priceMax: '2',
    perUserCap: '100',
    startsAt: at(now - HOUR),
    endsAt: at(now + DAY),
    listsAt: at(now + 2 * DAY),
    announcedAt: at(now - 2 * HOUR),
    ...overrides,
  });
  expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
  return reply.body.data;
}

const subscribe = (user: User, projectId: string, price: string, quantity: string, lang?: string) =>
  call<IeoApplication>(t.app, 'POST', '/api/v1/ieo/subscribe', {
    token: user.token,
    lang,
    headers: { 'idempotency-key': idempotencyKey() },
    body: { projectId, price, quantity },
  });

const runDue = () =>
  runDueIeo(
    { db: t.database.db, ledger: t.app.services.ledger, hub: t.app.services.hub },
    t.clock.now(),
  );

describe('IEO in-site messages', () => {
  it('accepted, allocated (with refund), refunded and listed each write the user a message in their language', async () => {
    // 100 tokens; alice and bob commit 100 USDT each, carol 1 USDT: weights 100 : 100 : 1.
    const project = await createProject();
    const alice = await verifiedUser(200n);
    const bob = await verifiedUser(200n, 'de');
    expect((await subscribe(alice, project.id, '1', '100')).body.code).toBe(0);
    expect((await subscribe(bob, project.id, '1', '100')).body.code).toBe(0);

    expect(await messages(alice, 'ieo.')).toEqual([
      {
        kind: 'ieo.subscribed',
        language: 'en',
        title: 'IEO application accepted',
        body: `Your application for 100 ${project.token} at 1 USDT per token was accepted. 100 USDT is locked in your spot account until the allocation.`,
        link: '/IEOHis',
      },
    ]);
    expect((await messages(bob, 'ieo.'))[0]?.title).toBe('IEO-Zeichnung angenommen');

    t.clock.advance(DAY);
    expect((await runDue()).allocated).toContain(Number(project.id));
    // 100 tokens pro rata 100 : 100 → 50 each; 50 USDT each comes back.
    const allocated = await messages(alice, 'ieo.allocated');
    expect(allocated).toHaveLength(1);
    expect(allocated[0]?.body).toBe(
      `You were allocated 50 ${project.token} at 1 USDT per token and paid 50 USDT. 50 USDT of your commitment was refunded to your spot account. The tokens arrive in your spot account at listing.`,
    );
    expect(await spot(alice)).toEqual({ available: '150', locked: '0' });
    expect((await messages(bob, 'ieo.allocated'))[0]?.body).toContain(
      `Ihnen wurden 50 ${project.token} zu 1 USDT pro Token zugeteilt`,
    );

    t.clock.advance(DAY);
    expect((await runDue()).listed).toContain(Number(project.id));
    expect(await messages(alice, 'ieo.listed')).toEqual([
      expect.objectContaining({
        title: 'IEO tokens credited',
        body: `${project.token} is listed: 50 ${project.token} have been credited to your spot account and are yours to use.`,
      }),
    ]);
    expect((await spot(alice, project.token)).available).toBe('50');
  });

  it('an application that receives nothing is told its commitment was refunded', async () => {
    // Per-user cap 1 and supply 1: the first applicant takes the only token.
    const project = await createProject({ supply: '1', perUserCap: '1' });
    const first = await verifiedUser(10n);
    const second = await verifiedUser(10n);
    expect((await subscribe(first, project.id, '2', '1')).body.code).toBe(0);
    expect((await subscribe(second, project.id, '1', '1')).body.code).toBe(0);
    t.clock.advance(DAY);
    await runDue();
    expect(await messages(second, 'ieo.refunded')).toEqual([
      expect.objectContaining({
        title: 'IEO commitment refunded',
        body: `No ${project.token} could be allocated to your application. Your commitment of 1 USDT was refunded to your spot account.`,
      }),
    ]);
    expect(await spot(second)).toEqual({ available: '10', locked: '0' });
    expect(await messages(first, 'ieo.refunded')).toEqual([]);
  });

  it('a cancellation tells each applicant the reason, and /IEOHis shows it', async () => {
    const project = await createProject();
    const alice = await verifiedUser(100n);
    const hans = await verifiedUser(100n, 'de');
    expect((await subscribe(alice, project.id, '1', '30')).body.code).toBe(0);
    expect((await subscribe(hans, project.id, '1', '20')).body.code).toBe(0);
    const reason = 'The issuer withdrew the token. Funds refunded.';
    expect((await adminIeo('cancel', { id: project.id, reason })).body.code).toBe(0);

    expect(await messages(alice, 'ieo.cancelled')).toEqual([
      {
        kind: 'ieo.cancelled',
        language: 'en',
        title: 'IEO cancelled',
        body: `The ${project.token} sale was cancelled and your commitment of 30 USDT was refunded to your spot account.\nReason: ${reason}`,
        link: '/IEOHis',
      },
    ]);
    expect((await messages(hans, 'ieo.cancelled'))[0]?.body).toBe(
      `Der Verkauf von ${project.token} wurde abgesagt und Ihre Zusage von 20 USDT wurde auf Ihr Spot-Konto erstattet.\nGrund: ${reason}`,
    );
    const history = await call<{ items: IeoApplication[] }>(
      t.app,
      'GET',
      '/api/v1/ieo/applications',
      { token: alice.token },
    );
    expect(history.body.data.items.find((a) => a.projectId === project.id)?.cancelReason).toBe(
      reason,
    );
    expect(await spot(alice)).toEqual({ available: '100', locked: '0' });
  });

  it('a cancellation without a reason is refused and changes nothing', async () => {
    const project = await createProject();
    const alice = await verifiedUser(10n);
    expect((await subscribe(alice, project.id, '1', '5')).body.code).toBe(0);
    const reply = await adminIeo('cancel', { id: project.id, reason: '   ' });
    expect(reply.body.code).toBe(422);
    expect(await spot(alice)).toEqual({ available: '5', locked: '5' });
    expect(await messages(alice, 'ieo.cancelled')).toEqual([]);
  });
});

/* Mining: the sheet's wording follows the review setting */

async function setShared(name: string, value: string) {
  const requested = await call<{ id: string }>(t.app, 'POST', '/api/admin/v1/settings/shared', {
    token: await adminA(),
    body: { name, value, reason: 'issue 32 test' },
  });
  expect(requested.body.code, JSON.stringify(requested.body)).toBe(0);
  const decided = await call(t.app, 'POST', '/api/admin/v1/settings/shared/decide', {
    token: await adminB(),
    body: { id: requested.body.data.id, decision: 'approve' },
  });
  expect(decided.body.code, JSON.stringify(decided.body)).toBe(0);
}

const miningProducts = async (user: User) =>
  (
    await call<{ items: MiningProduct[]; autoApprove: boolean }>(
      t.app,
      'GET',
      '/api/v1/mining/products',
      { token: user.token },
    )
  ).body.data;

describe('mining products say whether rentals start at once', () => {
  it('autoApprove follows MINING_AUTO_APPROVE', async () => {
    const user = await verifiedUser(0n);
    expect((await miningProducts(user)).autoApprove).toBe(false);
    await setShared('MINING_AUTO_APPROVE', 'true');
    expect((await miningProducts(user)).autoApprove).toBe(true);
    await setShared('MINING_AUTO_APPROVE', 'false');
    expect((await miningProducts(user)).autoApprove).toBe(false);
  });
});

/* Product switches */

const switches = async (user: User) =>
  (await call<ProductSwitches>(t.app, 'GET', '/api/v1/products', { token: user.token })).body.data;

async function loanPhotos(user: User) {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const reply = await upload(t.app, user.token, { purpose: 'loan', data: await pngImage() });
    expect(reply.body.code).toBe(0);
    ids.push(reply.body.data.id);
  }
  return { frontFileId: ids[0], backFileId: ids[1], holdingFileId: ids[2] };
}

const applyForLoan = async (user: User, lang?: string) =>
  call<Loan>(t.app, 'POST', '/api/v1/loans', {
    token: user.token,
    lang,
    body: {
      productId: loanProduct.id,
      amount: loanProduct.minAmount,
      periodDays: loanProduct.periods[0],
      ...(await loanPhotos(user)),
    },
  });

const rentMiner = (user: User, lang?: string) =>
  call<MiningRental>(t.app, 'POST', '/api/v1/mining/rentals', {
    token: user.token,
    lang,
    body: { productId: miner.id, quantity: 1, amount: miner.unitPrice },
    headers: { 'idempotency-key': idempotencyKey() },
  });

const count = async (table: 'loans' | 'mining_rentals' | 'ieo_applications', user: User) =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from ${sql.identifier(table)} where user_id = ${Number(user.uid)}`,
      )
    )[0]?.n,
  );

describe('product switches', () => {
  it('every product is on by default', async () => {
    const user = await verifiedUser(0n);
    expect(await switches(user)).toEqual({ loans: true, mining: true, ieo: true, shop: true });
    const listed = await call<{ items: { name: string; value: string }[] }>(
      t.app,
      'GET',
      '/api/admin/v1/settings/shared',
      { token: await adminA() },
    );
    expect(
      listed.body.data.items
        .filter((i) => i.name.startsWith('PRODUCT_'))
        .map((i) => [i.name, i.value]),
    ).toEqual([
      ['PRODUCT_LOANS_ENABLED', 'true'],
      ['PRODUCT_MINING_ENABLED', 'true'],
      ['PRODUCT_IEO_ENABLED', 'true'],
      ['PRODUCT_SHOP_ENABLED', 'true'],
    ]);
  });

  it('loans off: "Loan feature under development" in the user\'s language, no loan; on again: it works', async () => {
    const user = await verifiedUser(0n);
    await setShared('PRODUCT_LOANS_ENABLED', 'false');
    expect((await switches(user)).loans).toBe(false);
    const refused = await applyForLoan(user);
    expect(refused.body).toMatchObject({ code: 3800, message: 'Loan feature under development' });
    const german = await applyForLoan(user, 'de');
    expect(german.body).toMatchObject({ code: 3800, message: 'Kreditfunktion in Entwicklung' });
    expect(await count('loans', user)).toBe(0);

    await setShared('PRODUCT_LOANS_ENABLED', 'true');
    const applied = await applyForLoan(user);
    expect(applied.body.code, JSON.stringify(applied.body)).toBe(0);
    expect(await count('loans', user)).toBe(1);
  });

  it('mining off: renting is refused and nothing is paid or locked; on again: it works', async () => {
    const user = await verifiedUser(500n);
    await setShared('PRODUCT_MINING_ENABLED', 'false');
    expect((await switches(user)).mining).toBe(false);
    const refused = await rentMiner(user, 'zh_CN');
    expect(refused.body).toMatchObject({ code: 3801, message: '矿机功能开发中' });
    expect(await spot(user)).toEqual({ available: '500', locked: '0' });
    expect(await count('mining_rentals', user)).toBe(0);

    await setShared('PRODUCT_MINING_ENABLED', 'true');
    const rented = await rentMiner(user);
    expect(rented.body.code, JSON.stringify(rented.body)).toBe(0);
    expect(await count('mining_rentals', user)).toBe(1);
  });

  it('IEO off: subscribing is refused and nothing is locked; commitments made before still settle', async () => {
    const project = await createProject();
    const early = await verifiedUser(50n);
    const late = await verifiedUser(50n);
    expect((await subscribe(early, project.id, '1', '10')).body.code).toBe(0);

    await setShared('PRODUCT_IEO_ENABLED', 'false');
    expect((await switches(late)).ieo).toBe(false);
    const refused = await subscribe(late, project.id, '1', '10');
    expect(refused.body).toMatchObject({ code: 3802, message: 'IEO feature under development' });
    expect(await spot(late)).toEqual({ available: '50', locked: '0' });
    expect(await count('ieo_applications', late)).toBe(0);

    // The allocation of what was committed before the switch runs as usual.
    t.clock.advance(DAY);
    expect((await runDue()).allocated).toContain(Number(project.id));
    expect(await spot(early)).toEqual({ available: '40', locked: '0' });
    expect(await messages(early, 'ieo.allocated')).toHaveLength(1);

    await setShared('PRODUCT_IEO_ENABLED', 'true');
    const next = await createProject();
    expect((await subscribe(late, next.id, '1', '10')).body.code).toBe(0);
    expect(await spot(late)).toEqual({ available: '40', locked: '10' });
  });
});
