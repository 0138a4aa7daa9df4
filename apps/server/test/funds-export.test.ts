import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { FUNDS_EXPORT_MAX_ROWS } from '@tradewind/contract/funds';
import type { AssetCode } from '@tradewind/contract/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportFunds } from '../src/modules/funds/service.ts';
import {
  type PostingFilter,
  countUserPostings,
  listUserPostings,
} from '../src/modules/ledger/postings.ts';
import {
  type EntrySpec,
  MAX_ENTRIES_PER_BATCH,
  externalAccount,
  houseAccount,
  userAccount,
} from '../src/modules/ledger/service.ts';
import { type TestApp, call, createTestApp, registerUser } from './harness.ts';
import { readXlsx } from './xlsx.ts';

/**
 * The export streams: it reads the postings a page at a time while the file is written, so
 * an export as long as the user's history holds only a page of it in memory at once.
 */

let t: TestApp;
let user: { token: string; uid: string };
const ROWS = 20_000;
const MINUTE = 60_000;
/** Batch b of the seed is posted at start + b minutes. */
let start: number;
/** One memo with markup, Chinese and characters XML cannot hold; the file holds it without the last two. */
const ODD_MEMO = 'Fix <b>&</b> "quotes" 补偿\u0007\uffff';

/** Posting i: every fifth a system adjustment with a memo, the others deposits; USDT and BTC; spot and futures. */
function entry(userId: number, i: number): EntrySpec {
  const asset: AssetCode = i % 2 === 0 ? 'USDT' : 'BTC';
  const system = i % 5 === 0;
  const amount = BigInt(i + 1) * 1_000n;
  return {
    kind: 'test_export',
    reference: `test:export:${i}:${crypto.randomUUID()}`,
    userId,
    memo: system ? (i === 5 ? ODD_MEMO : `Adjustment ${i}`) : null,
    postings: [
      {
        account: system ? houseAccount('adjustments', asset) : externalAccount('chain', asset),
        amount: -amount,
        type: system ? 'system' : 'deposit',
      },
      {
        account: userAccount(userId, i % 3 === 0 ? 'futures' : 'spot', asset),
        amount,
        type: system ? 'system' : 'deposit',
      },
    ],
  };
}

beforeAll(async () => {
  t = await createTestApp();
  user = await registerUser(t.app);
  start = t.clock.now().getTime();
  for (let first = 0; first < ROWS; first += MAX_ENTRIES_PER_BATCH) {
    const specs = Array.from({ length: MAX_ENTRIES_PER_BATCH }, (_, k) =>
      entry(Number(user.uid), first + k),
    );
    await t.database.db.transaction((tx) =>
      t.app.services.ledger.postMany(tx, t.clock.now(), specs),
    );
    t.clock.advance(MINUTE);
  }
}, 60_000);
afterAll(() => t.close());

