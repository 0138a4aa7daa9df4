import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeConversion } from '../src/modules/conversion/service.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  registerReadyUser,
} from './harness.ts';
import { recordPrices } from './prices.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface QuoteReply {
  id: string;
  from: string;
  to: string;
  amount: string;
  rate: string;
  fee: string;
  feeAsset: string;
  feeBps: number;
  receive: string;
  expiresAt: string;
  priceTime: string;
  source: string;
  sourceLabel: string;
}
interface BalancesReply {
  spot: { asset: string; available: string; locked: string }[];
}

const quote = (token: string, body: Record<string, unknown>, lang?: string) =>
  call<QuoteReply>(t.app, 'POST', '/api/v1/convert/quote', {
    token,
    body,
    ...(lang ? { lang } : {}),
  });
const convert = (token: string, quoteId: string, key: string | null = idempotencyKey()) =>
  call<{ entryId: string; quote: QuoteReply; balances: BalancesReply }>(
    t.app,
    'POST',
    '/api/v1/convert',
    { token, body: { quoteId }, headers: key ? { 'idempotency-key': key } : {} },
  );
const spot = async (token: string) => {
  const reply = await call<BalancesReply>(t.app, 'GET', '/api/v1/wallet/balances', { token });
  return Object.fromEntries(reply.body.data.spot.map((s) => [s.asset, s.available]));
};
const quoteCount = async (uid: string) =>
  Number(
    (
      await queryRows<{ n: string }>(
        t.database.db,
        sql`select count(*)::text as n from conversion_quotes where user_id = ${Number(uid)}`,
      )
    )[0]?.n,
  );
const conversionEntries = async (uid: string) =>
  queryRows<{ id: string; reference: string }>(
    t.database.db,
    sql`select id::text, reference from ledger_entries where user_id = ${Number(uid)} and kind = 'conversion'`,
  );
const houseFees = async () =>
  (
    await queryRows<{ available: string }>(
      t.database.db,
      sql`select available::text from ledger_accounts where name = 'house:fees:USDT'`,
    )
  )[0]?.available ?? '0';

/** A user who may convert (KYC passed, spec §5) with these spot holdings. */
async function userWith(holdings: { usdt?: bigint; btc?: bigint; eth?: bigint }) {
  const user = await registerReadyUser(t);
  if (holdings.usdt) await fund(t, Number(user.uid), holdings.usdt, 'spot', 'USDT');
  if (holdings.btc) await fund(t, Number(user.uid), holdings.btc, 'spot', 'BTC');
  if (holdings.eth) await fund(t, Number(user.uid), holdings.eth, 'spot', 'ETH');
  return user;
}

