import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NamedStatement, queryRows, runNamed } from '../src/platform/db.ts';
import { IdempotencyKeyPruner } from '../src/platform/housekeeping.ts';
import {
  IDEMPOTENCY_KEY_TTL_MS,
  insertKeysText,
  insertKeysValues,
  pruneExpiredKeys,
  storedKeysFrom,
} from '../src/platform/idempotency.ts';
import { isUniqueViolation } from '../src/platform/pg-errors.ts';
import { futures, placeOrder, trader } from './contracts.ts';
import {
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  registerUser,
} from './harness.ts';
import { recordPrices } from './prices.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HOUR_MS = 3_600_000;

function transfer(token: string, amount: string, key: string) {
  return call<{ entryId: string }>(t.app, 'POST', '/api/v1/wallet/transfer', {
    token,
    body: { from: 'spot', to: 'futures', asset: 'USDT', amount },
    headers: { 'idempotency-key': key },
  });
}

async function spotUsdt(token: string): Promise<string | undefined> {
  const reply = await call<{ spot: { asset: string; available: string }[] }>(
    t.app,
    'GET',
    '/api/v1/wallet/balances',
    { token },
  );
  return reply.body.data.spot.find((s) => s.asset === 'USDT')?.available;
}

async function transfers(uid: string): Promise<number> {
  const rows = await queryRows(
    t.database.db,
    sql`select id from ledger_entries where user_id = ${Number(uid)} and kind = 'transfer'`,
  );
  return rows.length;
}

async function keyRow(uid: string, key: string) {
  const [row] = await queryRows<{ request_hash: string; created_at: Date | string; n: number }>(
    t.database.db,
    sql`select request_hash, created_at, (select count(*)::int4 from idempotency_keys where user_id = ${Number(uid)} and key = ${key}) as n
        from idempotency_keys where user_id = ${Number(uid)} and key = ${key}`,
  );
  return row;
}

async function fundedUser() {
  const user = await registerUser(t.app);
  await fund(t, Number(user.uid), 100_000_000n);
  return user;
}

describe('Idempotency-Key expiry (24 hours)', () => {
  it('a key 23 hours old still replays the stored reply and moves money once', async () => {
    const { token, uid } = await fundedUser();
    const key = idempotencyKey();
    const first = await transfer(token, '7', key);
    expect(first.body.code).toBe(0);
    t.clock.advance(23 * HOUR_MS);
    const again = await transfer(token, '7', key);
    expect(again.body).toEqual(first.body);
    expect(await spotUsdt(token)).toBe('93');
    expect(await transfers(uid)).toBe(1);
  });

  it('a key older than 24 hours is a new request: a second transfer happens and the balance shows it', async () => {
    const { token, uid } = await fundedUser();
    const key = idempotencyKey();
    const first = await transfer(token, '7', key);
    t.clock.advance(IDEMPOTENCY_KEY_TTL_MS + 1_000);
    const again = await transfer(token, '7', key);
    expect(again.body.code).toBe(0);
    expect(again.body.data.entryId).not.toBe(first.body.data.entryId);
    expect(await spotUsdt(token)).toBe('86');
    expect(await transfers(uid)).toBe(2);
    // The key's row was replaced, not duplicated: it now dates from the second request, which replays from here on.
    const row = await keyRow(uid, key);
    expect(row?.n).toBe(1);
    expect(new Date(row?.created_at as string).getTime()).toBe(t.clock.now().getTime());
    expect((await transfer(token, '7', key)).body).toEqual(again.body);
    expect(await spotUsdt(token)).toBe('86');
  });

  it('an expired key may come back with another body: it is a new request, not IDEMPOTENCY_KEY_REUSED', async () => {
    const { token, uid } = await fundedUser();
    const key = idempotencyKey();
    await transfer(token, '7', key);
    expect((await transfer(token, '8', key)).status).toBe(409);
    t.clock.advance(IDEMPOTENCY_KEY_TTL_MS + 1_000);
    expect((await transfer(token, '8', key)).body.code).toBe(0);
    expect(await spotUsdt(token)).toBe('85');
    expect(await transfers(uid)).toBe(2);
  });

  it('20 concurrent requests with the same expired key run once', async () => {
    const { token, uid } = await fundedUser();
    const key = idempotencyKey();
    await transfer(token, '3', key);
    t.clock.advance(IDEMPOTENCY_KEY_TTL_MS + 1_000);
    const replies = await Promise.all(Array.from({ length: 20 }, () => transfer(token, '3', key)));
    expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(replies[0]?.body.code).toBe(0);
    expect(await transfers(uid)).toBe(2);
    expect(await spotUsdt(token)).toBe('94');
  });
});

