import type {
  ContractConfig,
  Order,
  Orders,
  Outcome,
  PlaceOrderResponse,
  Replay,
} from '@tradewind/contract/instant';
import { INSTRUMENTS } from '@tradewind/contract/market';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { settlementEntry } from '../src/modules/contracts/service.ts';
import { accountName } from '../src/modules/ledger/service.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  expectEveryReplayAgrees,
  futures,
  orderRow,
  placeOrder,
  placed,
  recordAt,
  settlement,
  trader,
} from './contracts.ts';
import {
  PASSWORD,
  TRADE_PIN,
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

const now = () => t.clock.now().getTime();
/** The next whole second after the clock. */
const nextSecond = () => Math.floor(now() / 1000) * 1000 + 1000;
const count = async (query: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: string }>(t.database.db, query))[0]?.n);

describe('configuration', () => {
  it("lists the default periods with payout and fee rates, stake limits and break-even win rates, and the rule in the user's language", async () => {
    const user = await trader(t, '0');
    const reply = await call<ContractConfig>(t.app, 'GET', '/api/v1/contracts/config', {
      token: user.token,
      lang: 'zh-CN',
    });
    expect(reply.body.code).toBe(0);
    const config = reply.body.data;
    expect(
      config.periods.map((p) => [
        p.seconds,
        p.payoutRate,
        p.feeRate,
        p.minStake,
        p.maxStake,
        p.breakEvenWinRatePct,
      ]),
    ).toEqual([
      [30, '0.8', '0.002', '10', '10000', '55.67'],
      [60, '0.85', '0.002', '10', '10000', '54.17'],
      [120, '0.88', '0.002', '10', '10000', '53.30'],
      [300, '0.92', '0.002', '10', '10000', '52.19'],
    ]);
    expect(config).toMatchObject({
      maxOpenOrders: 20,
      dailyLossLimit: null,
      lossToday: '0',
      // Traders have set one (spec §5: before the first order).
      tradePasswordRequired: true,
    });
    expect(config.rule).toContain('5 秒');
  });

  it('an inactive period is not offered and cannot be ordered', async () => {
    const user = await trader(t);
    await recordPrices(t, { BTCUSDT: '95000.00' });
    await t.database.db.execute(
      sql`update contract_periods set active = false where seconds = 120`,
    );
    try {
      const config = await call<ContractConfig>(t.app, 'GET', '/api/v1/contracts/config', {
        token: user.token,
      });
      expect(config.body.data.periods.map((p) => p.seconds)).toEqual([30, 60, 300]);
      const reply = await placeOrder(t, user.token, { periodId: 3 });
      expect(reply.body.code).toBe(2602);
      expect(await futures(t, user.token)).toEqual({ available: '1000', locked: '0' });
    } finally {
      await t.database.db.execute(
        sql`update contract_periods set active = true where seconds = 120`,
      );
    }
  });
});

