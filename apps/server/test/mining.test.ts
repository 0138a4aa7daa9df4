import type {
  MiningProduct,
  MiningRental,
  MiningRentalDetail,
  MiningRentalList,
} from '@tradewind/contract/mining';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MINING_PRODUCTS } from '../src/modules/demo/mining-products.ts';
import { checkLedger } from '../src/modules/ledger/invariants.ts';
import type { OpsContext } from '../src/modules/operator/ops-commands.ts';
import { OPS_COMMANDS } from '../src/ops-commands.ts';
import { createOperator, findOperator } from '../src/modules/operator/service.ts';
import { createMessages } from '../src/modules/messages/service.ts';
import { seedProducts } from '../src/modules/mining/service.ts';
import { MiningPayoutWorker } from '../src/modules/mining/worker.ts';
import { loadConfig } from '../src/platform/config.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  operatorSession,
  operatorToken,
  registerReadyUser,
  registerUser,
  testConfig,
} from './harness.ts';

/**
 * Cloud-miner rental (spec /Mining, /MiningHis, /MiningDetail; miner statuses 0–3):
 * renting pays from spot USDT through the ledger; approval starts it, rejection refunds it;
 * each day pays the fixed yield exactly once, whatever the workers do; at the end the
 * principal comes back and the rental completes.
 */

const DAY = 86_400_000;
const USDT = 1_000_000n;
let t: TestApp;
let products: MiningProduct[];

beforeAll(async () => {
  // The clock runs months ahead over this file: sessions must outlive it.
  t = await createTestApp({ env: { SESSION_TTL_DAYS: '365' } });
  await seedProducts(t.database.db, t.clock.now(), DEMO_MINING_PRODUCTS);
  await createOperator(t.database.db, t.clock.now(), {
    username: 'mining-reviewer',
    role: 'reviewer',
  });
  const user = await registerUser(t.app);
  products = (
    await call<{ items: MiningProduct[] }>(t.app, 'GET', '/api/v1/mining/products', {
      token: user.token,
    })
  ).body.data.items;
});
afterEach(async () => {
  // The ledger's invariants hold after every test, not only at the end of the file.
  expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
});
afterAll(() => t.close());

const product = (slug: string) => {
  const index = DEMO_MINING_PRODUCTS.findIndex((p) => p.slug === slug);
  return products[index] as MiningProduct;
};
/** 7 days, 100 USDT a unit, minimum 100, 0.3 % a day. */
const week = () => product('demo-s19-xp');
/** 30 days, 200 USDT a unit, minimum 400 (two units), 0.4 % a day. */
const month = () => product('demo-l7');

const deps = () => ({
  db: t.database.db,
  clock: t.clock,
  ledger: t.app.services.ledger,
  hub: t.app.services.hub,
});

type User = Awaited<ReturnType<typeof registerUser>>;

/** A user who may rent (KYC passed, spec §5) holding `usdt` in spot. */
async function fundedUser(usdt: bigint): Promise<User> {
  const user = await registerReadyUser(t);
  if (usdt > 0n) await fund(t, Number(user.uid), usdt * USDT);
  return user;
}

const rent = (user: User, body: Record<string, unknown>, lang?: string, key = idempotencyKey()) =>
  call<MiningRental>(t.app, 'POST', '/api/v1/mining/rentals', {
    token: user.token,
    body,
    lang,
    headers: { 'idempotency-key': key },
  });
/** Operator sessions end after 30 idle minutes of the test clock: sign in for each use. */
async function reviewerToken(): Promise<string> {
  return operatorSession(t, 'mining-reviewer');
}
const catalogToken = async () => (await operatorToken(t, 'catalog')).token;
const decide = async (id: string, decision: 'approve' | 'reject', reason?: string) =>
  call<MiningRental & { uid: string }>(t.app, 'POST', '/api/admin/v1/mining/rentals/decide', {
    token: await reviewerToken(),
    body: { id, decision, ...(reason ? { reason } : {}) },
  });
/** The user's in-site messages about rentals, oldest first. */
const miningMessages = async (user: User) =>
  queryRows<{
    kind: string;
    ref: string;
    language: string;
    title: string;
    body: string;
    link: string;
  }>(
    t.database.db,
    sql`select kind, ref, language, title, body, link from user_messages where user_id = ${Number(user.uid)} and kind like 'mining.%' order by id`,
  );
const detail = async (user: User, id: string, lang?: string) =>
  (
    await call<MiningRentalDetail>(t.app, 'GET', `/api/v1/mining/rental?id=${id}`, {
      token: user.token,
      lang,
    })
  ).body.data;
