import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Obligation, type Violation, checkLedger } from '../src/modules/ledger/invariants.ts';
import { LOCKED_FUND_OBLIGATIONS, distinctObligations } from '../src/obligations.ts';
import {
  type AccountRef,
  DuplicateEntryError,
  type EntrySpec,
  UnbalancedEntryError,
  externalAccount,
  houseAccount,
  userAccount,
  userBalances,
} from '../src/modules/ledger/service.ts';
import { queryRows } from '../src/platform/db.ts';
import { AppError } from '../src/platform/errors.ts';
import { type TestApp, createTestApp, registerUser } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let reference = 0;
const post = (spec: Omit<EntrySpec, 'reference'> & { reference?: string }) =>
  t.database.db.transaction((tx) =>
    t.app.services.ledger.post(tx, t.clock.now(), { reference: `test:${++reference}`, ...spec }),
  );

async function balanceOf(userId: number, wallet: 'spot' | 'futures', asset = 'USDT') {
  const row = (await userBalances(t.database.db, userId)).find(
    (b) => b.wallet === wallet && b.asset === asset,
  );
  return { available: row?.available ?? 0n, locked: row?.locked ?? 0n };
}

async function newUser(): Promise<number> {
  return Number((await registerUser(t.app)).uid);
}

describe('ledger entries (table-driven)', () => {
  it.each([
    {
      name: 'a deposit credits available',
      steps: [
        [
          { a: 'ext', amount: -100n },
          { a: 'spot', amount: 100n },
        ],
      ],
      spot: [100n, 0n],
      futures: [0n, 0n],
    },
    {
      name: 'locking moves available to locked in the same account',
      steps: [
        [
          { a: 'ext', amount: -100n },
          { a: 'spot', amount: 100n },
        ],
        [
          { a: 'spot', amount: -30n },
          { a: 'spot', amount: 30n, bucket: 'locked' },
        ],
      ],
      spot: [70n, 30n],
      futures: [0n, 0n],
    },
    {
      name: 'a transfer moves between wallets',
      steps: [
        [
          { a: 'ext', amount: -100n },
          { a: 'spot', amount: 100n },
        ],
        [
          { a: 'spot', amount: -40n },
          { a: 'futures', amount: 40n },
        ],
      ],
      spot: [60n, 0n],
      futures: [40n, 0n],
    },
    {
      name: 'a fee is its own posting to the house',
      steps: [
        [
          { a: 'ext', amount: -100n },
          { a: 'spot', amount: 100n },
        ],
        [
          { a: 'spot', amount: -11n },
          { a: 'ext', amount: 10n },
          { a: 'fees', amount: 1n },
        ],
      ],
      spot: [89n, 0n],
      futures: [0n, 0n],
    },
  ] as const)('$name', async ({ steps, spot, futures }) => {
    const userId = await newUser();
    const ref = (a: string): AccountRef =>
      a === 'ext'
        ? externalAccount('chain', 'USDT')
        : a === 'fees'
          ? houseAccount('fees', 'USDT')
          : userAccount(userId, a as 'spot' | 'futures', 'USDT');
    for (const step of steps) {
      await post({
        kind: 'test',
        userId,
        postings: step.map((p) => ({
          account: ref(p.a),
          amount: p.amount,
          bucket: 'bucket' in p ? p.bucket : 'available',
          type: 'system',
        })),
      });
    }
    const s = await balanceOf(userId, 'spot');
    const f = await balanceOf(userId, 'futures');
    expect([s.available, s.locked]).toEqual(spot);
    expect([f.available, f.locked]).toEqual(futures);
    // Nothing owns test locks: release them so the ledger's invariants hold at the end.
    if (s.locked > 0n) {
      await post({
        kind: 'test',
        postings: [
          { account: ref('spot'), amount: -s.locked, bucket: 'locked', type: 'system' },
          { account: ref('spot'), amount: s.locked, type: 'system' },
        ],
      });
    }
  });

  it('an overdraft is refused with INSUFFICIENT_BALANCE and changes nothing', async () => {
    const userId = await newUser();
    await post({
      kind: 'test',
      postings: [
        { account: externalAccount('chain', 'USDT'), amount: -50n, type: 'deposit' },
        { account: userAccount(userId, 'spot', 'USDT'), amount: 50n, type: 'deposit' },
      ],
    });
    const error = await post({
      kind: 'test',
      postings: [
        { account: userAccount(userId, 'spot', 'USDT'), amount: -51n, type: 'transfer_out' },
        { account: userAccount(userId, 'futures', 'USDT'), amount: 51n, type: 'transfer_in' },
      ],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).errorName).toBe('INSUFFICIENT_BALANCE');
    expect(await balanceOf(userId, 'spot')).toEqual({ available: 50n, locked: 0n });
    expect(await balanceOf(userId, 'futures')).toEqual({ available: 0n, locked: 0n });
  });

  it('the same reference never posts twice', async () => {
    const userId = await newUser();
    const spec = {
      kind: 'test',
      reference: `once:${userId}`,
      postings: [
        { account: externalAccount('chain', 'USDT'), amount: -5n, type: 'deposit' as const },
        { account: userAccount(userId, 'spot', 'USDT'), amount: 5n, type: 'deposit' as const },
      ],
    };
    await post(spec);
    await expect(post(spec)).rejects.toBeInstanceOf(DuplicateEntryError);
    expect((await balanceOf(userId, 'spot')).available).toBe(5n);
  });

  it.each([
    ['does not balance', [{ amount: -5n }, { amount: 4n }]],
    ['has one posting', [{ amount: 5n }]],
    ['has a zero posting', [{ amount: 0n }, { amount: 0n }]],
  ])('an entry that %s is a bug and is refused', async (_name, amounts) => {
    const userId = await newUser();
    const error = await post({
      kind: 'test',
      postings: amounts.map((p, i) => ({
        account: i === 0 ? externalAccount('chain', 'USDT') : userAccount(userId, 'spot', 'USDT'),
        amount: p.amount,
        type: 'system' as const,
      })),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnbalancedEntryError);
  });
});

describe('the database enforces the ledger', () => {
  const refused = (query: ReturnType<typeof sql>) =>
    t.database.db.execute(query).then(
      () => 'accepted',
      (e: unknown) => String((e as { cause?: Error }).cause?.message ?? e),
    );

  it('balances change only through postings', async () => {
    const userId = await newUser();
    await post({
      kind: 'test',
      postings: [
        { account: externalAccount('chain', 'USDT'), amount: -5n, type: 'deposit' },
        { account: userAccount(userId, 'spot', 'USDT'), amount: 5n, type: 'deposit' },
      ],
    });
    expect(
      await refused(
        sql`update ledger_accounts set available = available + 1000000 where user_id = ${userId}`,
      ),
    ).toContain('balances change only through ledger postings');
    expect(
      await refused(
        sql`insert into ledger_accounts (name, kind, asset, available) values ('house:gift:USDT', 'house', 'USDT', 5)`,
      ),
    ).toContain('accounts open at zero');
    expect((await balanceOf(userId, 'spot')).available).toBe(5n);
  });

  it('entries and postings are append-only', async () => {
    expect(await refused(sql`update ledger_postings set amount = amount * 2`)).toContain(
      'append-only',
    );
    expect(await refused(sql`delete from ledger_postings`)).toContain('append-only');
    expect(await refused(sql`delete from ledger_entries`)).toContain('append-only');
    expect(await refused(sql`truncate ledger_postings cascade`)).toContain('append-only');
    expect(await refused(sql`delete from ledger_accounts`)).toContain('append-only');
  });

  it('an entry that does not balance cannot commit, even written by hand', async () => {
    const [account] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from ledger_accounts where kind = 'external' limit 1`,
    );
    const result = await t.database.db
      .transaction(async (tx) => {
        const [entry] = await queryRows<{ id: string }>(
          tx,
          sql`insert into ledger_entries (kind, reference, created_at) values ('hand', 'hand:1', now()) returning id::text`,
        );
        await tx.execute(
          sql`insert into ledger_postings (entry_id, account_id, asset, bucket, type, amount, created_at) values (${entry?.id}, ${account?.id}, 'USDT', 'available', 'system', 7, now())`,
        );
      })
      .then(
        () => 'committed',
        (e: unknown) => String((e as { cause?: Error }).cause?.message ?? e),
      );
    expect(result).toContain('does not balance');
    expect(
      await queryRows(t.database.db, sql`select 1 from ledger_entries where reference = 'hand:1'`),
    ).toEqual([]);
  });

  it('a user balance cannot go negative, even written by hand', async () => {
    const userId = await newUser();
    await post({
      kind: 'test',
      postings: [
        { account: externalAccount('chain', 'USDT'), amount: -5n, type: 'deposit' },
        { account: userAccount(userId, 'spot', 'USDT'), amount: 5n, type: 'deposit' },
      ],
    });
    const [account] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from ledger_accounts where user_id = ${userId}`,
    );
    const result = await t.database.db
      .transaction(async (tx) => {
        const [entry] = await queryRows<{ id: string }>(
          tx,
          sql`insert into ledger_entries (kind, reference, created_at) values ('hand', 'hand:2', now()) returning id::text`,
        );
        await tx.execute(
          sql`insert into ledger_postings (entry_id, account_id, asset, bucket, type, amount, created_at) values (${entry?.id}, ${account?.id}, 'USDT', 'available', 'system', -6, now())`,
        );
      })
      .then(
        () => 'committed',
        (e: unknown) => String((e as { cause?: Error }).cause?.message ?? e),
      );
    expect(result).toContain('ledger_accounts_user_nonnegative');
    expect((await balanceOf(userId, 'spot')).available).toBe(5n);
  });
  it('a posting must name an entry and an account that exist, and accounts cannot be re-keyed', async () => {
    const [account] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from ledger_accounts where kind = 'external' limit 1`,
    );
    const [house] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from ledger_accounts where kind <> 'user' and id <> ${account?.id} limit 1`,
    );
    const byHand = (reference: string, entryId: (id: string) => string, accountId: string) =>
      t.database.db
        .transaction(async (tx) => {
          const [entry] = await queryRows<{ id: string }>(
            tx,
            sql`insert into ledger_entries (kind, reference, created_at) values ('hand', ${reference}, now()) returning id::text`,
          );
          const id = entryId(entry?.id as string);
          await tx.execute(
            sql`insert into ledger_postings (entry_id, account_id, asset, bucket, type, amount, created_at)
                values (${id}, ${account?.id}, 'USDT', 'available', 'system', -7, now()), (${id}, ${accountId}, 'USDT', 'available', 'system', 7, now())`,
          );
        })
        .then(
          () => 'committed',
          (e: unknown) => String((e as { cause?: Error }).cause?.message ?? e),
        );
    expect(
      await byHand('hand:3', (id) => String(Number(id) + 1_000_000), house?.id as string),
    ).toMatch(/entry \d+ that does not exist/);
    expect(await byHand('hand:4', (id) => id, '999999999')).toContain(
      'account 999999999 that does not exist',
    );
    expect(
      await queryRows(
        t.database.db,
        sql`select 1 from ledger_entries where reference in ('hand:3', 'hand:4')`,
      ),
    ).toEqual([]);
    expect(
      await refused(sql`update ledger_accounts set id = default where id = ${account?.id}`),
    ).toContain('cannot be re-pointed');
    // The control: the same statement with real ids commits.
    expect(await byHand('hand:5', (id) => id, house?.id as string)).toBe('committed');
  });
});

