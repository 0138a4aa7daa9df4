import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houseAccount, userAccount } from '../src/modules/ledger/service.ts';
import {
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  registerReadyUser,
  registerUser,
} from './harness.ts';
import { recordPrices } from './prices.ts';
import { readXlsx } from './xlsx.ts';

let t: TestApp;
const DAY = 86_400_000;

interface Posting {
  id: string;
  time: string;
  type: string;
  asset: string;
  wallet: string;
  bucket: string;
  amount: string;
  memo: string | null;
  reference: string;
}
interface Page {
  items: Posting[];
  nextCursor: string | null;
}

type Params = Record<string, string | number | string[] | undefined>;
function qs(params: Params): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
const list = (token: string, params: Params = {}, lang?: string) =>
  call<Page>(t.app, 'GET', `/api/v1/funds/postings${qs(params)}`, {
    token,
    ...(lang ? { lang } : {}),
  });

async function all(token: string, params: Params = {}): Promise<Posting[]> {
  const reply = await list(token, { ...params, limit: 50 });
  expect(reply.body.code).toBe(0);
  expect(reply.body.data.nextCursor).toBeNull();
  return reply.body.data.items;
}

let alice: { token: string; uid: string };
let bob: { token: string; uid: string };
let start: number;
const MEMO = 'Compensation for the delayed deposit of 20 November (ticket 4711)';

/** A manual adjustment as operators will post it: a `system` entry whose memo is its reason. */
async function adjust(userId: number, amountMinor: bigint, memo: string) {
  await t.database.db.transaction((tx) =>
    t.app.services.ledger.post(tx, t.clock.now(), {
      kind: 'adjustment',
      reference: `adjustment:${crypto.randomUUID()}`,
      userId,
      memo,
      postings: [
        { account: houseAccount('adjustments', 'USDT'), amount: -amountMinor, type: 'system' },
        { account: userAccount(userId, 'spot', 'USDT'), amount: amountMinor, type: 'system' },
      ],
    }),
  );
}

/** Freezes and releases funds (available → locked → available), as an order would. */
async function lockAndRelease(userId: number, amountMinor: bigint) {
  const account = userAccount(userId, 'futures', 'USDT');
  for (const [type, sign] of [
    ['posting_order', 1n],
    ['order_refund', -1n],
  ] as const) {
    await t.database.db.transaction((tx) =>
      t.app.services.ledger.post(tx, t.clock.now(), {
        kind: 'test_order',
        reference: `test:order:${crypto.randomUUID()}`,
        userId,
        postings: [
          { account, bucket: 'available', amount: -sign * amountMinor, type },
          { account, bucket: 'locked', amount: sign * amountMinor, type },
        ],
      }),
    );
  }
}

const transfer = (token: string, from: string, to: string, amount: string) =>
  call(t.app, 'POST', '/api/v1/wallet/transfer', {
    token,
    body: { from, to, asset: 'USDT', amount },
    headers: { 'idempotency-key': idempotencyKey() },
  });

beforeAll(async () => {
  // The history spans 100 days: sessions must outlive it.
  t = await createTestApp({ env: { SESSION_TTL_DAYS: '365' } });
  alice = await registerReadyUser(t); // she converts (KYC passed, spec §5)
  bob = await registerUser(t.app);
  start = t.clock.now().getTime();
  // Day 0: deposits. Day 10: a transfer to futures. Day 40: a conversion. Day 100: an adjustment and an order's lock/release.
  await fund(t, Number(alice.uid), 1_000_000_000n);
  await fund(t, Number(alice.uid), 20_000_000n, 'spot', 'BTC');
  await fund(t, Number(bob.uid), 7_000_000n);
  t.clock.advance(10 * DAY);
  expect((await transfer(alice.token, 'spot', 'futures', '100')).body.code).toBe(0);
  expect((await transfer(bob.token, 'spot', 'futures', '2')).body.code).toBe(0);
  t.clock.advance(30 * DAY);
  await recordPrices(t, { BTCUSDT: '95000.00' });
  const quote = await call<{ id: string }>(t.app, 'POST', '/api/v1/convert/quote', {
    token: alice.token,
    body: { from: 'BTC', to: 'USDT', amount: '0.1' },
  });
  if (!quote.body.data) throw new Error(JSON.stringify(quote.body));
  expect(
    (
      await call(t.app, 'POST', '/api/v1/convert', {
        token: alice.token,
        body: { quoteId: quote.body.data.id },
        headers: { 'idempotency-key': idempotencyKey() },
      })
    ).body.code,
  ).toBe(0);
  t.clock.advance(60 * DAY);
  await adjust(Number(alice.uid), 5_000_000n, MEMO);
  await lockAndRelease(Number(alice.uid), 30_000_000n);
});
afterAll(() => t.close());