const history = async (user: User, tab: string) =>
  (
    await call<MiningRentalList>(t.app, 'GET', `/api/v1/mining/rentals?tab=${tab}`, {
      token: user.token,
    })
  ).body.data.items;

async function spotUsdt(user: User): Promise<string> {
  const rows = await queryRows<{ available: string }>(
    t.database.db,
    sql`select available::text from ledger_accounts where name = ${`user:${user.uid}:spot:USDT`}`,
  );
  const minor = BigInt(rows[0]?.available ?? '0');
  return `${minor / USDT}.${String(minor % USDT).padStart(6, '0')}`;
}

async function postingsOf(
  user: User,
): Promise<{ type: string; amount: string; reference: string }[]> {
  return queryRows(
    t.database.db,
    sql`select p.type, p.amount::text as amount, e.reference from ledger_postings p join ledger_entries e on e.id = p.entry_id
        where p.user_id = ${Number(user.uid)} and p.type like 'mining%' order by p.id`,
  );
}

const countRows = async (query: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: string }>(t.database.db, query))[0]?.n);

describe('products', () => {
  it('lists the three demo miners with their terms, in the request language', async () => {
    const user = await registerUser(t.app);
    const de = (
      await call<{ items: MiningProduct[] }>(t.app, 'GET', '/api/v1/mining/products', {
        token: user.token,
        lang: 'de',
      })
    ).body.data.items;
    expect(de).toHaveLength(3);
    expect(de[0]).toMatchObject({
      name: 'Antminer S19 XP Cloud-Miner',
      output: 'BTC',
      hashrate: '140 TH/s',
      power: '3010 W',
      periodDays: 7,
      unitPrice: '100',
      minInvestment: '100',
      dailyRate: '0.003',
      dailyYieldPerUnit: '0.3',
    });
    expect(de[0]?.description).toContain('Jeden Tag zahlt sie feste 0,3 % des gezahlten Preises');
    const one = await call<MiningProduct>(t.app, 'GET', `/api/v1/mining/product?id=${week().id}`, {
      token: user.token,
      lang: 'zh_TW',
    });
    expect(one.body.data.description).toContain('期滿時，全部價格將連同最後一天的收益一併退回');
    expect(
      (
        await call(t.app, 'GET', '/api/v1/mining/product?id=999999', {
          token: user.token,
          lang: 'fr',
        })
      ).body,
    ).toMatchObject({ code: 3401, message: 'Ce mineur n’existe pas.' });
  });
});