describe('placing an order', () => {
  it('locks stake + fee in the futures account, records the open tick and delivers after the period', async () => {
    const user = await trader(t, '1000');
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const [tick] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from market_ticks where instrument = 'BTCUSDT' order by ts desc limit 1`,
    );
    const acceptedAt = now();
    const reply = await placeOrder(t, user.token, {
      direction: 'up',
      periodId: 2,
      amount: '250.5',
    });
    expect(reply.body.code).toBe(0);
    const { order, balances } = reply.body.data;
    expect(order).toMatchObject({
      symbol: 'BTCUSDT',
      direction: 'up',
      periodSeconds: 60,
      payoutRate: '0.85',
      feeRate: '0.002',
      stake: '250.5',
      fee: '0.501',
      quantity: '0.00263684',
      state: 'open',
      displayStatus: 'in_progress',
      outcome: null,
      closeTick: null,
      remainingMs: 60_000,
      payout: null,
      currentPnl: '-0.501',
      openTick: {
        id: tick?.id,
        price: '95000',
        source: 'simulated',
        sourceLabel: 'simulated (demo data)',
      },
    });
    expect(order.createdAt).toBe(new Date(acceptedAt).toISOString());
    expect(order.deliverAt).toBe(new Date(acceptedAt + 60_000).toISOString());
    expect(order.publicId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(balances.futures).toMatchObject({
      available: '748.999',
      locked: '251.001',
      total: '1000',
    });
    expect(await futures(t, user.token)).toEqual({ available: '748.999', locked: '251.001' });
    // One entry of two postings, available → locked.
    const postings = await queryRows<{
      bucket: string;
      type: string;
      amount: string;
      reference: string;
    }>(
      t.database.db,
      sql`select p.bucket, p.type, p.amount::text, e.reference from ledger_postings p join ledger_entries e on e.id = p.entry_id
          where p.user_id = ${user.id} and e.kind = 'contract_open' order by p.id`,
    );
    expect(postings).toEqual([
      {
        bucket: 'available',
        type: 'position_margin',
        amount: '-251001000',
        reference: `contract:${order.id}:open`,
      },
      {
        bucket: 'locked',
        type: 'position_margin',
        amount: '251001000',
        reference: `contract:${order.id}:open`,
      },
    ]);
    expect(await orderRow(t, order.id)).toMatchObject({
      state: 'open',
      outcome: null,
      open_tick_id: tick?.id,
      stake_minor: '250500000',
      fee_minor: '501000',
    });
  });

  it('tells the user over their channel: order placed (with its request id), balance changed', async () => {
    const user = await trader(t);
    await recordPrices(t, { ETHUSDT: '3300.00' });
    const spy = vi.spyOn(t.app.services.hub, 'publishToUser');
    try {
      const reply = await call<PlaceOrderResponse>(t.app, 'POST', '/api/v1/contracts/orders', {
        token: user.token,
        body: {
          symbol: 'ETHUSDT',
          direction: 'down',
          periodId: 1,
          amount: '100',
          tradePassword: TRADE_PIN,
        },
        headers: { 'idempotency-key': idempotencyKey(), 'x-request-id': 'trace-4f1c' },
      });
      const order = reply.body.data.order;
      const events = spy.mock.calls
        .filter(([userId]) => userId === user.id)
        .map(([, event]) => event as { type: string; order?: Order; requestId?: string });
      expect(events.map((e) => e.type)).toEqual(['order.placed', 'balance.changed']);
      expect(events[0]?.order?.id).toBe(order.id);
      // The request that placed it, named in its event: one trace from the request to the socket.
      expect(events[0]?.requestId).toBe('trace-4f1c');
    } finally {
      spy.mockRestore();
    }
  });

  it('a replay with the same Idempotency-Key returns the first reply and locks once; another body is refused', async () => {
    const user = await trader(t, '500');
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const key = idempotencyKey();
    const first = await placeOrder(t, user.token, { amount: '100' }, key);
    const again = await placeOrder(t, user.token, { amount: '100' }, key);
    expect(first.body.code).toBe(0);
    // Byte for byte.
    expect(again.response.body).toBe(first.response.body);
    const other = await placeOrder(t, user.token, { amount: '101' }, key);
    expect(other.body.code).toBe(2003);
    expect(other.status).toBe(409);
    expect(await futures(t, user.token)).toEqual({ available: '399.8', locked: '100.2' });
    expect(
      await count(sql`select count(*)::text as n from contract_orders where user_id = ${user.id}`),
    ).toBe(1);
  });

  it('requires an Idempotency-Key', async () => {
    const user = await trader(t);
    const reply = await placeOrder(t, user.token, {}, null);
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.['Idempotency-Key']).toBeDefined();
  });

  describe('every refusal changes nothing, and a refused key can be used again', () => {
    async function snapshot(userId: number, token: string) {
      return {
        futures: await futures(t, token),
        orders: await count(
          sql`select count(*)::text as n from contract_orders where user_id = ${userId}`,
        ),
        keys: await count(
          sql`select count(*)::text as n from idempotency_keys where user_id = ${userId}`,
        ),
        entries: await count(
          sql`select count(*)::text as n from ledger_entries where user_id = ${userId}`,
        ),
      };
    }

    async function refused(
      user: { id: number; token: string },
      body: Parameters<typeof placeOrder>[2],
      code: number,
      key = idempotencyKey(),
    ) {
      const before = await snapshot(user.id, user.token);
      const reply = await placeOrder(t, user.token, body, key);
      expect(reply.body.code, JSON.stringify(reply.body)).toBe(code);
      expect(reply.body.data).toBeNull();
      expect(await snapshot(user.id, user.token)).toEqual(before);
      return reply;
    }

    it('unknown period, stake out of range, too many decimals, unknown or closed instrument', async () => {
      const user = await trader(t, '20000');
      await recordPrices(t, { BTCUSDT: '95000.00', XAGUSD: '31.250' });
      await refused(user, { periodId: 99 }, 2602);
      const low = await refused(user, { amount: '9.99' }, 2603);
      expect(low.body.message).toBe('The amount must be between 10 and 10000 USDT.');
      await refused(user, { amount: '10000.000001' }, 2603);
      const precision = await refused(user, { amount: '10.0000001' }, 422);
      expect(Object.keys(precision.body.errors ?? {})).toEqual(['amount']);
      await refused(user, { symbol: 'NOPEUSDT' }, 422);
      const silver = INSTRUMENTS.XAGUSD as { tradable: boolean };
      silver.tradable = false;
      try {
        const closed = await refused(user, { symbol: 'XAGUSD' }, 2601);
        expect(closed.body.message).toContain('XAGUSD');
      } finally {
        silver.tradable = true;
      }
      expect((await placeOrder(t, user.token, { amount: '10' })).body.code).toBe(0);
      expect((await placeOrder(t, user.token, { amount: '10000' })).body.code).toBe(0);
    });

    it('no fresh price: PRICE_UNAVAILABLE, never a stale one', async () => {
      const user = await trader(t);
      await recordPrices(t, { SOLUSDT: '180.00' });
      t.clock.advance(5_001);
      await refused(user, { symbol: 'SOLUSDT' }, 2401);
      await recordPrices(t, { SOLUSDT: '180.50' });
      expect(
        (await placeOrder(t, user.token, { symbol: 'SOLUSDT' })).body.data.order.openTick.price,
      ).toBe('180.5');
    });

    it('insufficient balance, then the same key succeeds once funded', async () => {
      const user = await trader(t, '100.1');
      await recordPrices(t, { BTCUSDT: '95000.00' });
      const key = idempotencyKey();
      await refused(user, { amount: '100' }, 2001, key);
      await fund(t, user.id, 100_000n, 'futures');
      const reply = await placeOrder(t, user.token, { amount: '100' }, key);
      expect(reply.body.code).toBe(0);
      expect(await futures(t, user.token)).toEqual({ available: '0', locked: '100.2' });
    });

    it('the open-order cap: the 21st open order is refused', async () => {
      const user = await trader(t, '1000');
      await recordPrices(t, { BTCUSDT: '95000.00' });
      for (let i = 0; i < 20; i++) await placed(t, user.token, { amount: '10' });
      const reply = await refused(user, { amount: '10' }, 2604);
      expect(reply.body.message).toContain('20');
    });

    it('the daily loss limit counts open orders as lost, plus losses and fees settled today', async () => {
      const user = await trader(t, '1000');
      const set = await call<ContractConfig>(t.app, 'POST', '/api/v1/contracts/settings', {
        token: user.token,
        body: { dailyLossLimit: '300' },
      });
      expect(set.body.data).toMatchObject({ dailyLossLimit: '300', lossToday: '0' });
      const start = nextSecond();
      await recordAt(t, start, { LTCUSDT: '100.00' });
      await placed(t, user.token, { symbol: 'LTCUSDT', direction: 'up' });
      await placed(t, user.token, { symbol: 'LTCUSDT', direction: 'down' });
      // 3 × 100.2 = 300.6 > 300.
      await refused(user, { symbol: 'LTCUSDT' }, 2605);
      // Delivery: up wins (a fee of 0.2 counts), down loses (100.2 counts).
      await recordAt(t, start + 30_000, { LTCUSDT: '101.00' });
      expect(await settlement(t).settleDue()).toBeGreaterThanOrEqual(2);
      const config = await call<ContractConfig>(t.app, 'GET', '/api/v1/contracts/config', {
        token: user.token,
      });
      expect(config.body.data.lossToday).toBe('100.4');
      // 100.4 + 100.2 ≤ 300, 100.4 + 200.4 > 300.
      await placed(t, user.token, { symbol: 'LTCUSDT' });
      await refused(user, { symbol: 'LTCUSDT' }, 2605);
      // Removing the limit lifts the refusal.
      await call(t.app, 'POST', '/api/v1/contracts/settings', {
        token: user.token,
        body: { dailyLossLimit: null },
      });
      await placed(t, user.token, { symbol: 'LTCUSDT' });
    });

    it('a trading password, once set, is required on every order and counts wrong attempts', async () => {
      const user = await trader(t, '1000');
      await recordPrices(t, { BTCUSDT: '95000.00' });
      const pin = '480316';
      await call(t.app, 'POST', '/api/v1/money-passwords', {
        token: user.token,
        body: {
          kind: 'trade',
          proof: 'login_password',
          loginPassword: PASSWORD,
          password: pin,
          confirmPassword: pin,
        },
      });
      const config = await call<ContractConfig>(t.app, 'GET', '/api/v1/contracts/config', {
        token: user.token,
      });
      expect(config.body.data.tradePasswordRequired).toBe(true);
      const missing = await refused(user, { tradePassword: undefined }, 2607);
      expect(missing.status).toBe(403);
      const wrong = await refused(user, { tradePassword: '135792' }, 422);
      expect(Object.keys(wrong.body.errors ?? {})).toEqual(['tradePassword']);
      expect(wrong.body.message).toContain('4');
      const key = idempotencyKey();
      const ok = await placeOrder(t, user.token, { tradePassword: pin }, key);
      expect(ok.body.code).toBe(0);
      // A replay must show the password again; the stored request never holds it.
      expect((await placeOrder(t, user.token, { tradePassword: undefined }, key)).body.code).toBe(
        2607,
      );
      expect((await placeOrder(t, user.token, { tradePassword: pin }, key)).body).toEqual(ok.body);
      const stored = await queryRows<{ response: string }>(
        t.database.db,
        sql`select response from idempotency_keys where user_id = ${user.id}`,
      );
      expect(stored.map((r) => r.response).join()).not.toContain(pin);
    });
  });
});

describe('settlement: the rule on recorded ticks', () => {
  const TABLE: {
    direction: 'up' | 'down';
    close: string | null;
    outcome: Outcome;
    available: string;
  }[] = [
    // Stake 100, fee 0.2, payout rate 0.8, starting from 1000.
    { direction: 'up', close: '95000.01', outcome: 'win', available: '1079.8' },
    { direction: 'up', close: '94999.99', outcome: 'loss', available: '899.8' },
    { direction: 'up', close: '95000.00', outcome: 'tie', available: '999.8' },
    { direction: 'down', close: '94999.99', outcome: 'win', available: '1079.8' },
    { direction: 'down', close: '95000.01', outcome: 'loss', available: '899.8' },
    { direction: 'down', close: '95000.00', outcome: 'tie', available: '999.8' },
    { direction: 'up', close: null, outcome: 'void', available: '1000' },
    { direction: 'down', close: null, outcome: 'void', available: '1000' },
  ];

  it.each(TABLE)(
    '$direction, close $close → $outcome',
    async ({ direction, close, outcome, available }) => {
      const user = await trader(t, '1000');
      const start = nextSecond();
      await recordAt(t, start, { BTCUSDT: '95000.00' });
      const order = await placed(t, user.token, { direction, amount: '100', periodId: 1 });
      const deliverAt = start + 30_000;
      const spy = vi.spyOn(t.app.services.hub, 'publishToUser');
      try {
        if (close) {
          await recordAt(t, deliverAt - 1000, { BTCUSDT: '95000.00' });
          await recordAt(t, deliverAt, { BTCUSDT: close });
          await settlement(t).settleDue();
        } else {
          // The feed stops: nothing at delivery. The worker waits a second for a late tick, then voids.
          t.clock.set(deliverAt);
          await settlement(t).settleDue();
          expect((await orderRow(t, order.id))?.state).toBe('open');
          t.clock.set(deliverAt + 1_000);
          await settlement(t).settleDue();
        }
        const events = spy.mock.calls
          .filter(([userId]) => userId === user.id)
          .map(([, event]) => event as { type: string; order?: Order });
        // The "contract settled" message follows, written in the same transaction.
        expect(events.map((e) => e.type)).toEqual([
          'order.settled',
          'balance.changed',
          'message.new',
        ]);
        expect(events[0]?.order).toMatchObject({ id: order.id, outcome, state: 'settled' });
      } finally {
        spy.mockRestore();
      }
      expect(await futures(t, user.token)).toEqual({ available, locked: '0' });
      const detail = await call<Order>(t.app, 'GET', `/api/v1/contracts/order?id=${order.id}`, {
        token: user.token,
      });
      const payout = { win: '180', loss: '0', tie: '100', void: '100.2' }[outcome];
      const profit = { win: '79.8', loss: '-100.2', tie: '-0.2', void: '0' }[outcome];
      expect(detail.body.data).toMatchObject({
        state: 'settled',
        displayStatus: 'completed',
        outcome,
        payout,
        profit,
        currentPnl: profit,
        remainingMs: 0,
      });
      expect(detail.body.data.closeTick?.price ?? null).toBe(
        close === null ? null : String(Number(close)),
      );
      expect(detail.body.data.closeTick?.ts ?? null).toBe(
        close === null ? null : new Date(deliverAt).toISOString(),
      );
      // The settlement entry, posting by posting: the user's lock released, the fee to the house, the payout.
      const postings = await queryRows<{
        account: string;
        bucket: string;
        type: string;
        amount: string;
      }>(
        t.database.db,
        sql`select a.name as account, p.bucket, p.type, p.amount::text from ledger_postings p
          join ledger_entries e on e.id = p.entry_id join ledger_accounts a on a.id = p.account_id
          where e.reference = ${`contract:${order.id}:settle`} order by a.name, p.bucket, p.amount`,
      );
      const mine = `user:${user.id}:futures:USDT`;
      const expected = {
        win: [
          [mine, 'available', 'position_close', '180000000'],
          [mine, 'locked', 'position_close', '-100000000'],
          [mine, 'locked', 'position_fee', '-200000'],
          ['house:contracts:USDT', 'available', 'position_close', '-80000000'],
          ['house:fees:USDT', 'available', 'position_fee', '200000'],
        ],
        loss: [
          [mine, 'locked', 'position_close', '-100000000'],
          [mine, 'locked', 'position_fee', '-200000'],
          ['house:contracts:USDT', 'available', 'position_close', '100000000'],
          ['house:fees:USDT', 'available', 'position_fee', '200000'],
        ],
        tie: [
          [mine, 'available', 'order_refund', '100000000'],
          [mine, 'locked', 'order_refund', '-100000000'],
          [mine, 'locked', 'position_fee', '-200000'],
          ['house:fees:USDT', 'available', 'position_fee', '200000'],
        ],
        void: [
          [mine, 'available', 'order_refund', '100200000'],
          [mine, 'locked', 'order_refund', '-100200000'],
        ],
      }[outcome];
      const sortKey = (row: string[]) => row.join('|');
      expect(
        postings
          .map((p) => [p.account, p.bucket, p.type, p.amount])
          .sort((a, b) => sortKey(a).localeCompare(sortKey(b))),
      ).toEqual([...expected].sort((a, b) => sortKey(a).localeCompare(sortKey(b))));
      const replay = await call<Replay>(
        t.app,
        'GET',
        `/api/v1/contracts/replay?publicId=${order.publicId}`,
      );
      expect(replay.body.data).toMatchObject({
        outcome,
        payout,
        agrees: true,
        stored: { outcome, payout },
      });
      // Settled once: a second pass posts nothing more.
      t.clock.advance(60_000);
      await settlement(t).settleDue();
      expect(
        await count(
          sql`select count(*)::text as n from ledger_entries where reference = ${`contract:${order.id}:settle`}`,
        ),
      ).toBe(1);
    },
  );

  it('a batch of every outcome, with a fee and without, posts what settlementEntry says, entry by entry', async () => {
    const [a, b] = [await trader(t, '1000'), await trader(t, '1000')];
    const start = nextSecond();
    await recordAt(t, start, { BTCUSDT: '95000.00', ETHUSDT: '3300.00', SOLUSDT: '150.00' });
    // The 60 s period without a fee for this test: placed orders keep the terms they were placed on.
    await t.database.db.execute(
      sql`update contract_periods set fee_rate_ppm = 0 where seconds = 60`,
    );
    const orders: Order[] = [];
    try {
      for (const periodId of [1, 2]) {
        for (const [user, symbol, direction] of [
          [a, 'BTCUSDT', 'up'],
          [b, 'BTCUSDT', 'down'],
          [a, 'ETHUSDT', 'up'],
          [b, 'SOLUSDT', 'down'],
        ] as const) {
          orders.push(
            await placed(t, user.token, {
              symbol,
              direction,
              periodId,
              amount: String(10 + orders.length),
            }),
          );
        }
      }
    } finally {
      await t.database.db.execute(
        sql`update contract_periods set fee_rate_ppm = 2000 where seconds = 60`,
      );
    }
    // SOL records nothing more (void); ETH closes where it opened (tie); BTC moves up, then down.
    await recordAt(t, start + 30_000, { BTCUSDT: '95100.00', ETHUSDT: '3300.00' });
    await recordAt(t, start + 60_000, { BTCUSDT: '94900.00', ETHUSDT: '3300.00' });
    t.clock.advance(5_000);
    expect(await settlement(t).settleDue()).toBeGreaterThanOrEqual(orders.length);
    const rows = await queryRows<{
      id: string;
      user_id: string;
      stake_minor: string;
      fee_minor: string;
      outcome: Outcome;
      payout_minor: string;
    }>(
      t.database.db,
      sql`select id::text, user_id::text, stake_minor::text, fee_minor::text, outcome, payout_minor::text from contract_orders where id >= ${Number(orders[0]?.id)} and id <= ${Number(orders.at(-1)?.id)} order by id`,
    );
    expect(rows.map((r) => r.outcome)).toEqual([
      'win',
      'loss',
      'tie',
      'void',
      'loss',
      'win',
      'tie',
      'void',
    ]);
    expect(rows.filter((r) => r.fee_minor === '0')).toHaveLength(4);
    for (const row of rows) {
      const spec = settlementEntry(
        {
          id: Number(row.id),
          userId: Number(row.user_id),
          stakeMinor: BigInt(row.stake_minor),
          feeMinor: BigInt(row.fee_minor),
        },
        row.outcome,
        BigInt(row.payout_minor),
      );
      const want = spec.postings
        .map((p) => [
          accountName(p.account),
          p.bucket ?? 'available',
          p.type,
          p.amount.toString(),
          p.account.kind === 'user' ? row.user_id : null,
          p.account.kind === 'user' ? 'futures' : null,
        ])
        .sort();
      const written = await queryRows<{
        account: string;
        bucket: string;
        type: string;
        amount: string;
        user_id: string | null;
        wallet: string | null;
      }>(
        t.database.db,
        sql`select a.name as account, p.bucket, p.type, p.amount::text, p.user_id::text, p.wallet from ledger_postings p
            join ledger_entries e on e.id = p.entry_id join ledger_accounts a on a.id = p.account_id
            where e.reference = ${spec.reference} and e.kind = ${spec.kind} and e.user_id = ${Number(row.user_id)}`,
      );
      expect(
        written.map((p) => [p.account, p.bucket, p.type, p.amount, p.user_id, p.wallet]).sort(),
        `order ${row.id} (${row.outcome}, fee ${row.fee_minor})`,
      ).toEqual(want);
    }
  });

  it('the close tick is the latest at or before delivery: a later tick is not used', async () => {
    const user = await trader(t, '1000');
    const start = nextSecond();
    await recordAt(t, start, { BTCUSDT: '95000.00' });
    const order = await placed(t, user.token, { direction: 'up' });
    await recordAt(t, start + 28_000, { BTCUSDT: '94000.00' });
    await recordAt(t, start + 31_000, { BTCUSDT: '99000.00' });
    await settlement(t).settleDue();
    expect((await orderRow(t, order.id))?.outcome).toBe('loss');
  });

  it('a tick exactly 5 s before delivery counts; one 6 s before does not (void)', async () => {
    const a = await trader(t, '1000');
    let start = nextSecond();
    await recordAt(t, start, { XRPUSDT: '2.5000' });
    const kept = await placed(t, a.token, { symbol: 'XRPUSDT', direction: 'up' });
    await recordAt(t, start + 25_000, { XRPUSDT: '2.5001' });
    await recordAt(t, start + 31_000, { XRPUSDT: '2.4000' });
    await settlement(t).settleDue();
    expect((await orderRow(t, kept.id))?.outcome).toBe('win');

    start = nextSecond();
    await recordAt(t, start, { XRPUSDT: '2.5000' });
    const voided = await placed(t, a.token, { symbol: 'XRPUSDT', direction: 'up' });
    await recordAt(t, start + 24_000, { XRPUSDT: '2.5001' });
    await recordAt(t, start + 31_000, { XRPUSDT: '2.6000' });
    await settlement(t).settleDue();
    expect(await orderRow(t, voided.id)).toMatchObject({ outcome: 'void', close_tick_id: null });
  });

  it('waits for the delivery second to be recorded before settling (a tick stamped at delivery may land late)', async () => {
    const user = await trader(t, '1000');
    const start = nextSecond();
    await recordAt(t, start, { DOGEUSDT: '0.32000' });
    const order = await placed(t, user.token, { symbol: 'DOGEUSDT', direction: 'down' });
    await recordAt(t, start + 29_000, { DOGEUSDT: '0.33000' });
    t.clock.set(start + 30_000);
    await settlement(t).settleDue();
    expect((await orderRow(t, order.id))?.state).toBe('open');
    // The delivery second's tick arrives: it is the close.
    t.clock.set(start + 29_000);
    await recordPrices(t, { DOGEUSDT: '0.31000' });
    await settlement(t).settleDue();
    expect((await orderRow(t, order.id))?.outcome).toBe('win');
  });
});

describe('the settlement worker', () => {
  it('restart catch-up: orders that came due while no worker ran are each settled once when one starts', async () => {
    const users = [await trader(t, '1000'), await trader(t, '1000')];
    const start = nextSecond();
    await recordAt(t, start, { BNBUSDT: '650.00' });
    const orders: Order[] = [];
    for (const [i, user] of users.entries()) {
      for (const periodId of [1, 2, 3, 4])
        orders.push(
          await placed(t, user.token, {
            symbol: 'BNBUSDT',
            periodId,
            direction: i % 2 ? 'up' : 'down',
          }),
        );
    }
    // Nobody settles for ten minutes; the feed keeps recording.
    for (let s = 10; s <= 600; s += 4)
      await recordAt(t, start + s * 1000, { BNBUSDT: (650 + (s % 7) - 3).toFixed(2) });
    for (const order of orders) expect((await orderRow(t, order.id))?.state).toBe('open');
    const worker = settlement(t);
    await worker.start();
    await worker.stop();
    for (const order of orders) expect((await orderRow(t, order.id))?.state).toBe('settled');
    const ids = orders.map((o) => Number(o.id));
    expect(
      await count(
        sql`select count(*)::text as n from ledger_entries where reference in ${sql.raw(`(${ids.map((id) => `'contract:${id}:settle'`).join(',')})`)}`,
      ),
    ).toBe(8);
    const again = settlement(t);
    await again.start();
    await again.stop();
    expect(
      await count(
        sql`select count(*)::text as n from ledger_entries where reference in ${sql.raw(`(${ids.map((id) => `'contract:${id}:settle'`).join(',')})`)}`,
      ),
    ).toBe(8);
  });
});

describe('reading orders', () => {
  it('lists open and settled orders newest first, a page at a time', async () => {
    const user = await trader(t, '1000');
    const start = nextSecond();
    await recordAt(t, start, { TRXUSDT: '0.25000' });
    const first = await placed(t, user.token, { symbol: 'TRXUSDT', periodId: 1 });
    const second = await placed(t, user.token, { symbol: 'TRXUSDT', periodId: 4 });
    const third = await placed(t, user.token, { symbol: 'TRXUSDT', periodId: 4 });
    await recordAt(t, start + 30_000, { TRXUSDT: '0.25100' });
    await settlement(t).settleDue();
    const page1 = await call<Orders>(t.app, 'GET', '/api/v1/contracts/orders?state=open&limit=1', {
      token: user.token,
    });
    expect(page1.body.data.items.map((o) => o.id)).toEqual([third.id]);
    expect(page1.body.data.items[0]?.currentPnl).toBe('91.8');
    const page2 = await call<Orders>(
      t.app,
      'GET',
      `/api/v1/contracts/orders?state=open&limit=1&cursor=${page1.body.data.nextCursor}`,
      { token: user.token },
    );
    expect(page2.body.data.items.map((o) => o.id)).toEqual([second.id]);
    expect(page2.body.data.nextCursor).toBeNull();
    const settled = await call<Orders>(t.app, 'GET', '/api/v1/contracts/orders?state=settled', {
      token: user.token,
    });
    expect(settled.body.data.items.map((o) => [o.id, o.outcome, o.returnRatePct])).toEqual([
      [first.id, 'win', '79.80'],
    ]);
    const other = await registerUser(t.app);
    expect(
      (
        await call<Orders>(t.app, 'GET', '/api/v1/contracts/orders?state=settled', {
          token: other.token,
        })
      ).body.data.items,
    ).toEqual([]);
    expect(
      (await call(t.app, 'GET', `/api/v1/contracts/order?id=${first.id}`, { token: other.token }))
        .body.code,
    ).toBe(2606);
  });

  it('an open order past delivery shows as ended until it settles', async () => {
    const user = await trader(t, '1000');
    const start = nextSecond();
    await recordAt(t, start, { BTCUSDT: '95000.00' });
    const order = await placed(t, user.token);
    t.clock.set(start + 30_500);
    const detail = await call<Order>(t.app, 'GET', `/api/v1/contracts/order?id=${order.id}`, {
      token: user.token,
    });
    expect(detail.body.data).toMatchObject({
      state: 'open',
      displayStatus: 'ended',
      remainingMs: 0,
    });
    t.clock.set(start + 31_000);
    await settlement(t).settleDue();
  });

  it('the replay is public, and refuses an unknown or unsettled order', async () => {
    const user = await trader(t, '1000');
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const order = await placed(t, user.token);
    expect(
      (await call(t.app, 'GET', `/api/v1/contracts/replay?publicId=${order.publicId}`)).body.code,
    ).toBe(2501);
    expect(
      (await call(t.app, 'GET', `/api/v1/contracts/replay?publicId=${'A'.repeat(22)}`)).body.code,
    ).toBe(2606);
    expect((await call(t.app, 'GET', '/api/v1/contracts/replay?publicId=short')).body.code).toBe(
      422,
    );
    t.clock.advance(31_000);
    await recordPrices(t, { BTCUSDT: '95000.00' });
    await settlement(t).settleDue();
  });
});

describe('the database keeps the rule', () => {
  async function refusedSql(query: ReturnType<typeof sql>) {
    await expect(t.database.db.execute(query)).rejects.toThrow();
  }

  /** What the database said when it refused (the driver's error may wrap it as its cause). */
  async function refusal(run: () => Promise<unknown>): Promise<string> {
    try {
      await run();
    } catch (error) {
      return `${String(error)} ${String((error as { cause?: unknown }).cause ?? '')}`;
    }
    throw new Error('expected the database to refuse');
  }

  const count = async (query: ReturnType<typeof sql>) =>
    Number((await queryRows<{ n: string }>(t.database.db, query))[0]?.n);

  it('a settled order never changes, an order is never deleted, and terms never change', async () => {
    const [settled] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from contract_orders where state = 'settled' limit 1`,
    );
    const [open] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from contract_orders where state = 'open' limit 1`,
    );
    expect(settled && open).toBeTruthy();
    await refusedSql(
      sql`update contract_orders set outcome = 'win', payout_minor = stake_minor * 2 where id = ${Number(settled?.id)}`,
    );
    await refusedSql(
      sql`update contract_orders set settled_at = settled_at + interval '1 second' where id = ${Number(settled?.id)}`,
    );
    await refusedSql(sql`delete from contract_orders where id = ${Number(open?.id)}`);
    await refusedSql(sql`truncate contract_orders`);
    await refusedSql(
      sql`update contract_orders set stake_minor = 1 where id = ${Number(open?.id)}`,
    );
    await refusedSql(
      sql`update contract_orders set direction = case direction when 'up' then 'down' else 'up' end where id = ${Number(open?.id)}`,
    );
    await refusedSql(
      sql`update contract_orders set deliver_at = deliver_at + interval '1 minute', created_at = created_at + interval '1 minute' where id = ${Number(open?.id)}`,
    );
    await refusedSql(
      sql`update contract_orders set open_tick_id = open_tick_id - 1 where id = ${Number(open?.id)}`,
    );
  });

  it('settling on another tick than the latest at delivery, or with an outcome or payout against the rule, is refused', async () => {
    const user = await trader(t, '1000');
    const start = nextSecond();
    await recordAt(t, start, { ETHUSDT: '3300.00' });
    const order = await placed(t, user.token, { symbol: 'ETHUSDT', direction: 'up' });
    await recordAt(t, start + 29_000, { ETHUSDT: '3290.00' });
    await recordAt(t, start + 30_000, { ETHUSDT: '3310.00' });
    const [older] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from market_ticks where instrument = 'ETHUSDT' and ts = ${new Date(start + 29_000)}`,
    );
    const [latest] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from market_ticks where instrument = 'ETHUSDT' and ts = ${new Date(start + 30_000)}`,
    );
    const id = Number(order.id);
    const at = new Date(start + 30_000);
    // An older tick that would make it a loss:
    await refusedSql(
      sql`update contract_orders set state = 'settled', outcome = 'loss', close_tick_id = ${Number(older?.id)}, close_price_minor = 329000, payout_minor = 0, settled_at = ${at} where id = ${id}`,
    );
    // The right tick with the wrong outcome, or the wrong payout:
    await refusedSql(
      sql`update contract_orders set state = 'settled', outcome = 'loss', close_tick_id = ${Number(latest?.id)}, close_price_minor = 331000, payout_minor = 0, settled_at = ${at} where id = ${id}`,
    );
    await refusedSql(
      sql`update contract_orders set state = 'settled', outcome = 'win', close_tick_id = ${Number(latest?.id)}, close_price_minor = 331000, payout_minor = 200000000, settled_at = ${at} where id = ${id}`,
    );
    // A void while a tick exists, and a settlement before delivery:
    await refusedSql(
      sql`update contract_orders set state = 'settled', outcome = 'void', payout_minor = 100200000, settled_at = ${at} where id = ${id}`,
    );
    await refusedSql(
      sql`update contract_orders set state = 'settled', outcome = 'win', close_tick_id = ${Number(latest?.id)}, close_price_minor = 331000, payout_minor = 180000000, settled_at = ${new Date(start + 1_000)} where id = ${id}`,
    );
    expect((await orderRow(t, order.id))?.state).toBe('open');
    await settlement(t).settleDue();
    expect((await orderRow(t, order.id))?.outcome).toBe('win');
  });

  it("an order opens only on a fresh recorded tick of its instrument, at that tick's price", async () => {
    const user = await trader(t, '0');
    const [tick] = await queryRows<{ id: string; ts: Date; price: string }>(
      t.database.db,
      sql`select id::text, ts, price_minor::text as price from market_ticks where instrument = 'BTCUSDT' order by ts desc limit 1`,
    );
    const insert = (price: number, instrument: string, createdAt: Date) =>
      sql`insert into contract_orders (public_id, user_id, instrument, direction, period_seconds, payout_rate_ppm, fee_rate_ppm, stake_minor, fee_minor, open_tick_id, open_price_minor, created_at, deliver_at)
          values (${'x'.repeat(22)}, ${user.id}, ${instrument}, 'up', 30, 800000, 2000, 10000000, 20000, ${Number(tick?.id)}, ${price}, ${createdAt}, ${new Date(createdAt.getTime() + 30_000)})`;
    const at = new Date(tick?.ts ?? 0);
    await refusedSql(insert(1, 'BTCUSDT', at));
    const price = Number(tick?.price);
    // No foreign keys here since 0040: the guard checks the user and the tick exist.
    const noUser = sql`insert into contract_orders (public_id, user_id, instrument, direction, period_seconds, payout_rate_ppm, fee_rate_ppm, stake_minor, fee_minor, open_tick_id, open_price_minor, created_at, deliver_at)
          values (${'y'.repeat(22)}, ${987_654_321}, 'BTCUSDT', 'up', 30, 800000, 2000, 10000000, 20000, ${Number(tick?.id)}, ${price}, ${at}, ${new Date(at.getTime() + 30_000)})`;
    expect(await refusal(() => t.database.db.execute(noUser))).toMatch(
      /for user 987654321 that does not exist/,
    );
    const noTick = sql`insert into contract_orders (public_id, user_id, instrument, direction, period_seconds, payout_rate_ppm, fee_rate_ppm, stake_minor, fee_minor, open_tick_id, open_price_minor, created_at, deliver_at)
          values (${'z'.repeat(22)}, ${user.id}, 'BTCUSDT', 'up', 30, 800000, 2000, 10000000, 20000, ${987_654_321}, ${price}, ${at}, ${new Date(at.getTime() + 30_000)})`;
    expect(await refusal(() => t.database.db.execute(noTick))).toMatch(
      /does not open on a fresh recorded tick/,
    );
    await refusedSql(insert(price, 'ETHUSDT', at));
    await refusedSql(insert(price, 'BTCUSDT', new Date(at.getTime() + 6_000)));
    await refusedSql(insert(price, 'BTCUSDT', new Date(at.getTime() - 1)));
    // The same values on a fresh tick and the right price are accepted (so the refusals above are the rule's).
    await t.database.db
      .transaction(async (tx) => {
        await tx.execute(insert(price, 'BTCUSDT', at));
        tx.rollback();
      })
      .catch((error: unknown) => expect(String(error)).toMatch(/rollback/i));
  });

  it('the tick an order opened on is never deleted, not even by the retention prune; other old ticks are', async () => {
    const user = await trader(t, '1000');
    const start = nextSecond();
    await recordAt(t, start, { SOLUSDT: '150.00' });
    const order = await placed(t, user.token, { symbol: 'SOLUSDT', direction: 'up' });
    await recordAt(t, start + 1_000, { SOLUSDT: '150.01' });
    const opened = Number((await orderRow(t, order.id))?.open_tick_id);
    const [later] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from market_ticks where instrument = 'SOLUSDT' and ts = ${new Date(start + 1_000)}`,
    );
    const asPrune = (statement: ReturnType<typeof sql>) =>
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('tradewind.tick_prune', 'on', true)`);
        await tx.execute(statement);
      });
    // Both ticks are older than a day by the database's clock (the test clock is days behind it),
    // so the append-only guard lets the prune take them. The prune's own query leaves the order's
    // tick alone (contracts' tick references); asked directly, the database refuses.
    expect(
      await refusal(() => asPrune(sql`delete from market_ticks where id = ${opened}`)),
    ).toMatch(/is the open tick of a contract order: it is kept/);
    expect(
      await count(sql`select count(*)::text as n from market_ticks where id = ${opened}`),
    ).toBe(1);
    // The tick no order refers to can go, so the refusal above is this rule's.
    await asPrune(sql`delete from market_ticks where id = ${Number(later?.id)}`);
    expect(
      await count(
        sql`select count(*)::text as n from market_ticks where id = ${Number(later?.id)}`,
      ),
    ).toBe(0);
  });
});

describe('replay', () => {
  it('agrees with every settled order of this file', async () => {
    expect(await expectEveryReplayAgrees(t)).toBeGreaterThan(15);
  });
});
