import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeOf } from '@tradewind/contract/instant';
import { Settlement } from '../src/modules/contracts/settlement.ts';
import { checkLedger } from '../src/modules/ledger/invariants.ts';
import { transfer as transferService } from '../src/modules/wallet/service.ts';
import { type Tx, queryRows } from '../src/platform/db.ts';
import {
  TRADE_PIN,
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  registerReadyUser,
  registerUser,
} from './harness.ts';
import { recordPrices } from './prices.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface BalancesReply {
  spot: { asset: string; available: string; locked: string; valueUsdt: string | null }[];
  futures: { total: string; available: string; locked: string };
  totalUsdt: string;
}

const balances = async (token: string) =>
  (await call<BalancesReply>(t.app, 'GET', '/api/v1/wallet/balances', { token })).body.data;
const spotUsdt = (b: BalancesReply) => b.spot.find((s) => s.asset === 'USDT')?.available;

function transfer(
  token: string,
  body: Record<string, unknown>,
  key: string | null = idempotencyKey(),
) {
  return call<{ entryId: string; balances: BalancesReply }>(
    t.app,
    'POST',
    '/api/v1/wallet/transfer',
    { token, body, headers: key ? { 'idempotency-key': key } : {} },
  );
}

async function fundedUser(usdt = 100_000_000n) {
  const user = await registerUser(t.app);
  await fund(t, Number(user.uid), usdt);
  return user;
}

describe('balances', () => {
  it('a new user sees every asset at zero and a zero futures account', async () => {
    const { token } = await registerUser(t.app);
    const b = await balances(token);
    expect(b.spot.map((s) => s.asset)).toEqual([
      'USDT',
      'BTC',
      'ETH',
      'BNB',
      'SOL',
      'XRP',
      'DOGE',
      'TRX',
      'LTC',
    ]);
    expect(b.spot.every((s) => s.available === '0' && s.locked === '0')).toBe(true);
    expect(b.futures).toMatchObject({ total: '0', available: '0', locked: '0' });
    expect(b.totalUsdt).toBe('0');
  });

  it('shows decimal strings in the asset scale and values USDT at 1', async () => {
    const { token } = await fundedUser(12_500_000n);
    const b = await balances(token);
    expect(spotUsdt(b)).toBe('12.5');
    expect(b.spot[0]?.valueUsdt).toBe('12.5');
    expect(b.totalUsdt).toBe('12.5');
  });
});

