import type { Order } from '@tradewind/contract/instant';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PlaceRequest,
  type PlacementDeps,
  placeBatch,
} from '../src/modules/contracts/batcher.ts';
import { Settlement } from '../src/modules/contracts/settlement.ts';
import { checkLedger } from '../src/modules/ledger/invariants.ts';
import { verifyMoneyPassword } from '../src/modules/money-password/service.ts';
import { type Executor, pipelinedTransaction, queryRows } from '../src/platform/db.ts';
import { KeyTakenError } from '../src/platform/idempotency.ts';
import {
  type Trader,
  expectEveryReplayAgrees,
  futures,
  placeOrder,
  recordAt,
  settlement,
  trader,
} from './contracts.ts';
import { TRADE_PIN, type TestApp, createTestApp, idempotencyKey } from './harness.ts';

/**
 * Group commit and concurrent settlement. On PGlite (one connection) requests and workers
 * interleave; with TEST_DATABASE_URL they run truly in parallel on PostgreSQL.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const nextSecond = () => Math.floor(t.clock.now().getTime() / 1000) * 1000 + 1000;
const count = async (query: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: string }>(t.database.db, query))[0]?.n);

describe('group commit', () => {
  it('200 concurrent orders from 50 users, some short of funds: each gets its own result, balances exact, duplicates replay', async () => {
    await recordAt(t, nextSecond(), { BTCUSDT: '95000.00', ETHUSDT: '3300.00' });
    // User i can pay for (i % 5) orders of 10 USDT (10.02 with the fee) and sends 4.
    const users: Trader[] = [];
    for (let i = 0; i < 50; i++) users.push(await trader(t, (10.02 * (i % 5)).toFixed(2)));
    // Each has sent the trading password before (an earlier order), so the burst measures the
    // grouping, not 50 first argon2 checks queued on the thread pool (money-password-recent.test.ts).
    for (const user of users)
      await verifyMoneyPassword({ db: t.database.db, clock: t.clock }, user.id, 'trade', TRADE_PIN);
    const requests = users.flatMap((user, i) =>
      [0, 1, 2, 3].map((n) => ({
        user,
        i,
        key: idempotencyKey(),
        body: {
          symbol: n % 2 ? 'ETHUSDT' : 'BTCUSDT',
          direction: n < 2 ? 'up' : 'down',
          periodId: 1 + (n % 4),
          amount: '10',
        } as const,
      })),
    );
    // 20 of them are sent twice at once, with the same key and body.
    const duplicates = requests.filter((_, n) => n % 10 === 3);
    const before = { ...t.app.contracts.batcher.stats };
    const replies = await Promise.all(
      [...requests, ...duplicates].map((r) => placeOrder(t, r.user.token, r.body, r.key)),
    );
    const stats = t.app.contracts.batcher.stats;
    const batches = stats.batches - before.batches;
    const answered = stats.requests - before.requests;
    expect(answered).toBeGreaterThanOrEqual(220);
    // Grouped: far fewer transactions than requests.
    expect(batches).toBeLessThan(answered / 2);
    // And no batch failed (a deadlock or an error would have sent its requests one by one).
    expect(stats.retriedAlone - before.retriedAlone).toBe(0);

    const byKey = new Map<string, (typeof replies)[number][]>();
    [...requests, ...duplicates].forEach((r, n) =>
      byKey.set(r.key, [...(byKey.get(r.key) ?? []), replies[n] as (typeof replies)[number]]),
    );
    for (const [key, pair] of byKey) {
      if (pair.length === 2) expect(pair[1]?.body, key).toEqual(pair[0]?.body);
    }
    for (const [i, user] of users.entries()) {
      const mine = requests
        .filter((r) => r.user === user)
        .map((r) => (byKey.get(r.key) as (typeof replies)[number][])[0]);
      const accepted = mine.filter((reply) => reply?.body.code === 0);
      const refused = mine.filter((reply) => reply?.body.code !== 0);
      expect(accepted.length, `user ${i}`).toBe(Math.min(4, i % 5));
      for (const reply of refused) expect(reply?.body.code).toBe(2001);
      for (const reply of accepted)
        expect(reply?.body.data.balances.futures.total).toBe(
          (10.02 * (i % 5)).toFixed(2).replace(/\.?0+$/, '') || '0',
        );
      const spent = 10.02 * accepted.length;
      const expectedAvailable = (10.02 * (i % 5) - spent).toFixed(2);
      const balance = await futures(t, user.token);
      expect(Number(balance.available).toFixed(2)).toBe(expectedAvailable);
      expect(Number(balance.locked).toFixed(2)).toBe(spent.toFixed(2));
      expect(
        await count(
          sql`select count(*)::text as n from contract_orders where user_id = ${user.id}`,
        ),
      ).toBe(accepted.length);
      // Each order in a reply is the user's own, as stored.
      for (const reply of accepted) {
        const order = reply?.body.data.order as Order;
        expect(
          await count(
            sql`select count(*)::text as n from contract_orders where id = ${Number(order.id)} and user_id = ${user.id} and public_id = ${order.publicId}`,
          ),
        ).toBe(1);
      }
    }
    // No key is left behind without a reply.
    expect(
      await count(sql`select count(*)::text as n from idempotency_keys where response is null`),
    ).toBe(0);
    expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
  });

  /**
   * The batch's own statements through a wrapper of the transaction's executor: each one's
   * first words, and how many of the batch's statements had been answered when it was sent.
   * `before` may send a statement of its own first, through the same connection.
   */
  function counting(
    tx: Executor,
    before?: (text: string, send: (text: string) => Promise<unknown>) => void,
  ) {
    const client = (
      tx as unknown as { session: { client: { query: (...args: unknown[]) => Promise<unknown> } } }
    ).session.client;
    const sent: { statement: string; answeredBefore: number }[] = [];
    let answered = 0;
    const executor = {
      session: {
        client: {
          query: (...args: unknown[]) => {
            const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
            before?.(text, (other) => client.query(other));
            sent.push({
              statement: text.trim().split(/\s+/).slice(0, 2).join(' '),
              answeredBefore: answered,
            });
            return client.query(...args).finally(() => {
              answered += 1;
            });
          },
        },
      },
    };
    return { executor: executor as unknown as Executor, sent };
  }

  const tenOrders = async () => {
    await recordAt(t, nextSecond(), { BTCUSDT: '95000.00' });
    const users: Trader[] = [];
    for (let i = 0; i < 10; i++) users.push(await trader(t, '100'));
    const requests: PlaceRequest[] = users.map((user) => ({
      userId: user.id,
      key: idempotencyKey(),
      hash: `hash-${user.id}`,
      body: {
        symbol: 'BTCUSDT',
        direction: 'up',
        periodId: 1,
        amount: '10',
        tradePassword: TRADE_PIN,
      },
      stakeMinor: 10_000_000n,
      lang: 'en',
    }));
    const { deps } = t.app.contracts.batcher as unknown as { deps: PlacementDeps };
    return { users, requests, deps, ids: users.map((user) => user.id).join(',') };
  };

  it('a batch of orders is five statements in two round trips between BEGIN and COMMIT, however many orders it holds', async () => {
    const { users, requests, deps, ids } = await tenOrders();
    let sent: { statement: string; answeredBefore: number }[] = [];
    const results = await pipelinedTransaction(t.database.db, (tx) => {
      const counted = counting(tx);
      sent = counted.sent;
      return placeBatch(deps, counted.executor, t.clock.now(), requests);
    });
    expect(results.map((result) => 'ok' in result)).toEqual(requests.map(() => true));
    // The three reads go out together, and the two writes together once the reads are answered.
    expect(sent.map((s) => s.answeredBefore)).toEqual([0, 0, 0, 3, 3]);
    expect(sent.map((s) => s.statement)).toEqual([
      'select array(select',
      'select id::text,',
      'select (select',
      'with o',
      'with s',
    ]);
    // And they did all of it: the orders, their keys, and the money moved.
    expect(
      await count(
        sql.raw(
          `select count(*)::text as n from contract_orders where user_id in (${ids}) and state = 'open'`,
        ),
      ),
    ).toBe(10);
    expect(
      await count(
        sql.raw(
          `select count(*)::text as n from idempotency_keys where user_id in (${ids}) and response is not null`,
        ),
      ),
    ).toBe(10);
    for (const user of users) expect((await futures(t, user.token)).available).toBe('89.98');
  });

  it('a key a concurrent request stored after the batch read the keys: the whole batch rolls back with KeyTakenError, and nothing moved', async () => {
    const { users, requests, deps, ids } = await tenOrders();
    const taken = requests[4] as PlaceRequest;
    const ordersBefore = await count(sql`select count(*)::text as n from contract_orders`);
    const attempt = pipelinedTransaction(t.database.db, (tx) => {
      // Just before the orders and keys go out, another request's row takes one of the keys.
      const { executor } = counting(tx, (text, send) => {
        if (text.startsWith('with o as'))
          void send(
            `insert into idempotency_keys (user_id, key, request_hash, response, created_at) values (${taken.userId}, '${taken.key}', 'other', '{}', now())`,
          );
      });
      return placeBatch(deps, executor, t.clock.now(), requests);
    });
    await expect(attempt).rejects.toBeInstanceOf(KeyTakenError);
    expect(await count(sql`select count(*)::text as n from contract_orders`)).toBe(ordersBefore);
    expect(
      await count(
        sql.raw(`select count(*)::text as n from idempotency_keys where user_id in (${ids})`),
      ),
    ).toBe(0);
    for (const user of users)
      expect(await futures(t, user.token)).toMatchObject({ available: '100', locked: '0' });
    expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
  });
});