describe('conversion figures (20 bps; every rounding favours the house)', () => {
  it.each([
    // from, to, amount (minor of from), price (minor at price scale), scale, → usdt leg, fee, receive
    ['BTC', 'USDT', 1_000_000n, 9_500_000n, 2, 950_000_000n, 1_900_000n, 948_100_000n], // 0.01 BTC @ 95000.00 → 948.1 USDT, fee exactly 1.9
    ['BTC', 'USDT', 1n, 9_500_000n, 2, 950n, 2n, 948n], // 1 satoshi: fee 1.9 micro-USDT rounds UP to 2
    ['BTC', 'USDT', 1n, 9_500_001n, 2, 950n, 2n, 948n], // 0.0009500001 USDT rounds DOWN to 0.00095
    [
      'BTC',
      'USDT',
      2_100_000_000_000_000n,
      9_500_000n,
      2,
      1_995_000_000_000_000_000n,
      3_990_000_000_000_000n,
      1_991_010_000_000_000_000n,
    ], // 21M BTC: no overflow
    ['XRP', 'USDT', 10_000_000n, 23_000n, 4, 23_000_000n, 46_000n, 22_954_000n], // 10 XRP @ 2.3000
    ['USDT', 'ETH', 100_000_000n, 330_000n, 2, 99_800_000n, 200_000n, 3_024_242n], // 100 USDT → 0.03024242 ETH (…42.42 rounds DOWN)
    ['USDT', 'ETH', 34n, 330_000n, 2, 33n, 1n, 1n], // smallest purchase: 1 wei-of-ETH-at-scale-8
    ['USDT', 'ETH', 33n, 330_000n, 2, 32n, 1n, 0n], // one less: nothing to receive (refused as too small)
    ['USDT', 'ETH', 1n, 330_000n, 2, 0n, 1n, 0n], // 0.000001 USDT: the fee rounds up to all of it
    ['USDT', 'DOGE', 1_000_000n, 32_000n, 5, 998_000n, 2_000n, 311_875_000n], // 1 USDT @ 0.32000 → 3.11875 DOGE exactly
  ] as const)(
    '%s → %s: %s at %s (scale %s) → leg %s, fee %s, receive %s',
    (from, to, amountMinor, priceMinor, priceScale, leg, fee, receive) => {
      expect(
        computeConversion({ from, to, amountMinor, priceMinor, priceScale, feeBps: 20 }),
      ).toEqual({ usdtLegMinor: leg, feeMinor: fee, receiveMinor: receive });
    },
  );

  it('a zero fee is zero', () => {
    expect(
      computeConversion({
        from: 'BTC',
        to: 'USDT',
        amountMinor: 1n,
        priceMinor: 9_500_000n,
        priceScale: 2,
        feeBps: 0,
      }),
    ).toEqual({ usdtLegMinor: 950n, feeMinor: 0n, receiveMinor: 950n });
  });

  it('coin → coin has no figures', () => {
    expect(() =>
      computeConversion({
        from: 'BTC',
        to: 'ETH',
        amountMinor: 1n,
        priceMinor: 1n,
        priceScale: 2,
        feeBps: 20,
      }),
    ).toThrow();
  });

  it('property: the user never gets more than the exact value, and never a whole unit less than the rounded one', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 1000 }),
        fc.boolean(),
        (amount, price, bps, sell) => {
          // BTC: scale 8, price scale 2; USDT scale 6.
          const r = computeConversion({
            from: sell ? 'BTC' : 'USDT',
            to: sell ? 'USDT' : 'BTC',
            amountMinor: amount,
            priceMinor: price,
            priceScale: 2,
            feeBps: bps,
          });
          const b = BigInt(bps);
          if (sell) {
            // exact USDT value = amount × price × 10^6 / 10^10
            const exact = amount * price * 10n ** 6n;
            expect(r.usdtLegMinor * 10n ** 10n <= exact).toBe(true);
            expect((r.usdtLegMinor + 1n) * 10n ** 10n > exact).toBe(true);
            expect(r.feeMinor * 10_000n >= r.usdtLegMinor * b).toBe(true);
            expect((r.feeMinor - 1n) * 10_000n < r.usdtLegMinor * b || r.feeMinor === 0n).toBe(
              true,
            );
            expect(r.receiveMinor + r.feeMinor).toBe(r.usdtLegMinor);
          } else {
            expect(r.feeMinor * 10_000n >= amount * b).toBe(true);
            expect(r.usdtLegMinor + r.feeMinor).toBe(amount);
            // coins × price ≤ net, and one more coin would exceed it
            const net = r.usdtLegMinor * 10n ** 10n;
            expect(r.receiveMinor * price * 10n ** 6n <= (net > 0n ? net : 0n)).toBe(true);
            if (r.usdtLegMinor > 0n)
              expect((r.receiveMinor + 1n) * price * 10n ** 6n > net).toBe(true);
          }
        },
      ),
      { numRuns: 500, seed: 2401 },
    );
  });
});