const minute = (n: number) => new Date(start + n * MINUTE).toISOString();
const download = (params: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/funds/postings/export${params}`,
    headers: { authorization: `Bearer ${user.token}` },
  });

describe('a large export', () => {
  it(`the largest export allowed (${FUNDS_EXPORT_MAX_ROWS} rows) is complete, newest first`, async () => {
    // The second half of the seed: 5 batches of 2,000.
    const response = await download(
      `?from=${encodeURIComponent(minute(5))}&to=${encodeURIComponent(minute(10))}`,
    );
    expect(response.statusCode).toBe(200);
    const { rows } = await readXlsx(response.rawPayload);
    expect(rows).toHaveLength(FUNDS_EXPORT_MAX_ROWS + 1);
    // Every posting of the range once, in the list's order (newest first), across every page.
    const listed = await listUserPostings(
      t.database.db,
      Number(user.uid),
      { from: new Date(minute(5)), to: new Date(minute(10)) },
      ROWS,
    );
    expect(rows.slice(1).map((row) => row[6])).toEqual(listed.map((p) => p.reference));
    expect(new Set(listed.map((p) => Number(p.reference.split(':')[2])))).toEqual(
      new Set(Array.from({ length: FUNDS_EXPORT_MAX_ROWS }, (_, k) => ROWS - 1 - k)),
    );
  });

  it('one row more is refused with EXPORT_TOO_LARGE, as an envelope, before any file is sent', async () => {
    const refused = await call(
      t.app,
      'GET',
      `/api/v1/funds/postings/export?from=${encodeURIComponent(minute(4))}&to=${encodeURIComponent(minute(10))}`,
      { token: user.token },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe(2406);
    expect(refused.body.message).toBe(
      `Too many records to export at once (${FUNDS_EXPORT_MAX_ROWS} at most). Please choose a shorter date range.`,
    );
    expect(refused.response.headers['content-disposition']).toBeUndefined();
  });

  // Each page also reads its entries to name their events: on a busy 2-core machine the 20
  // pages can take longer than the default 30 s; what this test bounds is memory, not time.
  it(`${ROWS} rows stream out with a bounded heap: the postings are read a page at a time`, async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    // What stays alive while the file streams, after collections (the second frees the buffers
    // the first found dead). The file is copied into room taken beforehand, so what grows is
    // the export's own memory. Growth counts from the lowest reading: memory that earlier work
    // left behind and that is freed meanwhile would hide it if counted from the start.
    const live = () => {
      gc();
      gc();
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    };
    const room = Buffer.alloc(4 * 2 ** 20);
    let received = 0;
    let lowest = live();
    let highest = 0;
    let sampledAt = 0;
    const file = await exportFunds(
      t.database.db,
      Number(user.uid),
      { type: undefined },
      'en',
      t.clock.now(),
      ROWS,
    );
    for await (const chunk of file.body as Readable) {
      received += (chunk as Buffer).copy(room, received);
      if (received - sampledAt < 64 * 1024) continue;
      sampledAt = received;
      const reading = live();
      lowest = Math.min(lowest, reading);
      highest = Math.max(highest, reading);
    }
    const bytes = room.subarray(0, received);
    expect(sampledAt, 'the heap was sampled while the file streamed').toBeGreaterThan(0);
    // A page at a time stays well under this; either way of holding the whole export crosses
    // it: all the rows at once, or the sheet piling up in front of the compressor.
    const growth = highest - lowest;
    expect(growth, `live memory grew by ${(growth / 2 ** 20).toFixed(1)} MiB`).toBeLessThan(
      5 * 2 ** 20,
    );

    const { rows } = await readXlsx(bytes);
    expect(rows).toHaveLength(ROWS + 1);
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
    const listed = await listUserPostings(t.database.db, Number(user.uid), {}, ROWS);
    expect(rows.slice(1).map((row) => row[6])).toEqual(listed.map((p) => p.reference));
    const byIndex = new Map(
      rows.slice(1).map((row) => [Number(String(row[6]).split(':')[2]), row]),
    );
    expect(byIndex.size).toBe(ROWS);
    expect(byIndex.get(0)).toEqual([
      minute(0).replace('T', ' ').slice(0, 19),
      'System',
      'USDT',
      'Futures account',
      0.001,
      'Adjustment 0',
      expect.stringMatching(/^test:export:0:/),
      expect.stringMatching(/^System · #\d+$/),
    ]);
    expect(byIndex.get(ROWS - 1)).toEqual([
      minute(9).replace('T', ' ').slice(0, 19),
      'Deposit',
      'BTC',
      'Spot account',
      0.2,
      '',
      expect.stringMatching(/^test:export:19999:/),
      expect.stringMatching(/^Deposit · #\d+$/),
    ]);
    expect(byIndex.get(5)?.[5]).toBe('Fix <b>&</b> "quotes" 补偿');
  }, 90_000);

  it.each<[string, () => PostingFilter]>([
    ['everything', () => ({})],
    ['one type', () => ({ types: ['system'] })],
    ['two types', () => ({ types: ['system', 'deposit'] })],
    ['an asset', () => ({ asset: 'BTC' })],
    ['a wallet', () => ({ wallet: 'futures' })],
    ['a date range', () => ({ from: new Date(minute(3)), to: new Date(minute(7)) })],
    [
      'all at once',
      () => ({
        types: ['deposit'],
        asset: 'USDT',
        wallet: 'spot',
        from: new Date(minute(2)),
        to: new Date(minute(9)),
      }),
    ],
  ])('the export counts the rows the list pages through: %s', async (_, filterFor) => {
    const filter = filterFor();
    const listed = await listUserPostings(t.database.db, Number(user.uid), filter, ROWS + 1);
    const counted = await countUserPostings(t.database.db, Number(user.uid), filter, ROWS);
    expect(counted).toEqual({ count: listed.length, newestId: listed[0]?.id ?? null });
    // Counting stops one past the cap.
    expect((await countUserPostings(t.database.db, Number(user.uid), filter, 10)).count).toBe(
      Math.min(listed.length, 11),
    );
  });
});
