import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeArray, integerArray } from '../src/modules/ledger/array-literals.ts';
import { checkLedger } from '../src/modules/ledger/invariants.ts';
import {
  DuplicateEntryError,
  type EntrySpec,
  MAX_ENTRIES_PER_BATCH,
  externalAccount,
  houseAccount,
  userAccount,
} from '../src/modules/ledger/service.ts';
import { queryRows } from '../src/platform/db.ts';
import { AppError } from '../src/platform/errors.ts';
import { type TestApp, createTestApp, registerUser } from './harness.ts';

/** The ledger's set-based `postMany`, the one door settlement and order batches post through. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (specs: EntrySpec[]) =>
  t.database.db.transaction((tx) => t.app.services.ledger.postMany(tx, t.clock.now(), specs));

describe('postMany', () => {
  it('a batch as large as settlement’s writes every entry and posting as given, with its account’s user, wallet and asset', async () => {
    const users = [
      Number((await registerUser(t.app)).uid),
      Number((await registerUser(t.app)).uid),
    ];
    const tag = `pm${Date.now()}`;
    // Funding first, then MAX_ENTRIES_PER_BATCH entries over user, house and external accounts in two assets.
    await post(
      users.flatMap((userId) => [
        {
          kind: 'test',
          reference: `${tag}:fund:${userId}:USDT`,
          userId,
          postings: [
            {
              account: externalAccount('demo', 'USDT'),
              amount: -1_000_000_000n,
              type: 'deposit' as const,
            },
            {
              account: userAccount(userId, 'futures', 'USDT'),
              amount: 1_000_000_000n,
              type: 'deposit' as const,
            },
          ],
        },
        {
          kind: 'test',
          reference: `${tag}:fund:${userId}:BTC`,
          userId,
          postings: [
            {
              account: externalAccount('demo', 'BTC'),
              amount: -1_000_000n,
              type: 'deposit' as const,
            },
            {
              account: userAccount(userId, 'spot', 'BTC'),
              amount: 1_000_000n,
              type: 'deposit' as const,
            },
          ],
        },
      ]),
    );
    const specs: EntrySpec[] = Array.from({ length: MAX_ENTRIES_PER_BATCH }, (_, i) => {
      const userId = users[i % 2] as number;
      const stake = BigInt(1 + (i % 7));
      return i % 3 === 0
        ? {
            kind: 'test_btc',
            reference: `${tag}:${i}`,
            userId,
            memo: `memo "${i}", {x}`,
            postings: [
              {
                account: userAccount(userId, 'spot', 'BTC'),
                amount: -stake,
                type: 'position_fee' as const,
              },
              {
                account: houseAccount('fees', 'BTC'),
                amount: stake,
                type: 'position_fee' as const,
              },
            ],
          }
        : {
            kind: 'test_usdt',
            reference: `${tag}:${i}`,
            userId,
            postings: [
              {
                account: userAccount(userId, 'futures', 'USDT'),
                bucket: 'available',
                amount: -stake * 2n,
                type: 'transfer_out' as const,
              },
              {
                account: userAccount(userId, 'spot', 'USDT'),
                bucket: 'available',
                amount: stake,
                type: 'transfer_in' as const,
              },
              {
                account: houseAccount('contracts', 'USDT'),
                amount: stake,
                type: 'position_close' as const,
              },
            ],
          };
    });
    const ids = await post(specs);
    expect(ids).toHaveLength(specs.length);
    const rows = await queryRows<{
      id: string;
      reference: string;
      memo: string | null;
      postings: {
        account: string;
        user_id: string | null;
        wallet: string | null;
        asset: string;
        bucket: string;
        type: string;
        amount: string;
      }[];
    }>(
      t.database.db,
      sql`select e.id::text, e.reference, e.memo,
                 json_agg(json_build_object('account', a.name, 'user_id', p.user_id::text, 'wallet', p.wallet, 'asset', p.asset, 'bucket', p.bucket, 'type', p.type, 'amount', p.amount::text) order by p.id) as postings
          from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
          where e.reference like ${`${tag}:%`} and e.reference not like ${`${tag}:fund:%`} group by e.id`,
    );
    const byReference = new Map(rows.map((row) => [row.reference, row]));
    specs.forEach((spec, i) => {
      const row = byReference.get(spec.reference);
      // The ids come back in the order of the specs.
      expect(row?.id).toBe(String(ids[i]));
      expect(row?.memo ?? null).toBe(spec.memo ?? null);
      const posted = [...(row?.postings ?? [])].sort((a, b) => a.account.localeCompare(b.account));
      const expected = spec.postings
        .map((p) => {
          const ref = p.account;
          const own = ref.kind === 'user';
          return {
            account: own
              ? `user:${ref.userId}:${ref.wallet}:${ref.asset}`
              : `${ref.kind}:${ref.name}:${ref.asset}`,
            user_id: own ? String(ref.userId) : null,
            wallet: own ? ref.wallet : null,
            asset: ref.asset,
            bucket: p.bucket ?? 'available',
            type: p.type,
            amount: p.amount.toString(),
          };
        })
        .sort((a, b) => a.account.localeCompare(b.account));
      expect(posted).toEqual(expected);
    });
    expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
  });

  it('refuses the whole batch on a repeated reference or a user balance going negative; nothing is written', async () => {
    const userId = Number((await registerUser(t.app)).uid);
    const tag = `pmr${Date.now()}`;
    const fund = (reference: string, amount: bigint): EntrySpec => ({
      kind: 'test',
      reference,
      userId,
      postings: [
        { account: externalAccount('demo', 'USDT'), amount: -amount, type: 'deposit' },
        { account: userAccount(userId, 'spot', 'USDT'), amount, type: 'deposit' },
      ],
    });
    await post([fund(`${tag}:a`, 10n)]);
    await expect(post([fund(`${tag}:b`, 5n), fund(`${tag}:a`, 5n)])).rejects.toBeInstanceOf(
      DuplicateEntryError,
    );
    await expect(post([fund(`${tag}:c`, 5n), fund(`${tag}:d`, -20n)])).rejects.toMatchObject({
      errorName: 'INSUFFICIENT_BALANCE',
    });
    await expect(post([fund(`${tag}:c`, 5n), fund(`${tag}:d`, -20n)])).rejects.toBeInstanceOf(
      AppError,
    );
    const [row] = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from ledger_entries where reference like ${`${tag}:%`}`,
    );
    expect(row?.n).toBe('1');
  });
});

describe('the posting columns’ array literals', () => {
  it('integers and codes as PostgreSQL reads them; anything else is refused', () => {
    expect(integerArray([1, -2, 12_345_678_901_234_567_890n])).toBe('{1,-2,12345678901234567890}');
    expect(integerArray([])).toBe('{}');
    expect(() => integerArray([1.5])).toThrow(/not an integer/);
    expect(() => integerArray([2 ** 60])).toThrow(/not an integer/);
    expect(() => integerArray([Number.NaN])).toThrow(/not an integer/);
    expect(codeArray(['available', 'NULL', 'position_fee'])).toBe(
      '{"available","NULL","position_fee"}',
    );
    expect(codeArray([])).toBe('{}');
    for (const bad of ['a,b', 'a"b', 'a}', 'a b', '', 'a\\b'])
      expect(() => codeArray(['ok', bad]), bad).toThrow(/not a code/);
  });

  it('PostgreSQL reads them back as the values given', async () => {
    const [row] = await queryRows<{ integers: string[]; codes: string[] }>(
      t.database.db,
      sql`select ${integerArray([7, -1, 10n ** 30n])}::numeric[]::text[] as integers, ${codeArray(['NULL', 'USDT'])}::text[] as codes`,
    );
    expect(row).toEqual({
      integers: ['7', '-1', (10n ** 30n).toString()],
      codes: ['NULL', 'USDT'],
    });
  });
});