describe('the batch path (contract orders)', () => {
  // The batch's own statement, as contracts/batcher.ts runs it: the keys' insert as a part of a larger statement.
  const INSERT_KEYS: NamedStatement = {
    name: 'test_insert_keys',
    text: `with k as (${insertKeysText(1)}) select count(*)::int4 as keys from k`,
  };

  async function insertKeys(
    now: Date,
    entries: { userId: number; key: string; hash: string; response: unknown }[],
  ) {
    return t.database.db.transaction(async (tx) => {
      const [row] = await runNamed<{ keys: number }>(
        tx,
        INSERT_KEYS,
        insertKeysValues(now, entries),
      );
      return row?.keys;
    });
  }

  it('storedKeysFrom: a row older than 24 hours is a new request, a younger one replays or is refused', () => {
    const now = new Date(t.clock.now().getTime());
    const at = (ageMs: number) => now.getTime() - ageMs;
    const rows = [
      {
        user_id: '1',
        key: 'expired-key',
        request_hash: 'h',
        response: '{"a":1}',
        created_ms: at(IDEMPOTENCY_KEY_TTL_MS + 1),
      },
      {
        user_id: '1',
        key: 'live-key-1',
        request_hash: 'h',
        response: '{"a":2}',
        created_ms: at(23 * HOUR_MS),
      },
      {
        user_id: '1',
        key: 'live-key-2',
        request_hash: 'other',
        response: '{"a":3}',
        created_ms: at(HOUR_MS),
      },
    ];
    const keys = ['expired-key', 'live-key-1', 'live-key-2', 'never-seen'].map((key) => ({
      userId: 1,
      key,
      hash: 'h',
    }));
    expect(storedKeysFrom(keys, rows, now)).toEqual([
      { kind: 'new' },
      { kind: 'replay', response: { a: 2 } },
      { kind: 'reused' },
      { kind: 'new' },
    ]);
  });

  it('the keys insert takes an expired row over and stores the new reply', async () => {
    const user = await registerUser(t.app);
    const userId = Number(user.uid);
    const stored = t.clock.now();
    expect(
      await insertKeys(stored, [{ userId, key: 'batch-key-old', hash: 'h1', response: { n: 1 } }]),
    ).toBe(1);
    const later = new Date(stored.getTime() + IDEMPOTENCY_KEY_TTL_MS + 1_000);
    expect(
      await insertKeys(later, [{ userId, key: 'batch-key-old', hash: 'h2', response: { n: 2 } }]),
    ).toBe(1);
    const [row] = await queryRows<{ request_hash: string; response: string; n: number }>(
      t.database.db,
      sql`select request_hash, response, (select count(*)::int4 from idempotency_keys where user_id = ${userId}) as n from idempotency_keys where user_id = ${userId} and key = 'batch-key-old'`,
    );
    expect(row).toEqual({ request_hash: 'h2', response: '{"n":2}', n: 1 });
  });

  it('the keys insert fails on a live key with the unique violation the batch retries on, and stores nothing', async () => {
    const user = await registerUser(t.app);
    const userId = Number(user.uid);
    const stored = t.clock.now();
    await insertKeys(stored, [{ userId, key: 'batch-key-live', hash: 'h1', response: { n: 1 } }]);
    const later = new Date(stored.getTime() + 23 * HOUR_MS);
    const error = await insertKeys(later, [
      { userId, key: 'batch-key-fresh', hash: 'h2', response: { n: 2 } },
      { userId, key: 'batch-key-live', hash: 'h2', response: { n: 3 } },
    ]).catch((e: unknown) => e);
    expect(isUniqueViolation(error, 'idempotency_keys_user_id_key_pk')).toBe(true);
    const rows = await queryRows<{ key: string; request_hash: string }>(
      t.database.db,
      sql`select key, request_hash from idempotency_keys where user_id = ${userId} order by key`,
    );
    expect(rows).toEqual([{ key: 'batch-key-live', request_hash: 'h1' }]);
  });

  /** A trader's first order with a key, and their futures balance after it. */
  async function firstOrder() {
    await recordPrices(t, { BTCUSDT: '95000' });
    const user = await trader(t, '1000');
    const key = idempotencyKey();
    const first = await placeOrder(t, user.token, { amount: '100' }, key);
    expect(first.body.code, JSON.stringify(first.body)).toBe(0);
    return { user, key, first, afterFirst: await futures(t, user.token) };
  }

  /** The same key again is a new order: another id, more money locked, two orders in all. */
  async function expectNewOrder({
    user,
    key,
    first,
    afterFirst,
  }: Awaited<ReturnType<typeof firstOrder>>) {
    const second = await placeOrder(t, user.token, { amount: '100' }, key);
    expect(second.body.code, JSON.stringify(second.body)).toBe(0);
    expect(second.body.data.order.id).not.toBe(first.body.data.order.id);
    expect(Number((await futures(t, user.token)).available)).toBeLessThan(
      Number(afterFirst.available),
    );
    expect(
      await queryRows(
        t.database.db,
        sql`select id from contract_orders where user_id = ${user.id}`,
      ),
    ).toHaveLength(2);
    return second;
  }

  it('a contract order whose key has expired and been pruned places a new order', async () => {
    const placed = await firstOrder();
    expect((await placeOrder(t, placed.user.token, { amount: '100' }, placed.key)).body).toEqual(
      placed.first.body,
    );
    expect(await futures(t, placed.user.token)).toEqual(placed.afterFirst);

    t.clock.advance(IDEMPOTENCY_KEY_TTL_MS);
    await recordPrices(t, { BTCUSDT: '95010' });
    expect(
      await new IdempotencyKeyPruner({ db: t.database.db, clock: t.clock }).runOnce(),
    ).toBeGreaterThan(0);
    await expectNewOrder(placed);
  });

  it('a contract order key 24 hours old places a new order before any prune, while a 23-hour-old one still replays', async () => {
    const placed = await firstOrder();
    t.clock.advance(IDEMPOTENCY_KEY_TTL_MS - HOUR_MS);
    await recordPrices(t, { BTCUSDT: '95005' });
    expect((await placeOrder(t, placed.user.token, { amount: '100' }, placed.key)).body).toEqual(
      placed.first.body,
    );
    expect(await futures(t, placed.user.token)).toEqual(placed.afterFirst);

    t.clock.advance(HOUR_MS);
    await recordPrices(t, { BTCUSDT: '95010' });
    const second = await expectNewOrder(placed);
    // The key's row now belongs to the second order: a replay returns the second reply.
    expect((await placeOrder(t, placed.user.token, { amount: '100' }, placed.key)).body).toEqual(
      second.body,
    );
  });
});