describe('funds detail: your postings', () => {
  it('lists your own postings newest first, signed, with types, accounts and memos', async () => {
    const items = await all(alice.token);
    expect(items.map((p) => `${p.type} ${p.wallet}/${p.bucket} ${p.asset} ${p.amount}`)).toEqual([
      'order_refund futures/locked USDT -30',
      'order_refund futures/available USDT 30',
      'posting_order futures/locked USDT 30',
      'posting_order futures/available USDT -30',
      'system spot/available USDT 5',
      'conversion spot/available BTC -0.1',
      'conversion_fee spot/available USDT -19',
      'conversion spot/available USDT 9500',
      'transfer_in futures/available USDT 100',
      'transfer_out spot/available USDT -100',
      'deposit spot/available BTC 0.2',
      'deposit spot/available USDT 1000',
    ]);
    const ids = items.map((p) => Number(p.id));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    // A system adjustment shows its reason.
    expect(items.find((p) => p.type === 'system')?.memo).toBe(MEMO);
    expect(items.find((p) => p.type === 'conversion')?.reference).toMatch(
      /^conversion:[A-Za-z0-9_-]{22}$/,
    );
    expect(items.find((p) => p.type === 'deposit')?.time).toBe(new Date(start).toISOString());
  });

  it("another user's postings never appear, whatever the filter or cursor", async () => {
    const aliceIds = new Set((await all(alice.token)).map((p) => p.id));
    const bobs = await all(bob.token);
    expect(bobs.map((p) => `${p.type} ${p.amount}`)).toEqual([
      'transfer_in 2',
      'transfer_out -2',
      'deposit 7',
    ]);
    expect(bobs.some((p) => aliceIds.has(p.id))).toBe(false);
    // Alice's newest id as Bob's cursor still yields only Bob's postings.
    const cursor = [...aliceIds].sort((a, b) => Number(b) - Number(a))[0];
    const paged = await list(bob.token, { cursor, limit: 50 });
    expect(paged.body.data.items.every((p) => !aliceIds.has(p.id))).toBe(true);
    expect((await list(bob.token, { type: 'system', limit: 50 })).body.data.items).toEqual([]);
  });

  it('needs a signed-in user', async () => {
    expect((await call(t.app, 'GET', '/api/v1/funds/postings')).body.code).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/funds/postings/export')).body.code).toBe(401);
  });
});

