import crypto from 'node:crypto';
import { type FundsEvent, describeFundsEvent } from '@tradewind/contract/funds';
import type { Language } from '@tradewind/contract/languages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalAccount, userAccount } from '../src/modules/ledger/service.ts';
import { queryRows } from '../src/platform/db.ts';
import { translate } from '../src/platform/i18n.ts';
import { orderRow, placed, recordAt, settlement } from './contracts.ts';
import {
  PASSWORD,
  type TestApp,
  call,
  createTestApp,
  idempotencyKey,
  operatorToken,
  registerReadyUser,
  registerUser,
} from './harness.ts';
import { recordPrices } from './prices.ts';
import { readXlsx } from './xlsx.ts';

/**
 * The funds detail by event (issue 32): one row per ledger entry as it touches the user,
 * described from its kind and what its reference names, with the net change per account.
 */

let t: TestApp;
type User = Awaited<ReturnType<typeof registerUser>>;
let ann: User;
let bob: User;
let before: Map<string, bigint>;
let winId: string;
let lossId: string;
const PIN = '271828';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

interface Page {
  items: FundsEvent[];
  nextCursor: string | null;
}

const list = (token: string, params: Record<string, string | string[]> = {}) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, item);
  return call<Page>(t.app, 'GET', `/api/v1/funds/events?${search}`, { token });
};

async function all(token: string, params: Record<string, string | string[]> = {}) {
  const reply = await list(token, { ...params, limit: '50' });
  expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
  expect(reply.body.data.nextCursor).toBeNull();
  return reply.body.data.items;
}

/** What the user holds per asset, available and locked, over both wallets (minor units). */
async function holdings(uid: string): Promise<Map<string, bigint>> {
  const rows = await queryRows<{ asset: string; total: string }>(
    t.database.db,
    sql`select asset, sum(available + locked)::text as total from ledger_accounts
        where user_id = ${Number(uid)} group by asset`,
  );
  return new Map(rows.map((r) => [r.asset, BigInt(r.total)]));
}

const SCALE: Record<string, number> = { USDT: 6, BTC: 8, ETH: 8 };
const minor = (decimal: string, asset: string) => {
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = decimal.replace('-', '').split('.');
  const scale = SCALE[asset] ?? 0;
  const value = BigInt(whole) * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
  return negative ? -value : value;
};

/** A credited chain deposit, as the watcher posts it. */
async function deposit(uid: string, amountMinor: bigint) {
  const txid = crypto.randomBytes(32).toString('hex');
  await t.database.db.transaction((tx) =>
    t.app.services.ledger.post(tx, t.clock.now(), {
      kind: 'deposit',
      reference: `deposit:${txid}:0`,
      userId: Number(uid),
      postings: [
        { account: externalAccount('chain', 'USDT'), amount: -amountMinor, type: 'deposit' },
        {
          account: userAccount(Number(uid), 'spot', 'USDT'),
          amount: amountMinor,
          type: 'deposit',
        },
      ],
    }),
  );
}

const nextSecond = () => Math.ceil((t.clock.now().getTime() + 1) / 1000) * 1000;

const describeIn = (language: Language, event: FundsEvent) =>
  describeFundsEvent(event, (key, params) => translate(language, key, params));

beforeAll(async () => {
  t = await createTestApp();
  ann = await registerReadyUser(t);
  bob = await registerUser(t.app);
  await deposit(bob.uid, 7_000_000n);
  before = await holdings(ann.uid);

  // Deposit 1000, convert 100 USDT to BTC, move 300 to futures.
  await deposit(ann.uid, 1_000_000_000n);
  await recordPrices(t, { BTCUSDT: '95000.00' });
  const quote = await call<{ id: string }>(t.app, 'POST', '/api/v1/convert/quote', {
    token: ann.token,
    body: { from: 'USDT', to: 'BTC', amount: '100' },
  });
  expect(quote.body.code, JSON.stringify(quote.body)).toBe(0);
  const converted = await call(t.app, 'POST', '/api/v1/convert', {
    token: ann.token,
    body: { quoteId: quote.body.data.id },
    headers: { 'idempotency-key': idempotencyKey() },
  });
  expect(converted.body.code, JSON.stringify(converted.body)).toBe(0);
  const moved = await call(t.app, 'POST', '/api/v1/wallet/transfer', {
    token: ann.token,
    body: { from: 'spot', to: 'futures', asset: 'USDT', amount: '300' },
    headers: { 'idempotency-key': idempotencyKey() },
  });
  expect(moved.body.code, JSON.stringify(moved.body)).toBe(0);

  // Two orders on BTC: up wins, down loses.
  const start = nextSecond();
  await recordAt(t, start, { BTCUSDT: '95000.00' });
  winId = (await placed(t, ann.token, { symbol: 'BTCUSDT', direction: 'up' })).id;
  lossId = (await placed(t, ann.token, { symbol: 'BTCUSDT', direction: 'down' })).id;
  await recordAt(t, start + 30_000, { BTCUSDT: '95100.00' });
  expect(await settlement(t).settleDue()).toBeGreaterThanOrEqual(2);

  // A withdrawal the reviewer rejects: the funds are frozen, then released.
  const pin = await call(t.app, 'POST', '/api/v1/money-passwords', {
    token: ann.token,
    body: {
      kind: 'withdraw',
      proof: 'login_password',
      loginPassword: PASSWORD,
      password: PIN,
      confirmPassword: PIN,
    },
  });
  expect(pin.body.code, JSON.stringify(pin.body)).toBe(0);
  const withdrawal = await call<{ id: string }>(t.app, 'POST', '/api/v1/withdrawals', {
    token: ann.token,
    body: { asset: 'USDT', network: 'TRC20', address: TRON, amount: '25.5', password: PIN },
    headers: { 'idempotency-key': idempotencyKey() },
  });
  expect(withdrawal.body.code, JSON.stringify(withdrawal.body)).toBe(0);
  const reviewer = await operatorToken(t, 'reviewer');
  const rejected = await call(t.app, 'POST', '/api/admin/v1/withdrawals/review', {
    token: reviewer.token,
    body: { id: withdrawal.body.data.id, decision: 'reject', reason: 'Address mismatch' },
  });
  expect(rejected.body.code, JSON.stringify(rejected.body)).toBe(0);
}, 60_000);
afterAll(() => t.close());