describe('quote', () => {
  it('prices BTC → USDT at the latest fresh tick, with fee, what you receive, 10 s expiry and the tick it used', async () => {
    const user = await userWith({ btc: 50_000_000n });
    await recordPrices(t, { BTCUSDT: '94000.00' });
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const reply = await quote(user.token, { from: 'BTC', to: 'USDT', amount: '0.01' });
    expect(reply.body.code).toBe(0);
    expect(reply.body.data).toMatchObject({
      from: 'BTC',
      to: 'USDT',
      amount: '0.01',
      rate: '95000',
      fee: '1.9',
      feeAsset: 'USDT',
      feeBps: 20,
      receive: '948.1',
      expiresAt: new Date(t.clock.now().getTime() + 10_000).toISOString(),
      priceTime: t.clock.now().toISOString(),
      source: 'simulated',
      sourceLabel: 'simulated (demo data)',
    });
    expect(reply.body.data.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const [row] = await queryRows<{ price: string; tick_price: string; tick_ts: Date | string }>(
      t.database.db,
      sql`select q.price_minor::text as price, k.price_minor::text as tick_price, k.ts as tick_ts from conversion_quotes q join market_ticks k on k.id = q.tick_id where q.id = ${reply.body.data.id}`,
    );
    expect(row).toMatchObject({ price: '9500000', tick_price: '9500000' });
    expect(new Date(row?.tick_ts as string).toISOString()).toBe(t.clock.now().toISOString());
  });

  it('a stale price gives no quote (PRICE_UNAVAILABLE) and stores nothing', async () => {
    const user = await userWith({ btc: 50_000_000n });
    await recordPrices(t, { BTCUSDT: '95000.00' });
    t.clock.advance(5_001);
    const reply = await quote(user.token, { from: 'BTC', to: 'USDT', amount: '0.01' });
    expect(reply.body.code).toBe(2401);
    expect(reply.body.message).toBe(
      'There is no recent price for BTC right now. Please try again in a moment.',
    );
    expect(await quoteCount(user.uid)).toBe(0);
    // An instrument never recorded in this file: no price at all.
    const sol = await quote(user.token, { from: 'USDT', to: 'SOL', amount: '1' });
    expect(sol.body.code).toBe(2401);
  });

  it('coin → coin is refused with a clear 422 (spec §5: conversions go via USDT)', async () => {
    const user = await userWith({ btc: 50_000_000n });
    await recordPrices(t, { BTCUSDT: '95000.00', ETHUSDT: '3300.00' });
    const reply = await quote(user.token, { from: 'BTC', to: 'ETH', amount: '0.01' });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.to).toEqual([
      'Conversion is only between a coin and USDT, never directly between two coins.',
    ]);
    const zh = await quote(user.token, { from: 'ETH', to: 'BTC', amount: '1' }, 'zh-CN');
    expect(zh.body.errors?.to).toEqual(['兑换仅限于币种与 USDT 之间，不能在两种币之间直接兑换。']);
    expect(await quoteCount(user.uid)).toBe(0);
  });

  it.each([
    [{ from: 'USDT', to: 'USDT', amount: '1' }, 'to', 'Choose two different currencies.'],
    [
      { from: 'BTC', to: 'USDT', amount: '0.000000001' },
      'amount',
      'Enter an amount greater than zero with at most 8 decimal places.',
    ],
    [{ from: 'BTC', to: 'USDT', amount: '-1' }, 'amount', 'Enter an amount such as 12.5.'],
    [{ from: 'BTC', to: 'USDT', amount: 1 }, 'amount', 'This value has the wrong type.'],
    [{ from: 'NOPE', to: 'USDT', amount: '1' }, 'from', 'This value is not allowed.'],
    [
      { from: 'USDT', to: 'ETH', amount: '0.000033' },
      'amount',
      'The amount is too small to convert after the fee.',
    ],
  ])('bad request %j → 422 on %s, nothing stored', async (body, field, message) => {
    const user = await userWith({ btc: 50_000_000n, usdt: 100_000_000n });
    await recordPrices(t, { BTCUSDT: '95000.00', ETHUSDT: '3300.00' });
    const reply = await quote(user.token, body);
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.[field]).toEqual([message]);
    expect(await quoteCount(user.uid)).toBe(0);
  });

  it('more than the balance → INSUFFICIENT_BALANCE, 409 as on every route; nothing stored', async () => {
    const user = await userWith({ btc: 50_000_000n, usdt: 100_000_000n });
    await recordPrices(t, { BTCUSDT: '95000.00', ETHUSDT: '3300.00' });
    const reply = await quote(user.token, { from: 'BTC', to: 'USDT', amount: '0.6' });
    expect([reply.status, reply.body.code, reply.body.message]).toEqual([
      409,
      2001,
      'Insufficient balance.',
    ]);
    expect(await quoteCount(user.uid)).toBe(0);
  });

  it('needs a signed-in user', async () => {
    expect(
      (
        await call(t.app, 'POST', '/api/v1/convert/quote', {
          body: { from: 'BTC', to: 'USDT', amount: '1' },
        })
      ).body.code,
    ).toBe(401);
  });
});