describe('the prune worker', () => {
  it('deletes only expired keys, a batch per statement, at most a round of statements at a time', async () => {
    const db = t.database.db;
    const user = await registerUser(t.app);
    const userId = Number(user.uid);
    const now = t.clock.now().getTime();
    // Keys from before the window of this test are pruned away first, so the counts below are this test's own.
    await pruneExpiredKeys(db, new Date(now), 1_000_000);
    const ages = {
      expired: [25 * HOUR_MS, 24 * HOUR_MS + 1, 48 * HOUR_MS, 30 * 24 * HOUR_MS, 24 * HOUR_MS],
      live: [23 * HOUR_MS, HOUR_MS, 0],
    };
    const rows = [
      ...ages.expired.map((age, i) => ({ key: `expired-${i}`, age })),
      ...ages.live.map((age, i) => ({ key: `live-${i}`, age })),
    ];
    for (const { key, age } of rows) {
      await db.execute(
        sql`insert into idempotency_keys (user_id, key, request_hash, response, created_at) values (${userId}, ${key}, 'h', '{}', ${new Date(now - age).toISOString()}::timestamptz)`,
      );
    }
    const left = async () =>
      (
        await queryRows<{ key: string }>(
          db,
          sql`select key from idempotency_keys where user_id = ${userId} order by key`,
        )
      ).map((r) => r.key);

    // Two statements of two keys a round: four of the five expired keys go, the oldest first;
    // the one exactly 24 hours old is the youngest expired key, and waits for the next round.
    const pruner = new IdempotencyKeyPruner(
      { db, clock: t.clock },
      { batch: 2, statementsPerRound: 2 },
    );
    expect(await pruner.runOnce()).toBe(4);
    expect(await left()).toEqual(['expired-4', 'live-0', 'live-1', 'live-2']);
    expect(await pruner.runOnce()).toBe(1);
    expect(await pruner.runOnce()).toBe(0);
    expect(await left()).toEqual(['live-0', 'live-1', 'live-2']);
  });
});