describe('concurrent settlement workers', () => {
  it.each([2, 8])(
    '%i workers at once: each order settled once, the ledger whole',
    async (workers) => {
      const start = nextSecond();
      await recordAt(t, start, { SOLUSDT: '180.00' });
      const users: Trader[] = [];
      for (let i = 0; i < 6; i++) users.push(await trader(t, '1000'));
      const orders: Order[] = [];
      const replies = await Promise.all(
        users.flatMap((user, i) =>
          Array.from({ length: 10 }, (_, n) =>
            placeOrder(t, user.token, {
              symbol: 'SOLUSDT',
              direction: (i + n) % 2 ? 'up' : 'down',
              amount: String(10 + n),
            }),
          ),
        ),
      );
      for (const reply of replies) {
        expect(reply.body.code).toBe(0);
        orders.push(reply.body.data.order);
      }
      await recordAt(t, start + 30_000, { SOLUSDT: '181.00' });
      const settleEntries = () =>
        count(
          sql`select count(*)::text as n from ledger_entries where reference like 'contract:%:settle'`,
        );
      const entriesBefore = await settleEntries();
      const errors: unknown[] = [];
      const settled = await Promise.all(
        Array.from({ length: workers }, () => settlement(t, 7, errors).settleDue()),
      );
      expect(errors).toEqual([]);
      // Together the workers settled every due order (these, and earlier ones now due), each counted once.
      expect(settled.reduce((a, b) => a + b, 0)).toBe((await settleEntries()) - entriesBefore);
      expect(settled.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(orders.length);
      const ids = orders.map((o) => Number(o.id));
      const entries = await queryRows<{ reference: string; n: string }>(
        t.database.db,
        sql`select reference, count(*)::text as n from ledger_entries where reference like 'contract:%:settle' group by reference`,
      );
      const settleCount = new Map(entries.map((e) => [e.reference, Number(e.n)]));
      for (const id of ids) expect(settleCount.get(`contract:${id}:settle`)).toBe(1);
      expect(
        await count(
          sql`select count(*)::text as n from contract_orders where state = 'open' and instrument = 'SOLUSDT'`,
        ),
      ).toBe(0);
      for (const user of users) expect((await futures(t, user.token)).locked).toBe('0');
      expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
    },
  );

  it('while one transaction settles a batch, orders that come due meanwhile are settled by another, not after it', async () => {
    const start = nextSecond();
    await recordAt(t, start, { XRPUSDT: '0.5000' });
    const user = await trader(t, '1000');
    const place = async (periodId: number) => {
      const reply = await placeOrder(t, user.token, {
        symbol: 'XRPUSDT',
        direction: 'up',
        periodId,
        amount: '10',
      });
      expect(reply.body.code).toBe(0);
      return reply.body.data.order;
    };
    const soon = [await place(1), await place(1)];
    const later = [await place(2), await place(2)];
    expect(soon.map((o) => o.periodSeconds)).toEqual([30, 30]);
    expect(later.map((o) => o.periodSeconds)).toEqual([60, 60]);
    const settledOf = async (orders: Order[]) =>
      count(
        sql`select count(*)::text as n from contract_orders where state = 'settled' and id = any(${`{${orders.map((o) => o.id).join(',')}}`}::bigint[])`,
      );

    // The first batch stays in progress (its transaction committed, the worker not yet done with it) until released.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { ledger, hub } = t.app.services;
    let batches = 0;
    class HeldFirstBatch extends Settlement {
      override async settleBatch(...args: Parameters<Settlement['settleBatch']>): Promise<number> {
        const settled = await super.settleBatch(...args);
        if (settled > 0 && batches++ === 0) await released;
        return settled;
      }
    }
    const worker = new HeldFirstBatch({ db: t.database.db, clock: t.clock, ledger, hub });
    await recordAt(t, start + 30_000, { XRPUSDT: '0.5100' });
    const round = worker.settleDue();
    await expect.poll(() => settledOf(soon), { timeout: 5_000 }).toBe(2);
    // The 60 s orders come due while the first batch is still in progress.
    await recordAt(t, start + 60_000, { XRPUSDT: '0.5200' });
    await expect.poll(() => settledOf(later), { timeout: 5_000 }).toBe(2);
    release();
    expect(await round).toBeGreaterThanOrEqual(4);
    expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
  });

  it('a round whose transactions all once found nothing settles a later burst in parallel again', async () => {
    // The scheduling alone: batches are scripted. Both transactions first find nothing (one
    // ends; the other waits on it, then polls); then a burst comes due, 6 batches of 30 ms.
    // Before, the one left settled the whole burst alone.
    let calls = 0;
    let burst = 6;
    let inFlight = 0;
    let most = 0;
    class Scripted extends Settlement {
      override async settleBatch(): Promise<number> {
        const call = ++calls;
        if (call <= 2) {
          await new Promise((resolve) => setTimeout(resolve, call === 1 ? 0 : 2));
          return 0;
        }
        if (burst === 0) return 0;
        burst--;
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 30));
        inFlight--;
        return 100;
      }
    }
    const { ledger, hub } = t.app.services;
    const worker = new Scripted({ db: t.database.db, clock: t.clock, ledger, hub });
    expect(await worker.settleDue()).toBe(600);
    expect(most).toBe(2);
  });

  it('the replay agrees with every settled order', async () => {
    expect(await expectEveryReplayAgrees(t)).toBeGreaterThanOrEqual(120);
  });
});