describe('transfers between spot and futures', () => {
  it('moves USDT in one entry of two postings', async () => {
    const { token, uid } = await fundedUser(100_000_000n);
    const reply = await transfer(token, {
      from: 'spot',
      to: 'futures',
      asset: 'USDT',
      amount: '40.25',
    });
    expect(reply.body.code).toBe(0);
    expect(spotUsdt(reply.body.data.balances)).toBe('59.75');
    expect(reply.body.data.balances.futures.available).toBe('40.25');
    const rows = await queryRows<{ type: string; amount: string; wallet: string }>(
      t.database.db,
      sql`select type, amount::text, wallet from ledger_postings where entry_id = ${Number(reply.body.data.entryId)} order by amount`,
    );
    expect(rows).toEqual([
      { type: 'transfer_out', amount: '-40250000', wallet: 'spot' },
      { type: 'transfer_in', amount: '40250000', wallet: 'futures' },
    ]);
    const back = await transfer(token, {
      from: 'futures',
      to: 'spot',
      asset: 'USDT',
      amount: '0.25',
    });
    expect(back.body.data.balances.futures.available).toBe('40');
    void uid;
  });

  it('transfer source and destination must differ', async () => {
    const { token } = await fundedUser();
    const reply = await transfer(token, { from: 'spot', to: 'spot', asset: 'USDT', amount: '1' });
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.to).toEqual(['Transfer accounts cannot be the same.']);
  });

  it('the transfer service refuses the same wallet on both sides too, called past the route', async () => {
    const { token, uid } = await fundedUser();
    const attempt = t.database.db.transaction((tx) =>
      transferService(t.app.services.ledger, tx as unknown as Tx, t.clock.now(), Number(uid), {
        from: 'spot',
        to: 'spot',
        asset: 'USDT',
        amount: '1',
      }),
    );
    await expect(attempt).rejects.toMatchObject({ errorName: 'VALIDATION_FAILED', field: 'to' });
    const entries = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from ledger_entries where user_id = ${Number(uid)} and kind = 'transfer'`,
    );
    expect(entries).toEqual([{ n: 0 }]);
    expect(spotUsdt(await balances(token))).toBe('100');
  });

  it.each([
    ['-5', 'Enter an amount such as 12.5.'],
    ['0', 'The amount must be greater than zero.'],
    ['1e5', 'Enter an amount such as 12.5.'],
    [' ', 'Enter an amount such as 12.5.'],
    ['1.0000001', 'Enter an amount greater than zero with at most 6 decimal places.'],
  ])('amount %s is refused with a field message and moves nothing', async (amount, message) => {
    const { token } = await fundedUser();
    const reply = await transfer(token, { from: 'spot', to: 'futures', asset: 'USDT', amount });
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.amount).toEqual([message]);
    expect(spotUsdt(await balances(token))).toBe('100');
  });

  it('an amount as a number, not a string, is refused', async () => {
    const { token } = await fundedUser();
    const reply = await transfer(token, { from: 'spot', to: 'futures', asset: 'USDT', amount: 5 });
    expect(reply.body.errors?.amount).toEqual(['This value has the wrong type.']);
  });

  it('more than the balance is refused and changes nothing', async () => {
    const { token } = await fundedUser(10_000_000n);
    const reply = await transfer(token, {
      from: 'spot',
      to: 'futures',
      asset: 'USDT',
      amount: '10.000001',
    });
    expect(reply.body.code).toBe(2001);
    expect(reply.body.message).toBe('Insufficient balance.');
    const b = await balances(token);
    expect(spotUsdt(b)).toBe('10');
    expect(b.futures.available).toBe('0');
  });
});

describe('Idempotency-Key', () => {
  it('is required on money-moving requests', async () => {
    const { token } = await fundedUser();
    const reply = await transfer(
      token,
      { from: 'spot', to: 'futures', asset: 'USDT', amount: '1' },
      null,
    );
    expect(reply.body.code).toBe(422);
    expect(Object.keys(reply.body.errors ?? {})).toEqual(['Idempotency-Key']);
    expect(spotUsdt(await balances(token))).toBe('100');
  });

  it('a replay returns the first reply and moves money once', async () => {
    const { token, uid } = await fundedUser();
    const key = idempotencyKey();
    const first = await transfer(
      token,
      { from: 'spot', to: 'futures', asset: 'USDT', amount: '7' },
      key,
    );
    const second = await transfer(
      token,
      { from: 'spot', to: 'futures', asset: 'USDT', amount: '7' },
      key,
    );
    expect(second.body).toEqual(first.body);
    expect(spotUsdt(await balances(token))).toBe('93');
    const entries = await queryRows(
      t.database.db,
      sql`select id from ledger_entries where user_id = ${Number(uid)} and kind = 'transfer'`,
    );
    expect(entries).toHaveLength(1);
  });

  it('the same key with another body is refused and changes nothing', async () => {
    const { token } = await fundedUser();
    const key = idempotencyKey();
    await transfer(token, { from: 'spot', to: 'futures', asset: 'USDT', amount: '7' }, key);
    const reuse = await transfer(
      token,
      { from: 'spot', to: 'futures', asset: 'USDT', amount: '8' },
      key,
    );
    expect(reuse.status).toBe(409);
    expect(reuse.body.code).toBe(2003);
    expect(spotUsdt(await balances(token))).toBe('93');
  });

  it('keys are per user: another user may use the same key', async () => {
    const a = await fundedUser();
    const b = await fundedUser();
    const key = idempotencyKey();
    expect(
      (await transfer(a.token, { from: 'spot', to: 'futures', asset: 'USDT', amount: '1' }, key))
        .body.code,
    ).toBe(0);
    expect(
      (await transfer(b.token, { from: 'spot', to: 'futures', asset: 'USDT', amount: '2' }, key))
        .body.code,
    ).toBe(0);
    expect(spotUsdt(await balances(b.token))).toBe('98');
  });

  it('20 concurrent replays make one entry and identical replies', async () => {
    const { token, uid } = await fundedUser();
    const key = idempotencyKey();
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        transfer(token, { from: 'spot', to: 'futures', asset: 'USDT', amount: '3' }, key),
      ),
    );
    expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(replies[0]?.body.code).toBe(0);
    const entries = await queryRows(
      t.database.db,
      sql`select id from ledger_entries where user_id = ${Number(uid)} and kind = 'transfer'`,
    );
    expect(entries).toHaveLength(1);
    expect(spotUsdt(await balances(token))).toBe('97');
  });
});

describe('concurrency', () => {
  it('200 concurrent transfers against one balance: exactly floor(B/a) succeed, nothing negative', async () => {
    // B = 50.5 USDT, a = 1 USDT → 50 succeed.
    const { token } = await fundedUser(50_500_000n);
    const replies = await Promise.all(
      Array.from({ length: 200 }, () =>
        transfer(token, { from: 'spot', to: 'futures', asset: 'USDT', amount: '1' }),
      ),
    );
    const codes = replies.map((r) => r.body.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(50);
    expect(codes.filter((c) => c !== 0).every((c) => c === 2001)).toBe(true);
    const b = await balances(token);
    expect(spotUsdt(b)).toBe('0.5');
    expect(b.futures.available).toBe('50');
    expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
  });
});

describe('property: random operation sequences keep every invariant', () => {
  const operation = fc.record({
    kind: fc.constantFrom('fund', 'toFutures', 'toSpot', 'replay'),
    cents: fc.integer({ min: 1, max: 5_000 }),
  });

  it('balances match a model and the ledger stays whole', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (ops) => {
        const user = await registerUser(t.app);
        const model = { spot: 0n, futures: 0n };
        let lastKey: { key: string; body: Record<string, unknown> } | null = null;
        for (const op of ops) {
          const amount = BigInt(op.cents) * 10_000n; // cents → USDT minor units (scale 6)
          const text = `${op.cents / 100}`;
          if (op.kind === 'fund') {
            await fund(t, Number(user.uid), amount);
            model.spot += amount;
          } else if (op.kind === 'replay') {
            if (!lastKey) continue;
            await transfer(user.token, lastKey.body, lastKey.key);
          } else {
            const from = op.kind === 'toFutures' ? 'spot' : 'futures';
            const to = op.kind === 'toFutures' ? 'futures' : 'spot';
            const body = { from, to, asset: 'USDT', amount: text };
            const key = idempotencyKey();
            const reply = await transfer(user.token, body, key);
            if (model[from] >= amount) {
              expect(reply.body.code).toBe(0);
              model[from] -= amount;
              model[to] += amount;
              lastKey = { key, body };
            } else {
              expect(reply.body.code).toBe(2001);
            }
          }
        }
        const b = await balances(user.token);
        expect(spotUsdt(b)).toBe(formatUsdt(model.spot));
        expect(b.futures.available).toBe(formatUsdt(model.futures));
      }),
      { numRuns: 15, seed: 42 },
    );
    expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
  });
});

function formatUsdt(minor: bigint): string {
  const whole = minor / 1_000_000n;
  const fraction = (minor % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

describe('property: random orders, prices and settlements keep every invariant', () => {
  const PERIODS: Record<number, { seconds: number; payoutPpm: bigint }> = {
    1: { seconds: 30, payoutPpm: 800_000n },
    2: { seconds: 60, payoutPpm: 850_000n },
    3: { seconds: 120, payoutPpm: 880_000n },
    4: { seconds: 300, payoutPpm: 920_000n },
  };
  const PRICES = ['94999.99', '95000.00', '95000.01'];
  /** Every BTCUSDT tick this file records, for the model's close prices. */
  const recorded: { ts: number; priceMinor: bigint }[] = [];

  const operation = fc.oneof(
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constantFrom('fund' as const, 'toFutures' as const, 'toSpot' as const),
        cents: fc.integer({ min: 1, max: 5_000 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('price' as const),
        price: fc.constantFrom(...PRICES),
      }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('order' as const),
        direction: fc.constantFrom('up' as const, 'down' as const),
        periodId: fc.integer({ min: 1, max: 4 }),
        cents: fc.integer({ min: 1_000, max: 3_000 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('wait' as const),
        seconds: fc.integer({ min: 1, max: 150 }),
        price: fc.constantFrom(...PRICES),
      }),
    },
  );

  interface ModelOrder {
    id: string;
    direction: 'up' | 'down';
    stake: bigint;
    fee: bigint;
    payoutPpm: bigint;
    openPrice: bigint;
    deliverAt: number;
  }

  async function record(price: string) {
    await recordPrices(t, { BTCUSDT: price });
    recorded.push({ ts: t.clock.now().getTime(), priceMinor: BigInt(price.replace('.', '')) });
  }

  it('balances, locks and payouts match a model; the ledger stays whole; every replay agrees', async () => {
    const worker = new Settlement({
      db: t.database.db,
      clock: t.clock,
      ledger: t.app.services.ledger,
      hub: t.app.services.hub,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 14 }), async (ops) => {
        const user = await registerReadyUser(t);
        // Each run starts with 100 USDT in futures and a fresh price, so orders happen.
        await fund(t, Number(user.uid), 100_000_000n, 'futures');
        const model = { spot: 0n, available: 100_000_000n, locked: 0n };
        let open: ModelOrder[] = [];
        await record('95000.00');

        const settleModel = () => {
          const now = t.clock.now().getTime();
          for (const order of open.filter((o) => o.deliverAt <= now)) {
            const close = recorded
              .filter((r) => r.ts <= order.deliverAt && r.ts >= order.deliverAt - 5_000)
              .at(-1);
            const outcome = outcomeOf(
              order.direction,
              order.openPrice,
              close ? close.priceMinor : null,
            );
            const payout = {
              win: order.stake + (order.stake * order.payoutPpm) / 1_000_000n,
              loss: 0n,
              tie: order.stake,
              void: order.stake + order.fee,
            }[outcome];
            model.locked -= order.stake + order.fee;
            model.available += payout;
          }
          open = open.filter((o) => o.deliverAt > now);
        };
        const wait = async (seconds: number, price: string) => {
          t.clock.advance((seconds - 1) * 1000);
          await record(price);
          await worker.settleDue();
          settleModel();
        };

        for (const op of ops) {
          if (op.kind === 'price') {
            await record(op.price);
          } else if (op.kind === 'wait') {
            await wait(op.seconds, op.price);
          } else if (op.kind === 'order') {
            const stake = BigInt(op.cents) * 10_000n;
            const fee = BigInt(op.cents) * 20n; // 0.2 %, exact for whole cents
            const now = t.clock.now().getTime();
            const last = recorded.at(-1);
            const reply = await call<{ order: { id: string } }>(
              t.app,
              'POST',
              '/api/v1/contracts/orders',
              {
                token: user.token,
                body: {
                  symbol: 'BTCUSDT',
                  direction: op.direction,
                  periodId: op.periodId,
                  amount: `${op.cents / 100}`,
                  tradePassword: TRADE_PIN,
                },
                headers: { 'idempotency-key': idempotencyKey() },
              },
            );
            if (!last || now - last.ts > 5_000) {
              expect(reply.body.code).toBe(2401);
            } else if (open.length >= 20) {
              expect(reply.body.code).toBe(2604);
            } else if (model.available < stake + fee) {
              expect(reply.body.code).toBe(2001);
            } else {
              expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
              const period = PERIODS[op.periodId] as { seconds: number; payoutPpm: bigint };
              open.push({
                id: reply.body.data.order.id,
                direction: op.direction,
                stake,
                fee,
                payoutPpm: period.payoutPpm,
                openPrice: last.priceMinor,
                deliverAt: now + period.seconds * 1000,
              });
              model.available -= stake + fee;
              model.locked += stake + fee;
            }
          } else {
            const amount = BigInt(op.cents) * 10_000n;
            if (op.kind === 'fund') {
              await fund(t, Number(user.uid), amount);
              model.spot += amount;
            } else {
              const from = op.kind === 'toFutures' ? 'spot' : 'futures';
              const reply = await transfer(user.token, {
                from,
                to: from === 'spot' ? 'futures' : 'spot',
                asset: 'USDT',
                amount: `${op.cents / 100}`,
              });
              const source = from === 'spot' ? model.spot : model.available;
              if (source >= amount) {
                expect(reply.body.code).toBe(0);
                if (from === 'spot') {
                  model.spot -= amount;
                  model.available += amount;
                } else {
                  model.available -= amount;
                  model.spot += amount;
                }
              } else {
                expect(reply.body.code).toBe(2001);
              }
            }
          }
          const b = await balances(user.token);
          expect([spotUsdt(b), b.futures.available, b.futures.locked]).toEqual([
            formatUsdt(model.spot),
            formatUsdt(model.available),
            formatUsdt(model.locked),
          ]);
        }
        // Deliver everything: nothing stays locked.
        await wait(301, '95000.00');
        expect(open).toEqual([]);
        const b = await balances(user.token);
        expect([b.futures.available, b.futures.locked]).toEqual([formatUsdt(model.available), '0']);
        expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
      }),
      { numRuns: 15, seed: 4 },
    );
    const replays = await queryRows<{ public_id: string }>(
      t.database.db,
      sql`select public_id from contract_orders where state = 'settled'`,
    );
    expect(replays.length).toBeGreaterThan(20);
    for (const row of replays) {
      const reply = await call<{ agrees: boolean }>(
        t.app,
        'GET',
        `/api/v1/contracts/replay?publicId=${row.public_id}`,
      );
      expect(reply.body.data.agrees).toBe(true);
    }
  });
});