describe('funds detail by event', () => {
  it('one row per event, described in plain words, never the raw reference', async () => {
    const events = await all(ann.token);
    expect(events.map((e) => describeIn('en', e))).toEqual([
      'Withdrawal refunded',
      'Withdrawal requested',
      expect.stringMatching(/^BTC\/USDT (Up · won|Down · lost)$/),
      expect.stringMatching(/^BTC\/USDT (Up · won|Down · lost)$/),
      'BTC/USDT Down · order placed',
      'BTC/USDT Up · order placed',
      'Transfer Spot → Futures',
      'Convert USDT → BTC',
      'Deposit',
    ]);
    const settled = events
      .filter((e) => e.kind === 'contract_settle')
      .map((e) => describeIn('en', e));
    expect(settled.sort()).toEqual(['BTC/USDT Down · lost', 'BTC/USDT Up · won']);
    // The same in Chinese and German.
    const win = events.find((e) => e.order?.outcome === 'win') as FundsEvent;
    expect(describeIn('zh_CN', win)).toBe('BTC/USDT 买涨 · 盈利');
    expect(describeIn('de', win)).toBe('BTC/USDT Steigend · gewonnen');
    expect(describeIn('de', events[0] as FundsEvent)).toBe('Auszahlung erstattet');
    // Ids are entry ids, newest first.
    const ids = events.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('each event carries its net change per account; together they are the balance change', async () => {
    const events = await all(ann.token);
    const sums = new Map<string, bigint>();
    for (const event of events)
      for (const change of event.changes)
        sums.set(change.asset, (sums.get(change.asset) ?? 0n) + minor(change.amount, change.asset));
    const after = await holdings(ann.uid);
    for (const asset of new Set([...after.keys(), ...before.keys()]))
      expect(sums.get(asset) ?? 0n, asset).toBe(
        (after.get(asset) ?? 0n) - (before.get(asset) ?? 0n),
      );

    const byKind = (kind: string) => events.filter((e) => e.kind === kind);
    expect(byKind('deposit')[0]?.changes).toEqual([
      { asset: 'USDT', wallet: 'spot', amount: '1000', locked: '0' },
    ]);
    expect(byKind('transfer')[0]?.changes).toEqual([
      { asset: 'USDT', wallet: 'spot', amount: '-300', locked: '0' },
      { asset: 'USDT', wallet: 'futures', amount: '300', locked: '0' },
    ]);
    // Placing freezes stake and fee: nothing leaves yet.
    for (const open of byKind('contract_open'))
      expect(open.changes).toEqual([
        { asset: 'USDT', wallet: 'futures', amount: '0', locked: '100.2' },
      ]);
    const win = await orderRow(t, winId);
    const loss = await orderRow(t, lossId);
    expect(win?.outcome).toBe('win');
    expect(loss?.outcome).toBe('loss');
    const settled = (outcome: string) =>
      byKind('contract_settle').find((e) => e.order?.outcome === outcome)?.changes;
    expect(settled('win')).toEqual([
      {
        asset: 'USDT',
        wallet: 'futures',
        amount: String(Number(BigInt(win?.payout_minor ?? 0) - 100_200_000n) / 1e6),
        locked: '-100.2',
      },
    ]);
    expect(settled('loss')).toEqual([
      { asset: 'USDT', wallet: 'futures', amount: '-100.2', locked: '-100.2' },
    ]);
    const conversion = byKind('conversion')[0];
    expect(conversion?.changes.map((c) => c.asset).sort()).toEqual(['BTC', 'USDT']);
    expect(conversion?.changes.find((c) => c.asset === 'USDT')?.amount).toBe('-100');
    // The withdrawal froze 25.5 (and its fee) and the rejection released them: no net change.
    const [requested] = byKind('withdrawal_request');
    const [refunded] = byKind('withdrawal_refund');
    expect(requested?.changes[0]?.amount).toBe('0');
    expect(minor(requested?.changes[0]?.locked ?? '0', 'USDT')).toBeGreaterThanOrEqual(25_500_000n);
    expect(refunded?.changes[0]?.locked).toBe(`-${requested?.changes[0]?.locked}`);
    expect(refunded?.memo).toBe('Address mismatch');
  });

  it('the detail holds the postings, each leg with its type, and the reference', async () => {
    const events = await all(ann.token);
    const win = events.find((e) => e.order?.outcome === 'win') as FundsEvent;
    expect(win.reference).toBe(`contract:${winId}:settle`);
    expect(win.order).toEqual({ instrument: 'BTCUSDT', direction: 'up', outcome: 'win' });
    expect(win.postings.map((p) => `${p.type} ${p.bucket}`)).toEqual(
      expect.arrayContaining([
        'position_fee locked',
        'position_close locked',
        'position_close available',
      ]),
    );
    const deposit = events.find((e) => e.kind === 'deposit') as FundsEvent;
    expect(deposit.reference).toMatch(/^deposit:[0-9a-f]{64}:0$/);
    expect(deposit.postings).toEqual([
      expect.objectContaining({
        type: 'deposit',
        bucket: 'available',
        amount: '1000',
        wallet: 'spot',
      }),
    ]);
  });

  it("another user's events never appear, whatever the filter or cursor", async () => {
    const annIds = new Set((await all(ann.token)).map((e) => e.id));
    const bobs = await all(bob.token);
    expect(bobs.map((e) => e.kind)).toEqual(['deposit']);
    expect(bobs.some((e) => annIds.has(e.id))).toBe(false);
    const newest = String(Math.max(...[...annIds].map(Number)) + 1);
    const paged = await list(bob.token, { cursor: newest, limit: '50' });
    expect(paged.body.data.items.map((e) => e.id)).toEqual(bobs.map((e) => e.id));
    expect(await all(bob.token, { type: 'position_close' })).toEqual([]);
  });

  it('filters: an event matches a type if any of its postings has it; asset and wallet too', async () => {
    const kinds = async (params: Record<string, string | string[]>) =>
      (await all(ann.token, params)).map((e) => e.kind);
    expect(await kinds({ type: 'position_close' })).toEqual(['contract_settle', 'contract_settle']);
    expect(await kinds({ type: ['transfer_in', 'deposit'] })).toEqual(['transfer', 'deposit']);
    expect(await kinds({ type: 'withdraw_refund' })).toEqual(['withdrawal_refund']);
    expect(await kinds({ asset: 'BTC' })).toEqual(['conversion']);
    expect(await kinds({ wallet: 'futures' })).toEqual([
      'contract_settle',
      'contract_settle',
      'contract_open',
      'contract_open',
      'transfer',
    ]);
    // A matching event still shows all of its legs.
    const [transfer] = await all(ann.token, { type: 'transfer_in' });
    expect(transfer?.changes).toHaveLength(2);
    const now = t.clock.now().getTime();
    expect(
      await kinds({
        from: new Date(now + 60_000).toISOString(),
        to: new Date(now + 120_000).toISOString(),
      }),
    ).toEqual([]);
  });

  it('pages by cursor without overlap or gap, then "no more data"', async () => {
    const everything = (await all(ann.token)).map((e) => e.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const reply: Awaited<ReturnType<typeof list>> = await list(ann.token, {
        limit: '4',
        ...(cursor ? { cursor } : {}),
      });
      expect(reply.body.data.items.length).toBeLessThanOrEqual(4);
      seen.push(...reply.body.data.items.map((e) => e.id));
      cursor = reply.body.data.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(everything);
  });

  it('bad input changes nothing and says why', async () => {
    const reply = await list(ann.token, { type: 'nonsense' });
    expect(reply.body.code).toBe(422);
    expect(reply.body.data).toBeFalsy();
    expect((await call(t.app, 'GET', '/api/v1/funds/events')).body.code).toBe(401);
  });
});

describe('the export by posting names each posting’s event', () => {
  it('adds an Event column: the description in the user’s language and the entry id', async () => {
    const events = await all(ann.token);
    for (const [lang, header, described] of [
      ['en', 'Event', 'BTC/USDT Up · won'],
      ['zh_CN', '事件', 'BTC/USDT 买涨 · 盈利'],
    ] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/v1/funds/postings/export',
        headers: { authorization: `Bearer ${ann.token}`, 'accept-language': lang },
      });
      expect(response.statusCode).toBe(200);
      const sheet = await readXlsx(response.rawPayload);
      const rows = sheet.rows.map((row) => row.map((cell) => String(cell ?? '')));
      expect(rows[0]?.at(-1)).toBe(header);
      const win = events.find((e) => e.order?.outcome === 'win') as FundsEvent;
      const winRows = rows.filter((row) => row[6] === win.reference);
      // One row per posting, each naming the same event.
      expect(winRows).toHaveLength(win.postings.length);
      for (const row of winRows) expect(row.at(-1)).toBe(`${described} · #${win.id}`);
      // Every posting row has its event.
      for (const row of rows.slice(1)) expect(row.at(-1)).toMatch(/ · #\d+$/);
    }
  });
});
