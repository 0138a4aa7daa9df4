import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/platform/db.ts';
import {
  T0,
  type TestApp,
  call,
  createTestApp,
  idempotencyKey,
  operatorToken,
  registerUser,
  verifyUser,
} from './harness.ts';
import { approveRewardBudget } from './reward-budget-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(T0);
});
afterAll(() => t.close());

interface Address {
  id: string;
  name: string;
  phone: string;
  region: string;
  address: string;
}
interface Order {
  id: string;
  item: string;
  status: string;
  pointsCost: number;
  address: Address | null;
  trackingNote: string | null;
}

const HOME = { name: 'Mei Lin', phone: '+14155550123', region: 'US', address: '1 Market St, SF' };

/** Points as a reward would give them: one points event. */
async function givePoints(uid: string, amount: number) {
  await t.database.db.execute(
    sql`insert into points_events (user_id, kind, amount, created_at) values (${Number(uid)}, 'task_reward', ${amount}, ${t.clock.now()})`,
  );
}
const shop = async (token: string) =>
  (await call<{ enabled: boolean; points: number }>(t.app, 'GET', '/api/v1/shop', { token })).body
    .data;
const buy = (token: string, body: unknown, lang?: string) =>
  call<{ order: Order; points: number }>(t.app, 'POST', '/api/v1/shop/purchase', {
    token,
    lang,
    body,
    headers: { 'idempotency-key': idempotencyKey() },
  });
const saveAddress = (token: string, body: unknown, lang?: string) =>
  call<Address>(t.app, 'POST', '/api/v1/shop/addresses', { token, body, lang });
const addresses = async (token: string) =>
  (await call<{ items: Address[] }>(t.app, 'GET', '/api/v1/shop/addresses', { token })).body.data
    .items;
const orders = async (token: string) =>
  (await call<{ items: Order[] }>(t.app, 'GET', '/api/v1/shop/orders', { token })).body.data.items;
const spotUsdt = async (token: string) => {
  const reply = await call<{ spot: { asset: string; available: string }[] }>(
    t.app,
    'GET',
    '/api/v1/wallet/balances',
    { token },
  );
  return reply.body.data.spot.find((s) => s.asset === 'USDT')?.available ?? '0';
};
const orderRows = async (uid: string) =>
  Number(
    (
      await queryRows<{ n: string }>(
        t.database.db,
        sql`select count(*)::text as n from shop_orders where user_id = ${Number(uid)}`,
      )
    )[0]?.n,
  );

describe('delivery address', () => {
  it('each field has its own message: name, phone, address, receiving area; nothing is saved', async () => {
    const { token } = await registerUser(t.app);
    const empty = await saveAddress(token, { name: ' ', phone: '12', address: '', region: '' });
    expect(empty.body.code).toBe(422);
    expect(empty.body.errors).toEqual({
      name: ['Name must be filled in.'],
      phone: ['Please enter a valid phone number.'],
      address: ['Address cannot be empty.'],
      region: ['Please choose a receiving area.'],
    });
    const missing = await saveAddress(token, {}, 'de');
    expect(missing.body.errors).toEqual({
      name: ['Bitte geben Sie einen Namen ein.'],
      phone: ['Bitte geben Sie eine gültige Telefonnummer ein.'],
      address: ['Die Adresse darf nicht leer sein.'],
      region: ['Bitte wählen Sie eine Region.'],
    });
    const onlyRegion = await saveAddress(token, { ...HOME, region: 'XX' }, 'zh-CN');
    expect(onlyRegion.body.errors).toEqual({ region: ['请选择收货地区。'] });
    expect(await addresses(token)).toEqual([]);
  });

  it("add, edit, delete: the book shows the change; another user's address is 404 to you", async () => {
    const me = await registerUser(t.app);
    const other = await registerUser(t.app);
    const added = await saveAddress(me.token, HOME);
    expect(added.body.code).toBe(0);
    expect(await addresses(me.token)).toEqual([{ id: added.body.data.id, ...HOME }]);
    const edited = await saveAddress(me.token, {
      ...HOME,
      id: added.body.data.id,
      address: '2 Main St',
    });
    expect(edited.body.data.address).toBe('2 Main St');
    expect((await addresses(me.token))[0]?.address).toBe('2 Main St');

    const stolen = await saveAddress(other.token, { ...HOME, id: added.body.data.id, name: 'Eve' });
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe(2854);
    const removedByOther = await call(t.app, 'POST', '/api/v1/shop/addresses/delete', {
      token: other.token,
      body: { id: added.body.data.id },
    });
    expect(removedByOther.body.code).toBe(2854);
    expect(await addresses(other.token)).toEqual([]);
    expect((await addresses(me.token))[0]?.name).toBe('Mei Lin');

    const removed = await call(t.app, 'POST', '/api/v1/shop/addresses/delete', {
      token: me.token,
      body: { id: added.body.data.id },
    });
    expect(removed.body.code).toBe(0);
    expect(await addresses(me.token)).toEqual([]);
  });
});