describe('rent → approve → daily payouts → completion', () => {
  it('pays each day once on the clock, shows profit and paid out, and returns the principal at the end', async () => {
    const user = await fundedUser(1_000n);
    const rented = await rent(user, { productId: week().id, quantity: 3, amount: '300' });
    expect(rented.body.code, JSON.stringify(rented.body)).toBe(0);
    expect(rented.body.data).toMatchObject({
      status: 'under_review',
      statusCode: 0,
      quantity: 3,
      amount: '300',
      dailyYield: '0.9',
      totalProfit: '6.3',
      paidOut: '0',
      startedAt: null,
    });
    expect(await spotUsdt(user)).toBe('700.000000');
    const id = rented.body.data.id;
    expect((await history(user, 'active')).map((r) => r.id)).toEqual([id]);

    // Under review, days pass without payouts.
    t.clock.advance(2 * DAY);
    await new MiningPayoutWorker(deps()).runOnce();
    expect((await detail(user, id)).paidDays).toBe(0);

    const approved = await decide(id, 'approve');
    expect(approved.body.data).toMatchObject({ status: 'active', statusCode: 1 });
    const startedAt = t.clock.now().getTime();
    expect(approved.body.data.endsAt).toBe(new Date(startedAt + 7 * DAY).toISOString());
    const worker = new MiningPayoutWorker(deps());

    // Just before the first day is over: nothing.
    t.clock.advance(DAY - 1);
    expect((await worker.runOnce()).days).toBe(0);
    t.clock.advance(1);
    expect((await worker.runOnce()).days).toBe(1);
    expect(await worker.runOnce()).toMatchObject({ days: 0 });
    let seen = await detail(user, id);
    expect(seen).toMatchObject({
      status: 'active',
      paidDays: 1,
      paidOut: '0.9',
      totalProfit: '6.3',
      nextPayoutAt: new Date(startedAt + 2 * DAY).toISOString(),
    });
    expect(seen.payouts).toEqual([
      { day: 1, amount: '0.9', paidAt: new Date(startedAt + DAY).toISOString() },
    ]);
    expect(await spotUsdt(user)).toBe('700.900000');

    // Three days later, the three due days at once, each its own entry.
    t.clock.advance(3 * DAY + 5_000);
    expect((await worker.runOnce()).days).toBe(3);
    seen = await detail(user, id);
    expect(seen).toMatchObject({ paidDays: 4, paidOut: '3.6' });
    expect(seen.payouts.map((p) => p.day)).toEqual([4, 3, 2, 1]);

    // Long after the end: the last three days and the principal, then completed.
    t.clock.advance(30 * DAY);
    expect(await worker.runOnce()).toMatchObject({ days: 3, completed: 1 });
    seen = await detail(user, id);
    expect(seen).toMatchObject({
      status: 'completed',
      statusCode: 2,
      paidDays: 7,
      paidOut: '6.3',
      principalReturned: true,
      nextPayoutAt: null,
    });
    expect(await spotUsdt(user)).toBe('1006.300000');
    expect((await worker.runOnce()).days).toBe(0);

    const postings = await postingsOf(user);
    expect(postings.map((p) => [p.type, p.amount, p.reference])).toEqual([
      ['mining_rent', '-300000000', `mining:${id}:rent`],
      ...[1, 2, 3, 4, 5, 6, 7].map((day) => ['mining_payout', '900000', `mining:${id}:day:${day}`]),
      ['mining_principal', '300000000', `mining:${id}:principal`],
    ]);
    expect((await history(user, 'active')).map((r) => r.id)).toEqual([]);
    expect((await history(user, 'completed')).map((r) => r.id)).toEqual([id]);

    // The owner was told at approval and at completion, once each (later runs add nothing).
    expect((await miningMessages(user)).map((m) => [m.kind, m.ref, m.link])).toEqual([
      ['mining.approved', `mining:${id}`, `/MiningDetail?id=${id}`],
      ['mining.completed', `mining:${id}`, `/MiningDetail?id=${id}`],
    ]);
    const [approvedMessage, completedMessage] = await miningMessages(user);
    expect(approvedMessage?.body).toBe(
      'Your miner rental (300 USDT) was approved and runs for 7 days from now. The daily yield is paid to your spot account.',
    );
    expect(completedMessage?.body).toBe(
      'Your miner rental (300 USDT) has completed: 6.3 USDT was paid out in total, and the price has been returned to your spot account.',
    );
    expect((await history(user, 'all')).map((r) => r.id)).toEqual([id]);

    // The funds detail shows the entries with their labels.
    const funds = await call<{ items: { type: string; amount: string }[] }>(
      t.app,
      'GET',
      '/api/v1/funds/postings?type=mining_principal&type=mining_rent',
      { token: user.token },
    );
    expect(funds.body.data.items.map((p) => [p.type, p.amount])).toEqual([
      ['mining_principal', '300'],
      ['mining_rent', '-300'],
    ]);
  });

  it('rent → reject refunds the payment in full with the reason; a second decision is refused', async () => {
    const user = await fundedUser(500n);
    expect(
      (
        await call(t.app, 'POST', '/api/v1/user/language', {
          token: user.token,
          body: { language: 'de' },
        })
      ).body.code,
    ).toBe(0);
    const rented = await rent(user, { productId: month().id, quantity: 2, amount: '400' });
    expect(await spotUsdt(user)).toBe('100.000000');
    const id = rented.body.data.id;
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/mining/rentals/decide', {
          token: await reviewerToken(),
          body: { id, decision: 'reject' },
        })
      ).body.code,
    ).toBe(422);
    const rejected = await decide(id, 'reject', 'Capacity full');
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      statusCode: 3,
      reason: 'Capacity full',
    });
    expect(await spotUsdt(user)).toBe('500.000000');
    expect((await decide(id, 'approve')).body.code).toBe(2501);
    t.clock.advance(40 * DAY);
    await new MiningPayoutWorker(deps()).runOnce();
    expect(await detail(user, id)).toMatchObject({ status: 'rejected', paidDays: 0, payouts: [] });
    expect((await postingsOf(user)).map((p) => [p.type, p.reference])).toEqual([
      ['mining_rent', `mining:${id}:rent`],
      ['mining_refund', `mining:${id}:refund`],
    ]);
    expect((await history(user, 'completed')).map((r) => r.status)).toEqual(['rejected']);
    // Told in the language the user keeps (German here), with the reason.
    expect((await miningMessages(user)).map((m) => [m.kind, m.language, m.title, m.body])).toEqual([
      [
        'mining.rejected',
        'de',
        'Miner-Miete abgelehnt',
        'Ihre Miner-Miete wurde abgelehnt; 400 USDT sind zurück auf Ihrem Spot-Konto. Grund: Capacity full',
      ],
    ]);

    const audit = await call<{
      items: { action: string; targetId: string; reason: string | null }[];
    }>(t.app, 'GET', `/api/admin/v1/audit?targetType=mining_rental&targetId=${id}`, {
      token: (await operatorToken(t, 'admin')).token,
    });
    expect(audit.body.data.items.map((a) => [a.action, a.reason])).toEqual([
      ['mining_rental.reject', 'Capacity full'],
    ]);
  });
});