describe('filters', () => {
  it('by one type, and by several as repeated keys', async () => {
    expect((await all(alice.token, { type: 'system' })).map((p) => p.amount)).toEqual(['5']);
    const both = await all(alice.token, { type: ['transfer_in', 'transfer_out'] });
    expect(both.map((p) => p.type)).toEqual(['transfer_in', 'transfer_out']);
    const conversions = await all(alice.token, { type: ['conversion', 'conversion_fee'] });
    expect(conversions).toHaveLength(3);
  });

  it('by asset and by wallet', async () => {
    expect((await all(alice.token, { asset: 'BTC' })).map((p) => p.amount)).toEqual([
      '-0.1',
      '0.2',
    ]);
    const futures = await all(alice.token, { wallet: 'futures' });
    expect(futures.every((p) => p.wallet === 'futures')).toBe(true);
    expect(futures).toHaveLength(5);
    expect(await all(alice.token, { wallet: 'futures', asset: 'BTC' })).toEqual([]);
  });

  it('by date range: from inclusive, to exclusive', async () => {
    const day = (n: number) => new Date(start + n * DAY).toISOString();
    expect((await all(alice.token, { from: day(0), to: day(10) })).map((p) => p.type)).toEqual([
      'deposit',
      'deposit',
    ]);
    expect((await all(alice.token, { from: day(10), to: day(40) })).map((p) => p.type)).toEqual([
      'transfer_in',
      'transfer_out',
    ]);
    expect(
      (await all(alice.token, { from: day(39), to: day(41), type: 'conversion_fee' })).map(
        (p) => p.amount,
      ),
    ).toEqual(['-19']);
    expect(await all(alice.token, { from: day(41), to: day(99) })).toEqual([]);
  });

  it('a range of at most 90 days: 90 is accepted, 91 is refused with "Select at most 90 days."', async () => {
    const day = (n: number) => new Date(start + n * DAY).toISOString();
    expect((await list(alice.token, { from: day(10), to: day(100) })).body.code).toBe(0);
    const tooLong = await list(alice.token, { from: day(10), to: day(101) });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors?.to).toEqual(['Select at most 90 days.']);
    const zh = await list(alice.token, { from: day(10), to: day(101) }, 'zh-CN');
    expect(zh.body.errors?.to).toEqual(['最多选择 90 天。']);
    // The export has the same limit.
    const exportTooLong = await call(
      t.app,
      'GET',
      `/api/v1/funds/postings/export${qs({ from: day(0), to: day(91) })}`,
      { token: alice.token },
    );
    expect(exportTooLong.body.errors?.to).toEqual(['Select at most 90 days.']);
  });

  it.each([
    [{ from: new Date(0).toISOString() }, 'to', 'Select a start and an end date.'],
    [
      { from: '2026-11-22T00:00:00Z', to: '2026-11-21T00:00:00Z' },
      'to',
      'The end date must be after the start date.',
    ],
    [
      { from: 'yesterday', to: '2026-11-21T00:00:00Z' },
      'from',
      'This value is not in the right format.',
    ],
    [{ type: 'gift' }, 'type', 'This value is not allowed.'],
    [{ asset: 'NOPE' }, 'asset', 'This value is not allowed.'],
    [{ wallet: 'savings' }, 'wallet', 'This value is not allowed.'],
    [{ limit: 51 }, 'limit', 'Must be at most 50.'],
    [{ limit: 0 }, 'limit', 'Must be at least 1.'],
    [{ cursor: 'abc' }, 'cursor', 'This value is not allowed.'],
    [{ userId: '10000001' }, 'userId', 'This field is not accepted.'],
  ] as [Params, string, string][])('bad filter %j → 422 on %s', async (params, field, message) => {
    const reply = await list(alice.token, params);
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.[field]).toEqual([message]);
  });
});

describe('pagination', () => {
  it('cursor pages of any size join into the full list: no duplicates, no gaps, then "no more data"', async () => {
    const full = (await all(alice.token)).map((p) => p.id);
    for (const limit of [1, 2, 5, 11, 12]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 20; page++) {
        const reply = await list(alice.token, { limit, cursor });
        expect(reply.body.code).toBe(0);
        expect(reply.body.data.items.length).toBeLessThanOrEqual(limit);
        seen.push(...reply.body.data.items.map((p) => p.id));
        if (!reply.body.data.nextCursor) break;
        cursor = reply.body.data.nextCursor;
      }
      expect(seen, `limit ${limit}`).toEqual(full);
    }
  });

  it('postings made while paging do not shift later pages', async () => {
    const user = await registerUser(t.app);
    for (let i = 1; i <= 5; i++) await fund(t, Number(user.uid), BigInt(i) * 1_000_000n);
    const first = await list(user.token, { limit: 2 });
    expect(first.body.data.items.map((p) => p.amount)).toEqual(['5', '4']);
    await fund(t, Number(user.uid), 9_000_000n);
    const second = await list(user.token, {
      limit: 2,
      cursor: first.body.data.nextCursor ?? undefined,
    });
    expect(second.body.data.items.map((p) => p.amount)).toEqual(['3', '2']);
    const third = await list(user.token, {
      limit: 2,
      cursor: second.body.data.nextCursor ?? undefined,
    });
    expect(third.body.data).toEqual({
      items: [expect.objectContaining({ amount: '1' })],
      nextCursor: null,
    });
  });

  it('the default page is 20 and a user with no postings gets an empty last page', async () => {
    const empty = await registerUser(t.app);
    expect((await list(empty.token)).body.data).toEqual({ items: [], nextCursor: null });
    const many = await registerUser(t.app);
    for (let i = 0; i < 21; i++) await fund(t, Number(many.uid), 1_000_000n);
    const page = await list(many.token);
    expect(page.body.data.items).toHaveLength(20);
    expect(page.body.data.nextCursor).not.toBeNull();
  });
});