describe('the invariant checker', () => {
  it('holds on a healthy ledger and catches locked funds without an obligation', async () => {
    expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
    const userId = await newUser();
    await post({
      kind: 'test',
      postings: [
        { account: externalAccount('chain', 'USDT'), amount: -9n, type: 'deposit' },
        { account: userAccount(userId, 'spot', 'USDT'), amount: 9n, type: 'deposit' },
      ],
    });
    await post({
      kind: 'test',
      postings: [
        { account: userAccount(userId, 'spot', 'USDT'), amount: -4n, type: 'withdraw' },
        {
          account: userAccount(userId, 'spot', 'USDT'),
          amount: 4n,
          bucket: 'locked',
          type: 'withdraw',
        },
      ],
    });
    const violations = await checkLedger(t.database.db, t.app.services.obligations);
    expect(violations.map((v) => v.rule)).toEqual(['locked funds equal open obligations']);
    // Once something owns those 4 units, the ledger is whole again.
    const owner: Obligation = {
      name: 'test',
      locked: async () => [{ account: `user:${userId}:spot:USDT`, amount: 4n }],
    };
    expect(await checkLedger(t.database.db, [...t.app.services.obligations, owner])).toEqual([]);
    // Release the lock so the file ends healthy.
    await post({
      kind: 'test',
      postings: [
        {
          account: userAccount(userId, 'spot', 'USDT'),
          amount: -4n,
          bucket: 'locked',
          type: 'withdraw_refund',
        },
        { account: userAccount(userId, 'spot', 'USDT'), amount: 4n, type: 'withdraw_refund' },
      ],
    });
    expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
  });

  it("is handed every module that locks funds, each once: the server's list", () => {
    expect(LOCKED_FUND_OBLIGATIONS.map((o) => o.name).sort()).toEqual([
      'contract_orders',
      'ieo_applications',
      'withdrawals',
    ]);
    expect(t.app.services.obligations).toBe(LOCKED_FUND_OBLIGATIONS);
    // One source listed twice would count its locks twice: the list refuses it.
    const [first] = LOCKED_FUND_OBLIGATIONS as [Obligation];
    expect(() => distinctObligations(first, { ...first })).toThrow(
      `two obligations are named ${first.name}`,
    );
  });

  it("checks a range of ids at a time and finds what breaks at the ranges' edges", async () => {
    const userId = await newUser();
    await post({
      kind: 'test',
      postings: [
        { account: externalAccount('chain', 'USDT'), amount: -7n, type: 'deposit' },
        { account: userAccount(userId, 'spot', 'USDT'), amount: 7n, type: 'deposit' },
      ],
    });
    let last: { id: string; name: string } | undefined;
    let bare: { id: string } | undefined;
    let whole: Violation[] = [];
    let ranged: Violation[] = [];
    const pauses: number[] = [];
    const rolledBack = new Error('rolled back');
    const outcome = await t.database.db
      .transaction(async (tx) => {
        // Break the ledger the way only a bug below the database's rules could (with its
        // triggers off): an entry without postings, and the newest account's cached balance.
        await tx.execute(sql`set local session_replication_role = replica`);
        [last] = await queryRows<{ id: string; name: string }>(
          tx,
          sql`select id::text, name from ledger_accounts order by id desc limit 1`,
        );
        await tx.execute(
          sql`update ledger_accounts set available = available + 5 where id = ${last?.id}`,
        );
        [bare] = await queryRows<{ id: string }>(
          tx,
          sql`insert into ledger_entries (kind, reference, created_at) values ('test', 'bare entry', now()) returning id::text`,
        );
        whole = await checkLedger(tx, t.app.services.obligations);
        ranged = await checkLedger(tx, t.app.services.obligations, {
          chunk: 1,
          pause: async (ms) => void pauses.push(ms),
        });
        throw rolledBack;
      })
      .catch((caught: unknown) => caught);
    expect(outcome).toBe(rolledBack);
    expect(ranged).toEqual(whole);
    expect(whole.map((v) => v.rule)).toEqual([
      'every entry has at least two postings',
      'all balances of an asset sum to zero',
      'cached balances equal their postings',
    ]);
    expect(whole[0]?.detail).toContain(bare?.id);
    expect(whole[2]?.detail).toContain(last?.name);
    // One pause after every statement: two per entry, one per account, and the rest.
    const [counts] = await queryRows<{ entries: number; accounts: number }>(
      t.database.db,
      sql`select (select count(*) from ledger_entries)::int as entries, (select count(*) from ledger_accounts)::int as accounts`,
    );
    expect(pauses.length).toBeGreaterThanOrEqual(
      2 * (counts?.entries ?? 0) + (counts?.accounts ?? 0),
    );
    expect(pauses.every((ms) => ms >= 0)).toBe(true);
    // Nothing of it stayed.
    expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
  });
});