describe('bad rentals change nothing', () => {
  it.each([
    [
      'insufficient balance',
      50n,
      () => ({ productId: week().id, quantity: 1, amount: '100' }),
      'de',
      2001,
      undefined,
    ],
    // Form-level errors (spec §8: code 422 with the errors field), on the quantity.
    [
      'below the minimum investment',
      1_000n,
      () => ({ productId: month().id, quantity: 1, amount: '200' }),
      'de',
      422,
      'Die Mindestinvestition für diesen Miner beträgt 400 USDT.',
    ],
    [
      'more units than allowed',
      100_000n,
      () => ({ productId: week().id, quantity: 51, amount: '5100' }),
      'fr',
      422,
      'Vous pouvez louer de 1 à 50 unités de ce mineur à la fois.',
    ],
    [
      'an amount that is not quantity × price',
      1_000n,
      () => ({ productId: week().id, quantity: 2, amount: '150' }),
      'es',
      3405,
      undefined,
    ],
    [
      'an unknown product',
      1_000n,
      () => ({ productId: '987654', quantity: 1, amount: '100' }),
      'it',
      3401,
      'Questo miner non esiste.',
    ],
    [
      'a quantity of zero',
      1_000n,
      () => ({ productId: week().id, quantity: 0, amount: '100' }),
      'zh_CN',
      422,
      undefined,
    ],
    [
      'a negative amount',
      1_000n,
      () => ({ productId: week().id, quantity: 1, amount: '-100' }),
      'en',
      422,
      undefined,
    ],
    [
      'too many decimals',
      1_000n,
      () => ({ productId: week().id, quantity: 1, amount: '100.0000001' }),
      'en',
      422,
      undefined,
    ],
    [
      'an extra field',
      1_000n,
      () => ({ productId: week().id, quantity: 1, amount: '100', status: 1 }),
      'en',
      422,
      undefined,
    ],
  ])(
    '%s → a localized error; no rental, no posting',
    async (_name, balance, body, lang, code, message) => {
      const user = await fundedUser(balance);
      const before = await spotUsdt(user);
      const reply = await rent(user, body(), lang);
      expect(reply.body.code, JSON.stringify(reply.body)).toBe(code);
      expect(reply.body.data).toBeNull();
      if (message) expect(reply.body.message).toBe(message);
      if (code === 422 && message) expect(reply.body.errors?.quantity).toEqual([message]);
      if (code === 2001) expect(reply.body.message).not.toMatch(/[A-Z_]{6,}/);
      expect(await spotUsdt(user)).toBe(before);
      expect(await postingsOf(user)).toEqual([]);
      expect(
        await countRows(
          sql`select count(*) as n from mining_rentals where user_id = ${Number(user.uid)}`,
        ),
      ).toBe(0);
    },
  );

  it('the owner hears balance.changed once for a committed rental, never for a refused one or a replay', async () => {
    const user = await fundedUser(150n);
    const hub = t.app.services.hub;
    const heard: string[] = [];
    const original = hub.publishToUser.bind(hub);
    hub.publishToUser = (userId, event) => {
      if (userId === Number(user.uid)) heard.push((event as { type: string }).type);
      return original(userId, event);
    };
    try {
      const key = idempotencyKey();
      expect(
        (await rent(user, { productId: week().id, quantity: 2, amount: '200' })).body.code,
      ).toBe(2001);
      expect(heard).toEqual([]);
      expect(
        (await rent(user, { productId: week().id, quantity: 1, amount: '100' }, 'en', key)).body
          .code,
      ).toBe(0);
      expect(heard).toEqual(['balance.changed']);
      expect(
        (await rent(user, { productId: week().id, quantity: 1, amount: '100' }, 'en', key)).body
          .code,
      ).toBe(0);
      expect(heard).toEqual(['balance.changed']);
    } finally {
      hub.publishToUser = original;
    }
  });

  it('a replay of the same request (same Idempotency-Key) rents once', async () => {
    const user = await fundedUser(1_000n);
    const key = idempotencyKey();
    const body = { productId: week().id, quantity: 1, amount: '100' };
    const [a, b] = await Promise.all([rent(user, body, 'en', key), rent(user, body, 'en', key)]);
    expect(a.body.data.id).toBe(b.body.data.id);
    expect(await spotUsdt(user)).toBe('900.000000');
    expect(
      await countRows(
        sql`select count(*) as n from mining_rentals where user_id = ${Number(user.uid)}`,
      ),
    ).toBe(1);
  });

  it('a disabled product cannot be rented; an operator edit does not change existing rentals', async () => {
    const user = await fundedUser(1_000n);
    const first = await rent(user, { productId: week().id, quantity: 1, amount: '100' });
    const input = {
      id: week().id,
      slug: 'demo-s19-xp',
      name: { en: 'S19 XP (paused)' },
      description: { en: 'Paused.' },
      output: 'BTC',
      hashrate: '140 TH/s',
      power: '3010 W',
      periodDays: 7,
      unitPrice: '120',
      minInvestment: '120',
      maxQuantity: 50,
      dailyRatePpm: 1000,
      enabled: false,
    };
    const edited = await call(t.app, 'POST', '/api/admin/v1/mining/products', {
      token: await catalogToken(),
      body: input,
    });
    expect(edited.body.code, JSON.stringify(edited.body)).toBe(0);
    expect(
      (await rent(user, { productId: week().id, quantity: 1, amount: '120' }, 'de')).body.code,
    ).toBe(3402);
    expect(await detail(user, first.body.data.id)).toMatchObject({
      unitPrice: '100',
      dailyRate: '0.003',
      dailyYield: '0.3',
    });
    // Put it back as it was for the other tests.
    const restored = await call(t.app, 'POST', '/api/admin/v1/mining/products', {
      token: await catalogToken(),
      body: {
        ...input,
        name: DEMO_MINING_PRODUCTS[0]?.name,
        description: DEMO_MINING_PRODUCTS[0]?.description,
        unitPrice: '100',
        minInvestment: '100',
        dailyRatePpm: 3000,
        enabled: true,
        sort: 1,
      },
    });
    expect(restored.body.code, JSON.stringify(restored.body)).toBe(0);
    expect((await decide(first.body.data.id, 'reject', 'test over')).body.code).toBe(0);
  });
});