describe('convert', () => {
  it('BTC → USDT: one entry holding both legs and the fee; balances move by exactly the quote', async () => {
    const user = await userWith({ btc: 50_000_000n });
    const feesBefore = BigInt(await houseFees());
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const q = (await quote(user.token, { from: 'BTC', to: 'USDT', amount: '0.01' })).body.data;
    t.clock.advance(9_999);
    const reply = await convert(user.token, q.id);
    expect(reply.body.code).toBe(0);
    expect(reply.body.data.quote).toEqual(q);
    const balances = await spot(user.token);
    expect(balances.BTC).toBe('0.49');
    expect(balances.USDT).toBe('948.1');
    expect(
      Object.fromEntries(reply.body.data.balances.spot.map((s) => [s.asset, s.available])),
    ).toMatchObject({ BTC: '0.49', USDT: '948.1' });
    const entries = await conversionEntries(user.uid);
    expect(entries).toEqual([{ id: reply.body.data.entryId, reference: `conversion:${q.id}` }]);
    const postings = await queryRows<{ account: string; type: string; amount: string }>(
      t.database.db,
      sql`select a.name as account, p.type, p.amount::text from ledger_postings p join ledger_accounts a on a.id = p.account_id where p.entry_id = ${Number(reply.body.data.entryId)} order by p.id`,
    );
    const uid = user.uid;
    expect(
      postings.sort(
        (a, b) => a.account.localeCompare(b.account) || Number(a.amount) - Number(b.amount),
      ),
    ).toEqual(
      [
        { account: 'house:conversion:BTC', type: 'conversion', amount: '1000000' },
        { account: 'house:conversion:USDT', type: 'conversion', amount: '-950000000' },
        { account: 'house:fees:USDT', type: 'conversion_fee', amount: '1900000' },
        { account: `user:${uid}:spot:BTC`, type: 'conversion', amount: '-1000000' },
        { account: `user:${uid}:spot:USDT`, type: 'conversion_fee', amount: '-1900000' },
        { account: `user:${uid}:spot:USDT`, type: 'conversion', amount: '950000000' },
      ].sort((a, b) => a.account.localeCompare(b.account) || Number(a.amount) - Number(b.amount)),
    );
    expect(BigInt(await houseFees()) - feesBefore).toBe(1_900_000n);
  });

  it('USDT → ETH: the fee leaves the USDT paid, the coins bought are rounded down', async () => {
    const user = await userWith({ usdt: 100_000_000n });
    await recordPrices(t, { ETHUSDT: '3300.00' });
    const q = (await quote(user.token, { from: 'USDT', to: 'ETH', amount: '100' })).body.data;
    expect(q).toMatchObject({ rate: '3300', fee: '0.2', receive: '0.03024242' });
    const reply = await convert(user.token, q.id);
    expect(reply.body.code).toBe(0);
    expect(await spot(user.token)).toMatchObject({ USDT: '0', ETH: '0.03024242' });
    const types = await queryRows<{ type: string; amount: string }>(
      t.database.db,
      sql`select type, amount::text from ledger_postings where entry_id = ${Number(reply.body.data.entryId)} and user_id = ${Number(user.uid)} order by id`,
    );
    expect(types.map((p) => `${p.type} ${p.amount}`).sort()).toEqual([
      'conversion -99800000',
      'conversion 3024242',
      'conversion_fee -200000',
    ]);
  });

  it('an expired quote is refused (QUOTE_EXPIRED) after 10 s, and nothing changes', async () => {
    const user = await userWith({ btc: 50_000_000n });
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const q = (await quote(user.token, { from: 'BTC', to: 'USDT', amount: '0.01' })).body.data;
    t.clock.advance(10_000);
    const reply = await convert(user.token, q.id);
    expect(reply.status).toBe(409);
    expect(reply.body.code).toBe(2403);
    expect(reply.body.message).toBe('This quote has expired. Please refresh it.');
    expect(await spot(user.token)).toMatchObject({ BTC: '0.5', USDT: '0' });
    expect(await conversionEntries(user.uid)).toEqual([]);
  });

  it('a quote used twice executes once (QUOTE_USED), even when the two race', async () => {
    const user = await userWith({ btc: 50_000_000n });
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const q = (await quote(user.token, { from: 'BTC', to: 'USDT', amount: '0.1' })).body.data;
    expect((await convert(user.token, q.id)).body.code).toBe(0);
    const again = await convert(user.token, q.id);
    expect(again.body.code).toBe(2404);
    expect(again.body.message).toBe('This quote has already been used.');

    const q2 = (await quote(user.token, { from: 'BTC', to: 'USDT', amount: '0.1' })).body.data;
    const race = await Promise.all(Array.from({ length: 10 }, () => convert(user.token, q2.id)));
    expect(race.filter((r) => r.body.code === 0)).toHaveLength(1);
    expect(race.filter((r) => r.body.code !== 0).every((r) => r.body.code === 2404)).toBe(true);
    expect(await conversionEntries(user.uid)).toHaveLength(2);
    expect(await spot(user.token)).toMatchObject({ BTC: '0.3', USDT: '18962' });
  });

  it("another user's quote is not found, and stays usable by its owner", async () => {
    const owner = await userWith({ btc: 50_000_000n });
    const other = await userWith({ btc: 50_000_000n, usdt: 10_000_000n });
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const q = (await quote(owner.token, { from: 'BTC', to: 'USDT', amount: '0.01' })).body.data;
    const stolen = await convert(other.token, q.id);
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe(404);
    expect(stolen.body.data).toBeNull();
    expect(await spot(other.token)).toMatchObject({ BTC: '0.5', USDT: '10' });
    expect(await spot(owner.token)).toMatchObject({ BTC: '0.5', USDT: '0' });
    expect((await convert(owner.token, q.id)).body.code).toBe(0);
    // An id that does not exist reads the same.
    expect((await convert(other.token, 'AAAAAAAAAAAAAAAAAAAAAA')).body.code).toBe(404);
  });

  it('a replay with the same Idempotency-Key returns the first reply and makes one entry', async () => {
    const user = await userWith({ btc: 50_000_000n });
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const q = (await quote(user.token, { from: 'BTC', to: 'USDT', amount: '0.01' })).body.data;
    const key = idempotencyKey();
    const first = await convert(user.token, q.id, key);
    t.clock.advance(60_000); // even after the quote expired, the replay answers the stored reply
    const second = await convert(user.token, q.id, key);
    expect(first.body.code).toBe(0);
    expect(second.response.body).toBe(first.response.body);
    expect(await conversionEntries(user.uid)).toHaveLength(1);
    expect(await spot(user.token)).toMatchObject({ BTC: '0.49', USDT: '948.1' });
  });

  it('needs an Idempotency-Key', async () => {
    const user = await userWith({ btc: 50_000_000n });
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const q = (await quote(user.token, { from: 'BTC', to: 'USDT', amount: '0.01' })).body.data;
    const reply = await convert(user.token, q.id, null);
    expect(reply.body.code).toBe(422);
    expect(await conversionEntries(user.uid)).toEqual([]);
  });

  it('insufficient balance at execution → INSUFFICIENT_BALANCE, and nothing changes (the quote stays unused)', async () => {
    const user = await userWith({ btc: 10_000_000n });
    await recordPrices(t, { BTCUSDT: '95000.00' });
    const a = (await quote(user.token, { from: 'BTC', to: 'USDT', amount: '0.1' })).body.data;
    const b = (await quote(user.token, { from: 'BTC', to: 'USDT', amount: '0.1' })).body.data;
    expect((await convert(user.token, a.id)).body.code).toBe(0);
    const before = await spot(user.token);
    const reply = await convert(user.token, b.id);
    expect(reply.body.code).toBe(2001);
    expect(reply.body.message).toBe('Insufficient balance.');
    expect(await spot(user.token)).toEqual(before);
    expect(await conversionEntries(user.uid)).toHaveLength(1);
    const [row] = await queryRows<{ executed_at: unknown }>(
      t.database.db,
      sql`select executed_at from conversion_quotes where id = ${b.id}`,
    );
    expect(row?.executed_at).toBeNull();
  });

  it('a malformed quote id is a 422', async () => {
    const user = await userWith({});
    const reply = await convert(user.token, 'not-a-quote');
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.quoteId).toEqual(['This value is not allowed.']);
  });
});