describe('export', () => {
  /** The rows of the only sheet, as arrays of cell texts; the amount column holds numbers. */
  async function sheetRows(file: Buffer): Promise<string[][]> {
    const sheet = await readXlsx(file);
    expect(sheet.names).toHaveLength(1);
    for (const row of sheet.rows.slice(1)) expect(typeof row[4], `amount ${row[4]}`).toBe('number');
    return sheet.rows.map((row) => row.map(String));
  }

  const download = (token: string, params: Params = {}, lang?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/funds/postings/export${qs(params)}`,
      headers: { authorization: `Bearer ${token}`, ...(lang ? { 'accept-language': lang } : {}) },
    });

  it('is an .xlsx file whose sheet rows match the postings: time, type, asset, account, amount, memo, reference', async () => {
    const response = await download(alice.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="tradewind-funds-\d{8}-\d{6}\.xlsx"$/,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const rows = await sheetRows(response.rawPayload);
    const postings = await all(alice.token);
    expect(rows[0]).toEqual([
      'Time (UTC)',
      'Type',
      'Currency',
      'Account',
      'Amount',
      'Note',
      'Reference',
      'Event',
    ]);
    expect(rows).toHaveLength(postings.length + 1);
    const labels: Record<string, string> = {
      deposit: 'Deposit',
      transfer_in: 'Transfer in',
      transfer_out: 'Transfer out',
      conversion: 'Conversion',
      conversion_fee: 'Conversion fee',
      system: 'System',
      posting_order: 'Order placed',
      order_refund: 'Order refund',
    };
    const wallets: Record<string, string> = {
      'spot/available': 'Spot account',
      'futures/available': 'Futures account',
      'futures/locked': 'Futures account (locked)',
    };
    expect(rows.slice(1)).toEqual(
      postings.map((p) => [
        p.time.replace('T', ' ').slice(0, 19),
        labels[p.type],
        p.asset,
        wallets[`${p.wallet}/${p.bucket}`],
        p.amount,
        p.memo ?? '',
        p.reference,
        expect.stringMatching(/ · #\d+$/),
      ]),
    );
    expect(rows.find((r) => r[1] === 'System')?.[5]).toBe(MEMO);
    const sheet = await readXlsx(response.rawPayload);
    expect(sheet.names).toEqual(['Funds detail']);
    // The header row is bold and stays in view while the rows scroll.
    expect(sheet.worksheet.getRow(1).font?.bold).toBe(true);
    expect(sheet.worksheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });

  it('uses the same filters, and labels in the request language', async () => {
    const response = await download(
      alice.token,
      { type: ['conversion', 'conversion_fee'], asset: 'USDT' },
      'zh-CN',
    );
    const rows = await sheetRows(response.rawPayload);
    expect(rows[0]).toEqual([
      '时间（UTC）',
      '类型',
      '币种',
      '账户',
      '金额',
      '备注',
      '参考编号',
      '事件',
    ]);
    expect(rows.slice(1).map((r) => [r[1], r[3], r[4]])).toEqual([
      ['兑换手续费', '现货账户', '-19'],
      ['兑换', '现货账户', '9500'],
    ]);
    expect((await readXlsx(response.rawPayload)).names).toEqual(['资金明细']);
  });

  it('holds only your own postings; an empty export has just the header', async () => {
    const bobRows = await sheetRows((await download(bob.token)).rawPayload);
    expect(bobRows).toHaveLength(4);
    const aliceRefs = new Set((await all(alice.token)).map((p) => p.reference));
    expect(bobRows.slice(1).some((r) => aliceRefs.has(r[6] as string))).toBe(false);
    const empty = await registerUser(t.app);
    expect(await sheetRows((await download(empty.token)).rawPayload)).toHaveLength(1);
  });
});