describe('operators', () => {
  it('create a product (audit-logged), refuse HTML, a taken slug, and a user or reviewer token', async () => {
    const body = {
      slug: 'test-miner',
      name: { en: 'Test miner', de: 'Test-Miner' },
      description: { en: 'Fixed 1 % a day.' },
      output: 'LTC',
      hashrate: '1 GH/s',
      power: '100 W',
      periodDays: 3,
      unitPrice: '10',
      minInvestment: '10',
      maxQuantity: 5,
      dailyRatePpm: 10_000,
    };
    const created = await call<{ id: string; enabled: boolean }>(
      t.app,
      'POST',
      '/api/admin/v1/mining/products',
      { token: await catalogToken(), body },
    );
    expect(created.body).toMatchObject({ code: 0, data: { enabled: true, name: 'Test miner' } });
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/mining/products', {
          token: await catalogToken(),
          body,
          lang: 'de',
        })
      ).body,
    ).toMatchObject({
      code: 422,
      errors: { slug: ['Ein anderer Miner verwendet diesen Slug bereits.'] },
    });
    const html = await call(t.app, 'POST', '/api/admin/v1/mining/products', {
      token: await catalogToken(),
      body: { ...body, slug: 'x', description: { en: '<img src=x onerror=alert(1)>' } },
    });
    expect(html.body.code).toBe(422);
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/mining/products', {
          token: await reviewerToken(),
          body: { ...body, slug: 'y' },
        })
      ).status,
    ).toBe(403);
    const user = await registerUser(t.app);
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/mining/products', {
          token: user.token,
          body: { ...body, slug: 'z' },
        })
      ).status,
    ).toBe(401);
    expect(
      await countRows(sql`select count(*) as n from mining_products where slug in ('x', 'y', 'z')`),
    ).toBe(0);
    const audit = await queryRows<{ action: string }>(
      t.database.db,
      sql`select action from audit_log where target_type = 'mining_product' and target_id = ${created.body.data.id}`,
    );
    expect(audit.map((a) => a.action)).toEqual(['mining_product.create']);
    // Hidden again so other tests see the three demo miners.
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/mining/products', {
          token: await catalogToken(),
          body: { ...body, id: created.body.data.id, enabled: false },
        })
      ).body.code,
    ).toBe(0);
  });

  it('the queue lists rentals under review, oldest first', async () => {
    const user = await fundedUser(1_000n);
    const a = (await rent(user, { productId: week().id, quantity: 1, amount: '100' })).body.data.id;
    const b = (await rent(user, { productId: week().id, quantity: 2, amount: '200' })).body.data.id;
    const queue = await call<{ items: { id: string; uid: string }[] }>(
      t.app,
      'GET',
      '/api/admin/v1/mining/rentals/queue',
      { token: await reviewerToken() },
    );
    const mine = queue.body.data.items.filter((i) => i.uid === user.uid).map((i) => i.id);
    expect(mine).toEqual([a, b]);
    for (const id of [a, b]) expect((await decide(id, 'reject', 'cleanup')).body.code).toBe(0);
  });
});