describe('points shop', () => {
  it('buying a reward item debits exactly its points and pays its USDT from the reward budget', async () => {
    await approveRewardBudget(t, '100');
    const user = await registerUser(t.app);
    await verifyUser(t, Number(user.uid));
    await givePoints(user.uid, 1000);
    const reply = await buy(user.token, { item: 'usdt_5' });
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
    expect(reply.body.data).toMatchObject({
      points: 400,
      order: { item: 'usdt_5', status: 'completed' },
    });
    expect((await shop(user.token)).points).toBe(400);
    expect(await spotUsdt(user.token)).toBe('5');
    const events = await queryRows<{ kind: string; amount: number }>(
      t.database.db,
      sql`select kind, amount from points_events where user_id = ${Number(user.uid)} order by id`,
    );
    expect(events).toEqual([
      { kind: 'task_reward', amount: 1000 },
      { kind: 'shop_purchase', amount: -600 },
    ]);
  });

  it('too few points: a localized error and nothing changes', async () => {
    const user = await registerUser(t.app);
    await givePoints(user.uid, 599);
    const reply = await buy(user.token, { item: 'usdt_5' }, 'zh-CN');
    expect(reply.body.code).toBe(2852);
    expect(reply.body.message).toBe('积分不足。');
    expect((await shop(user.token)).points).toBe(599);
    expect(await spotUsdt(user.token)).toBe('0');
    expect(await orderRows(user.uid)).toBe(0);
  });

  it('concurrent purchases never spend more points than there are', async () => {
    const user = await registerUser(t.app);
    await givePoints(user.uid, 1000);
    const saved = await saveAddress(user.token, HOME);
    const replies = await Promise.all(
      Array.from({ length: 3 }, () =>
        buy(user.token, { item: 'mug', addressId: saved.body.data.id }),
      ),
    );
    expect(replies.filter((r) => r.body.code === 0)).toHaveLength(1);
    expect((await shop(user.token)).points).toBe(200);
    expect(await orderRows(user.uid)).toBe(1);
  });

  it('a physical item needs one of your own addresses, copies it, and shows shipping from the console', async () => {
    const user = await registerUser(t.app);
    const other = await registerUser(t.app);
    await givePoints(user.uid, 2000);
    const noAddress = await buy(user.token, { item: 'mug' });
    expect(noAddress.body.code).toBe(422);
    expect(noAddress.body.errors).toEqual({ addressId: ['Choose a delivery address.'] });
    const theirs = await saveAddress(other.token, HOME);
    const wrong = await buy(user.token, { item: 'mug', addressId: theirs.body.data.id });
    expect(wrong.body.code).toBe(2854);
    expect((await shop(user.token)).points).toBe(2000);

    const mine = await saveAddress(user.token, HOME);
    const bought = await buy(user.token, { item: 'mug', addressId: mine.body.data.id });
    expect(bought.body.code).toBe(0);
    expect(bought.body.data.order).toMatchObject({
      status: 'awaiting_shipment',
      address: { name: 'Mei Lin', region: 'US', address: '1 Market St, SF' },
      trackingNote: null,
    });
    expect((await shop(user.token)).points).toBe(1200);
    // Editing the address later does not move the order.
    await saveAddress(user.token, { ...HOME, id: mine.body.data.id, address: 'Elsewhere 9' });
    expect((await orders(user.token))[0]?.address?.address).toBe('1 Market St, SF');
    expect(await orders(other.token)).toEqual([]);

    const { token: op } = await operatorToken(t, 'reviewer');
    const queue = await call<{ items: (Order & { uid: string })[] }>(
      t.app,
      'GET',
      '/api/admin/v1/shop/orders',
      { token: op },
    );
    const queued = queue.body.data.items.find((o) => o.id === bought.body.data.order.id);
    expect(queued).toMatchObject({ uid: user.uid, status: 'awaiting_shipment' });

    const shipped = await call<Order>(t.app, 'POST', '/api/admin/v1/shop/orders/ship', {
      token: op,
      body: { id: bought.body.data.order.id, trackingNote: 'DHL 1234567890' },
    });
    expect(shipped.body.code).toBe(0);
    expect((await orders(user.token))[0]).toMatchObject({
      status: 'shipped',
      trackingNote: 'DHL 1234567890',
    });
    const audit = await queryRows<{ action: string; reason: string }>(
      t.database.db,
      sql`select action, reason from audit_log where target_type = 'shop_order' and target_id = ${bought.body.data.order.id}`,
    );
    expect(audit).toEqual([{ action: 'shop_order.ship', reason: 'DHL 1234567890' }]);
    const twice = await call(t.app, 'POST', '/api/admin/v1/shop/orders/ship', {
      token: op,
      body: { id: bought.body.data.order.id, trackingNote: 'again' },
    });
    expect(twice.body.code).toBe(2858);
    expect((await orders(user.token))[0]?.trackingNote).toBe('DHL 1234567890');
  });
});

describe('PRODUCT_SHOP_ENABLED', () => {
  it('switched off: the shop says so and a purchase is refused with nothing spent', async () => {
    const user = await registerUser(t.app);
    await givePoints(user.uid, 1000);
    const asker = await operatorToken(t, 'admin');
    const approver = await operatorToken(t, 'admin');
    const setShop = async (value: string) => {
      const requested = await call<{ id: string }>(t.app, 'POST', '/api/admin/v1/settings/shared', {
        token: asker.token,
        body: { name: 'PRODUCT_SHOP_ENABLED', value, reason: 'shop test' },
      });
      expect(requested.body.code, JSON.stringify(requested.body)).toBe(0);
      const decided = await call(t.app, 'POST', '/api/admin/v1/settings/shared/decide', {
        token: approver.token,
        body: { id: requested.body.data.id, decision: 'approve' },
      });
      expect(decided.body.code, JSON.stringify(decided.body)).toBe(0);
    };
    await setShop('false');
    expect((await shop(user.token)).enabled).toBe(false);
    const reply = await buy(user.token, { item: 'usdt_1' });
    expect(reply.body.code).toBe(2853);
    expect(reply.body.message).toBe('The points shop is under development.');
    expect((await shop(user.token)).points).toBe(1000);
    expect(await orderRows(user.uid)).toBe(0);
    await setShop('true');
    expect((await shop(user.token)).enabled).toBe(true);
  });
});