describe('npm run ops: mining:queue, mining:decide, mining:product, mining:pay-due', () => {
  const run = async (name: string, options: Record<string, string | undefined>) => {
    const command = OPS_COMMANDS.get(name);
    if (!command) throw new Error(`${name} is not registered`);
    const operator = options.operator
      ? await findOperator(t.database.db, options.operator)
      : undefined;
    const context: OpsContext = {
      ...t.app.services,
      clock: t.clock,
      db: t.database.db,
      operator,
      args: [],
    };
    return command.run(context, options);
  };

  it('review and catalogue through the same rules as the API, audit-logged as cli', async () => {
    const user = await fundedUser(1_000n);
    const id = (await rent(user, { productId: week().id, quantity: 1, amount: '100' })).body.data
      .id;
    expect(await run('mining:queue', {})).toContain(`#${id} uid ${user.uid}`);
    await expect(
      run('mining:decide', { id, decision: 'reject', operator: 'mining-reviewer' }),
    ).rejects.toThrow('reason');
    expect(
      await run('mining:decide', {
        id,
        decision: 'reject',
        reason: 'Sold out',
        operator: 'mining-reviewer',
      }),
    ).toBe(`miner rental #${id} (uid ${user.uid}) is now rejected: 100 USDT refunded`);
    await expect(
      run('mining:decide', { id, decision: 'approve', operator: 'mining-reviewer' }),
    ).rejects.toThrow('INVALID_STATE');
    expect(await spotUsdt(user)).toBe('1000.000000');
    const [entry] = await queryRows<{ via: string; action: string }>(
      t.database.db,
      sql`select via, action from audit_log where target_type = 'mining_rental' and target_id = ${id}`,
    );
    expect(entry).toEqual({ via: 'cli', action: 'mining_rental.reject' });

    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const file = path.join(os.tmpdir(), `mining-product-${process.pid}.json`);
    fs.writeFileSync(
      file,
      JSON.stringify({
        slug: 'cli-miner',
        name: { en: 'CLI miner' },
        description: { en: 'Fixed.' },
        output: 'BTC',
        hashrate: '1 TH/s',
        power: '10 W',
        periodDays: 2,
        unitPrice: '5',
        minInvestment: '5',
        maxQuantity: 1,
        dailyRatePpm: 100,
        enabled: false,
      }),
    );
    await createOperator(t.database.db, t.clock.now(), {
      username: 'mining-catalog',
      role: 'catalog',
    });
    expect(await run('mining:product', { file, operator: 'mining-catalog' })).toMatch(
      /^miner #\d+ cli-miner saved \(disabled\)$/,
    );
    fs.rmSync(file);
    expect(await run('mining:products', {})).toContain('cli-miner disabled "CLI miner"');
    expect(await run('mining:pay-due', {})).toBe('0 days paid, 0 rentals completed');
  });
});

describe('each day is paid exactly once', () => {
  async function activeRentals(n: number): Promise<{ user: User; id: string }[]> {
    const out = [];
    for (let i = 0; i < n; i++) {
      const user = await fundedUser(100n);
      const id = (await rent(user, { productId: week().id, quantity: 1, amount: '100' })).body.data
        .id;
      expect((await decide(id, 'approve')).body.code).toBe(0);
      out.push({ user, id });
    }
    return out;
  }

  async function expectExactlyOnce(rentals: { user: User; id: string }[], days: number) {
    for (const { user, id } of rentals) {
      const seen = await detail(user, id);
      expect(seen.payouts.map((p) => p.day).sort((x, y) => x - y)).toEqual(
        Array.from({ length: days }, (_, i) => i + 1),
      );
      expect(seen.paidDays).toBe(days);
      const postings = await postingsOf(user);
      expect(postings.filter((p) => p.type === 'mining_payout')).toHaveLength(days);
      expect(new Set(postings.map((p) => p.reference)).size).toBe(postings.length);
    }
  }

  it.each([2, 8])('%s concurrent workers pay each due day once', async (workers) => {
    const rentals = await activeRentals(6);
    t.clock.advance(3 * DAY);
    const results = await Promise.all(
      Array.from({ length: workers }, () => new MiningPayoutWorker(deps()).runOnce()),
    );
    expect(results.reduce((sum, r) => sum + r.days, 0)).toBe(6 * 3);
    await expectExactlyOnce(rentals, 3);
    // And to the end: the last four days and one principal each.
    t.clock.advance(10 * DAY);
    const final = await Promise.all(
      Array.from({ length: workers }, () => new MiningPayoutWorker(deps()).runOnce()),
    );
    expect(final.reduce((sum, r) => sum + r.completed, 0)).toBe(6);
    await expectExactlyOnce(rentals, 7);
    for (const { user } of rentals)
      expect((await postingsOf(user)).filter((p) => p.type === 'mining_principal')).toHaveLength(1);
  });

  it('across a restart: a new worker instance (and a new app on the same database) pays only what is left', async () => {
    const rentals = await activeRentals(3);
    t.clock.advance(2 * DAY);
    expect((await new MiningPayoutWorker(deps()).runOnce()).days).toBe(6);
    // "Restart": a fresh worker object, nothing remembered in memory.
    expect((await new MiningPayoutWorker(deps()).runOnce()).days).toBe(0);
    t.clock.advance(DAY);
    const [a, b] = await Promise.all([
      new MiningPayoutWorker(deps()).runOnce(),
      new MiningPayoutWorker(deps()).runOnce(),
    ]);
    expect((a?.days ?? 0) + (b?.days ?? 0)).toBe(3);
    await expectExactlyOnce(rentals, 3);
    // The database refuses a second row for a paid day and a second entry for its reference.
    const [first] = rentals;
    await expect(
      t.database.db.execute(
        sql`insert into mining_payouts (rental_id, day, amount_minor, entry_id, due_at, paid_at) values (${Number(first?.id)}, 1, 1, 999999999, now(), now())`,
      ),
    ).rejects.toThrow();
    // Nor can a paid day be changed or removed.
    const refusal = (query: ReturnType<typeof sql>) =>
      t.database.db.execute(query).then(
        () => 'accepted',
        (error: { cause?: { message?: string } }) => error.cause?.message ?? String(error),
      );
    expect(
      await refusal(
        sql`update mining_payouts set amount_minor = 1 where rental_id = ${Number(first?.id)}`,
      ),
    ).toMatch(/append-only/);
    expect(
      await refusal(sql`delete from mining_payouts where rental_id = ${Number(first?.id)}`),
    ).toMatch(/append-only/);
    t.clock.advance(10 * DAY);
    await new MiningPayoutWorker(deps()).runOnce();
    await expectExactlyOnce(rentals, 7);
  });

  it('the worker loop started and stopped (as at shutdown) leaves nothing half-paid', async () => {
    const rentals = await activeRentals(2);
    t.clock.advance(DAY);
    const worker = new MiningPayoutWorker(deps(), 10);
    worker.start();
    await worker.stop();
    await new MiningPayoutWorker(deps()).runOnce();
    await expectExactlyOnce(rentals, 1);
    t.clock.advance(10 * DAY);
    await new MiningPayoutWorker(deps()).runOnce();
  });
});

describe('configuration', () => {
  it('a shorter mining day and auto-approval exist only in demo mode', () => {
    expect(() => loadConfig({ DEMO_MODE: 'false', MINING_DAY_SECONDS: '5' })).toThrow(
      /MINING_DAY_SECONDS/,
    );
    expect(() => loadConfig({ DEMO_MODE: 'false', MINING_AUTO_APPROVE: 'true' })).toThrow(
      /MINING_AUTO_APPROVE/,
    );
    expect(loadConfig({ DEMO_MODE: 'false' })).toMatchObject({
      miningDayMs: DAY,
      sharedSeed: {},
    });
    expect(testConfig()).toMatchObject({ miningDayMs: DAY, sharedSeed: {} });
    // Auto-approval is an install-wide setting: the environment seeds it (modules/settings).
    expect(testConfig({ MINING_DAY_SECONDS: '5', MINING_AUTO_APPROVE: 'true' })).toMatchObject({
      miningDayMs: 5_000,
      sharedSeed: { MINING_AUTO_APPROVE: 'true' },
    });
  });

  it('with MINING_AUTO_APPROVE (demo) a rental is active at once, with no operator and no audit entry, and pays on its short day', async () => {
    const demo = await createTestApp({
      env: { MINING_AUTO_APPROVE: 'true', MINING_DAY_SECONDS: '60' },
    });
    try {
      await seedProducts(demo.database.db, demo.clock.now(), DEMO_MINING_PRODUCTS);
      const user = await registerReadyUser(demo);
      await fund(demo, Number(user.uid), 100n * USDT);
      const [product] = (
        await call<{ items: MiningProduct[] }>(demo.app, 'GET', '/api/v1/mining/products', {
          token: user.token,
        })
      ).body.data.items;
      const reply = await call<MiningRental>(demo.app, 'POST', '/api/v1/mining/rentals', {
        token: user.token,
        body: { productId: product?.id, quantity: 1, amount: '100' },
        headers: { 'idempotency-key': idempotencyKey() },
      });
      expect(reply.body.data).toMatchObject({
        status: 'active',
        endsAt: new Date(demo.clock.now().getTime() + 7 * 60_000).toISOString(),
      });
      demo.clock.advance(60_000);
      const paid = await new MiningPayoutWorker({
        db: demo.database.db,
        clock: demo.clock,
        ledger: demo.app.services.ledger,
        hub: demo.app.services.hub,
      }).runOnce();
      expect(paid.days).toBe(1);
      const audits = await queryRows<{ n: string }>(
        demo.database.db,
        sql`select count(*) as n from audit_log where target_type = 'mining_rental'`,
      );
      expect(Number(audits[0]?.n)).toBe(0);
    } finally {
      await demo.close();
    }
  });
});

describe('ownership', () => {
  it("another user's rental is not found and its history is not listed", async () => {
    const owner = await fundedUser(100n);
    const intruder = await registerUser(t.app);
    const id = (await rent(owner, { productId: week().id, quantity: 1, amount: '100' })).body.data
      .id;
    const reply = await call(t.app, 'GET', `/api/v1/mining/rental?id=${id}`, {
      token: intruder.token,
      lang: 'de',
    });
    expect(reply.body).toMatchObject({
      code: 3406,
      message: 'Diese Miete gibt es nicht.',
      data: null,
    });
    expect(await history(intruder, 'all')).toEqual([]);
    expect((await decide(id, 'reject', 'cleanup')).body.code).toBe(0);
  });
});

// Found by bench/chaos: after a restart, rentals failed with "deadlock detected". A payout
// round holds the mining house account (its entries are posted), then writes the owners of
// completed rentals a message (a foreign-key check on each owner's user row); a rental held
// its user row FOR UPDATE, which blocks that check, while it waited for the house account.
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'a rental beside a payout round (PostgreSQL)',
  () => {
    it('a round holding the house account and writing the renter a message does not deadlock with the rental', async () => {
      await rent(await fundedUser(100n), { productId: week().id, quantity: 1, amount: '100' });
      const user = await fundedUser(100n);
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const round = t.database.db.transaction(async (tx) => {
        await tx.execute(
          sql`select id from ledger_accounts where name = 'house:mining:USDT' for update`,
        );
        holding();
        await released;
        await createMessages(tx, t.clock.now(), [
          { userId: Number(user.uid), kind: 'mining.completed', ref: 'mining:round', link: null },
        ]);
      });
      await held;
      const renting = rent(user, { productId: week().id, quantity: 1, amount: '100' });
      // The rental has locked its user row and waits for the house account.
      for (let waiting = 0; waiting === 0;) {
        await new Promise((r) => setTimeout(r, 20));
        const rows = await queryRows<{ n: string }>(
          t.database.db,
          sql`select count(*)::text as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        waiting = Number(rows[0]?.n);
      }
      release();
      await round;
      const reply = await renting;
      expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
      const rows = await queryRows<{ messages: string; rentals: string }>(
        t.database.db,
        sql`select (select count(*) from user_messages where user_id = ${Number(user.uid)} and ref = 'mining:round')::text as messages,
                 (select count(*) from mining_rentals where user_id = ${Number(user.uid)})::text as rentals`,
      );
      expect(rows[0]).toEqual({ messages: '1', rentals: '1' });
    });
  },
);
