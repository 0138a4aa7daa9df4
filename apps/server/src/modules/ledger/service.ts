import { ASSETS, type AssetCode, type EntryType, type Wallet } from '@tradewind/contract/wallet';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Db, type Executor, type NamedStatement, runNamed } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import { codeArray, integerArray } from './array-literals.ts';
import { accounts, assets, entries, postings } from './tables.ts';

/**
 * The only writer of money (ARCHITECTURE §5). Every other module calls `ledger.post` inside
 * the transaction that writes its own business row.
 */

export const HOUSE_ACCOUNTS = [
  'contracts',
  'fees',
  'conversion',
  'mining',
  'ieo',
  'loans',
  'rewards',
  'adjustments',
] as const;
export type HouseAccount = (typeof HOUSE_ACCOUNTS)[number];
export const EXTERNAL_ACCOUNTS = ['chain', 'bank', 'demo'] as const;
export type ExternalAccount = (typeof EXTERNAL_ACCOUNTS)[number];

/**
 * An asset a posting can be in: one of the contract's fixed assets, or a token listed later
 * (an IEO project adds its token to the `assets` table when it is created). The accounts'
 * foreign key to `assets` is what makes an unknown code impossible.
 */
export type LedgerAsset = AssetCode | ListedToken;
export type ListedToken = string & { readonly listedToken: true };
/** A token code that is (or is being made) a row of `assets`; only the IEO module makes these. */
export const listedToken = (code: string): ListedToken => code as ListedToken;
const LEDGER_ASSET_CODE = /^[A-Z][A-Z0-9]{1,9}$/;

export type AccountRef =
  | { kind: 'user'; userId: number; wallet: Wallet; asset: LedgerAsset }
  | { kind: 'house'; name: HouseAccount; asset: LedgerAsset }
  | { kind: 'external'; name: ExternalAccount; asset: LedgerAsset };

export type Bucket = 'available' | 'locked';

export interface PostingSpec {
  account: AccountRef;
  bucket?: Bucket;
  amount: bigint;
  type: EntryType;
}

export interface EntrySpec {
  kind: string;
  /** Unique per cause; a second entry with the same reference is refused (DuplicateEntryError). */
  reference: string;
  userId?: number | null;
  memo?: string | null;
  postings: PostingSpec[];
}

export const MAX_POSTINGS_PER_ENTRY = 16;

export function accountName(ref: AccountRef): string {
  return ref.kind === 'user'
    ? `user:${ref.userId}:${ref.wallet}:${ref.asset}`
    : `${ref.kind}:${ref.name}:${ref.asset}`;
}

export const userAccount = (userId: number, wallet: Wallet, asset: LedgerAsset): AccountRef => ({
  kind: 'user',
  userId,
  wallet,
  asset,
});
export const houseAccount = (name: HouseAccount, asset: LedgerAsset): AccountRef => ({
  kind: 'house',
  name,
  asset,
});
export const externalAccount = (name: ExternalAccount, asset: AssetCode): AccountRef => ({
  kind: 'external',
  name,
  asset,
});

/** The same cause posted twice: the caller already did this work. */
export class DuplicateEntryError extends Error {
  constructor(readonly reference: string) {
    super(`ledger entry ${reference} already exists`);
    this.name = 'DuplicateEntryError';
  }
}

/** A bug, never a user error: a posting set that does not balance. */
export class UnbalancedEntryError extends Error {
  constructor(detail: string) {
    super(`unbalanced ledger entry: ${detail}`);
    this.name = 'UnbalancedEntryError';
  }
}

function assertBalanced(spec: EntrySpec): void {
  if (spec.postings.length < 2 || spec.postings.length > MAX_POSTINGS_PER_ENTRY) {
    throw new UnbalancedEntryError(`${spec.reference} has ${spec.postings.length} postings`);
  }
  const sums = new Map<string, bigint>();
  for (const posting of spec.postings) {
    if (posting.amount === 0n)
      throw new UnbalancedEntryError(`${spec.reference} has a zero posting`);
    if (!(posting.account.asset in ASSETS) && !LEDGER_ASSET_CODE.test(posting.account.asset))
      throw new UnbalancedEntryError(`${spec.reference} unknown asset ${posting.account.asset}`);
    sums.set(posting.account.asset, (sums.get(posting.account.asset) ?? 0n) + posting.amount);
  }
  for (const [asset, sum] of sums) {
    if (sum !== 0n) throw new UnbalancedEntryError(`${spec.reference} sums to ${sum} in ${asset}`);
  }
}

function isNegativeBalance(error: unknown): boolean {
  for (
    let e: unknown = error, depth = 0;
    e && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, constraint } = e as { code?: string; constraint?: string };
    if (code === '23514' && constraint === 'ledger_accounts_user_nonnegative') return true;
  }
  return false;
}

/** The most entries one `postMany` writes: a batch bigger than this is a bug in the caller. */
export const MAX_ENTRIES_PER_BATCH = 2_000;

export interface LockedAccount {
  id: number;
  available: bigint;
  locked: bigint;
}

// One statement writes a batch's entries and their postings (one round trip, ARCHITECTURE §9):
// each posting names its entry by its place in the batch (1-based) and its account by id, with
// each account's user, wallet and asset sent once; the entries written are matched back to
// their places by reference (their ids come back in that order, as one text), and the postings
// go in account-id order (then entry id, then the entry's own order of postings, which lists
// show), so concurrent batches lock accounts in one global order. The statement-level
// triggers on postings (0013, 0019, 0038) run when the whole statement ends, so they see the
// entries it wrote.
const INSERT_ENTRIES_AND_POSTINGS: NamedStatement = {
  name: 'ledger_insert_entries_and_postings',
  text: `with s as (
           select * from unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) with ordinality as s(kind, reference, user_id, memo, n)
         ), e as (
           insert into ledger_entries (kind, reference, user_id, memo, created_at)
           select kind, reference, user_id, memo, $5::timestamptz from s
           returning id, reference
         ), placed as (
           select s.n, e.id from s join e on e.reference = s.reference
         ), a as (
           select * from unnest($6::bigint[], $7::bigint[], $8::text[], $9::text[]) as a(id, user_id, wallet, asset)
         ), p as (
           insert into ledger_postings (entry_id, account_id, user_id, wallet, asset, bucket, type, amount, created_at)
           select placed.id, p.account_id, a.user_id, a.wallet, a.asset, p.bucket, p.type, p.amount, $5::timestamptz
           from unnest($10::int8[], $11::bigint[], $12::text[], $13::text[], $14::numeric[]) with ordinality as p(entry, account_id, bucket, type, amount, k)
           join placed on placed.n = p.entry
           join a on a.id = p.account_id
           order by p.account_id, placed.id, p.k
           returning 1
         )
         select (select string_agg(id::text, ',' order by n) from placed) as ids, (select count(*) from p)::int4 as postings`,
};

/**
 * Above this many entries a batch's statement is planned for its own arrays (`planEachRun`):
 * a generic plan, which PostgreSQL may keep after five runs of a named statement, guesses the
 * arrays' sizes, and a plan fit for an order batch of a few entries is a poor one for a
 * settlement batch of MAX_ENTRIES_PER_BATCH.
 */
const PLAN_EACH_RUN_ABOVE = 64;
const INSERT_ENTRIES_AND_POSTINGS_PLANNED: NamedStatement = {
  ...INSERT_ENTRIES_AND_POSTINGS,
  name: 'ledger_insert_entries_and_postings_planned',
  planEachRun: true,
};

const LOCK_ACCOUNTS: NamedStatement = {
  name: 'ledger_lock_accounts',
  text: `select id::text, name, available::text, locked::text from ledger_accounts where name = any($1::text[]) order by id for no key update`,
};

/** What every batch of entries must be: at most MAX_ENTRIES_PER_BATCH, each balanced, no reference twice. */
function checkBatch(specs: EntrySpec[]): void {
  if (specs.length > MAX_ENTRIES_PER_BATCH)
    throw new Error(`postMany: ${specs.length} entries exceed ${MAX_ENTRIES_PER_BATCH}`);
  const references = new Set<string>();
  for (const spec of specs) {
    assertBalanced(spec);
    if (references.has(spec.reference)) throw new DuplicateEntryError(spec.reference);
    references.add(spec.reference);
  }
}

function duplicateReference(error: unknown): string | undefined {
  for (
    let e: unknown = error, depth = 0;
    e && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const match = /\(reference\)=\((.*)\)/.exec(String((e as { detail?: unknown }).detail ?? ''));
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/**
 * One per database. Accounts are never deleted or re-pointed (the database refuses), so
 * their ids are remembered after the first lookup.
 */
export class Ledger {
  private readonly accountIds = new Map<string, number>();

  /**
   * Posts one balanced entry inside the caller's transaction. Postings go in account-id
   * order, so concurrent entries lock accounts in the same order and cannot deadlock.
   * Raises INSUFFICIENT_BALANCE when a user balance would go negative (the database's
   * check), DuplicateEntryError when the reference was already posted.
   */
  async post(tx: Executor, now: Date, spec: EntrySpec): Promise<number> {
    assertBalanced(spec);
    const ids = await this.resolveAccounts(
      tx,
      spec.postings.map((p) => p.account),
    );
    let entryId: number;
    try {
      const [entry] = await tx
        .insert(entries)
        .values({
          kind: spec.kind,
          reference: spec.reference,
          userId: spec.userId ?? null,
          memo: spec.memo ?? null,
          createdAt: now,
        })
        .returning({ id: entries.id });
      if (!entry) throw new Error('entry insert returned no row');
      entryId = entry.id;
    } catch (error) {
      if (isUniqueViolation(error, 'ledger_entries_reference_key'))
        throw new DuplicateEntryError(spec.reference);
      throw error;
    }
    const rows = spec.postings
      .map((posting) => {
        const ref = posting.account;
        return {
          entryId,
          accountId: ids.get(accountName(ref)) as number,
          userId: ref.kind === 'user' ? ref.userId : null,
          wallet: ref.kind === 'user' ? ref.wallet : null,
          asset: ref.asset,
          bucket: posting.bucket ?? 'available',
          type: posting.type,
          amount: posting.amount,
          createdAt: now,
        };
      })
      .sort((a, b) => a.accountId - b.accountId);
    try {
      await tx.insert(postings).values(rows);
    } catch (error) {
      if (isNegativeBalance(error)) throw new AppError('INSUFFICIENT_BALANCE');
      throw error;
    }
    return entryId;
  }

  /**
   * Posts many balanced entries in one go (group commit: a batch of orders or settlements
   * in one transaction), with the same guarantees as `post`: each entry balances, each
   * reference is unique (DuplicateEntryError), and every posting of the batch goes in
   * account-id order, so concurrent batches lock accounts in one global order and cannot
   * deadlock. The database's balance trigger and non-negative check still apply: a user
   * balance going negative raises INSUFFICIENT_BALANCE and the caller's transaction fails.
   * Entries and postings go in one statement, one round trip. Returns the entry ids in the
   * order of `specs`.
   */
  async postMany(tx: Executor, now: Date, specs: EntrySpec[]): Promise<number[]> {
    if (specs.length === 0) return [];
    checkBatch(specs);
    const ids = await this.resolveAccounts(
      tx,
      specs.flatMap((spec) => spec.postings.map((p) => p.account)),
    );
    return this.postManyResolved(tx, now, specs, ids);
  }

  /**
   * `postMany` with the accounts' ids already at hand (`resolveAccounts`): not async, so its
   * statement is written before it returns. A pipelined transaction's last writes need that
   * (`pipelinedTransaction`): COMMIT is written right behind them. What the database refuses
   * (a negative balance, an unbalanced or repeated entry) fails the statement and so the
   * transaction. The count check after the answer only guards against a bug: the statement
   * cannot drop a row (each posting joins its own entry's place in the batch). If it ever fired after
   * COMMIT, the caller would see a failure for a committed batch, and its requests would replay.
   */
  postManyResolved(
    tx: Executor,
    now: Date,
    specs: EntrySpec[],
    ids: Map<string, number>,
  ): Promise<number[]> {
    if (specs.length === 0) return Promise.resolve([]);
    checkBatch(specs);
    // One array per column, filled in one pass: a settlement batch carries thousands of postings.
    const columns = {
      entry: [] as number[],
      accountId: [] as number[],
      bucket: [] as string[],
      type: [] as string[],
      amount: [] as bigint[],
    };
    const accounts = new Map<number, AccountRef>();
    specs.forEach((spec, i) => {
      for (const posting of spec.postings) {
        const ref = posting.account;
        const accountId = ids.get(accountName(ref));
        if (accountId === undefined)
          throw new Error(`postMany: account ${accountName(ref)} was not resolved`);
        if (!accounts.has(accountId)) accounts.set(accountId, ref);
        columns.entry.push(i + 1);
        columns.accountId.push(accountId);
        columns.bucket.push(posting.bucket ?? 'available');
        columns.type.push(posting.type);
        columns.amount.push(posting.amount);
      }
    });
    const accountRefs = [...accounts.values()];
    const statement =
      specs.length > PLAN_EACH_RUN_ABOVE
        ? INSERT_ENTRIES_AND_POSTINGS_PLANNED
        : INSERT_ENTRIES_AND_POSTINGS;
    const written = runNamed<{ ids: string | null; postings: number }>(tx, statement, [
      specs.map((s) => s.kind),
      specs.map((s) => s.reference),
      specs.map((s) => ((s.userId ?? null) === null ? null : String(s.userId))),
      specs.map((s) => s.memo ?? null),
      now,
      [...accounts.keys()].map(String),
      accountRefs.map((ref) => (ref.kind === 'user' ? String(ref.userId) : null)),
      accountRefs.map((ref) => (ref.kind === 'user' ? ref.wallet : null)),
      accountRefs.map((ref) => ref.asset),
      integerArray(columns.entry),
      integerArray(columns.accountId),
      codeArray(columns.bucket),
      codeArray(columns.type),
      integerArray(columns.amount),
    ]);
    return written.then(
      ([row]) => {
        const entryIds = row?.ids ? row.ids.split(',').map(Number) : [];
        if (entryIds.length !== specs.length || row?.postings !== columns.amount.length)
          throw new Error('postMany: an entry or posting was not inserted');
        return entryIds;
      },
      (error: unknown) => {
        if (isUniqueViolation(error, 'ledger_entries_reference_key'))
          throw new DuplicateEntryError(duplicateReference(error) ?? specs[0]?.reference ?? '');
        if (isNegativeBalance(error)) throw new AppError('INSUFFICIENT_BALANCE');
        throw error;
      },
    );
  }

  /**
   * Locks the named accounts that exist (FOR NO KEY UPDATE, the lock a balance update takes,
   * in account-id order, the order every writer uses) and returns their balances by account name; an account never used is
   * absent, which means zero. A batch reads balances this way before deciding what it can
   * accept, then posts with `postMany` in the same transaction.
   */
  async lockAccounts(tx: Executor, refs: AccountRef[]): Promise<Map<string, LockedAccount>> {
    const names = [...new Set(refs.map(accountName))];
    const rows = await runNamed<{ id: string; name: string; available: string; locked: string }>(
      tx,
      LOCK_ACCOUNTS,
      [names],
    );
    const out = new Map<string, LockedAccount>();
    for (const row of rows) {
      const id = Number(row.id);
      // Seen before any write of this transaction, so committed: safe to remember.
      this.accountIds.set(row.name, id);
      out.set(row.name, { id, available: BigInt(row.available), locked: BigInt(row.locked) });
    }
    return out;
  }

  /**
   * Account ids by name, the accounts made (at zero) where missing, without locking them (what
   * `postManyResolved` needs). Ids of accounts created inside the caller's transaction are not remembered
   * until a later transaction sees them: if this one rolls back, they vanish.
   */
  async resolveAccounts(tx: Executor, refs: AccountRef[]): Promise<Map<string, number>> {
    const byName = new Map(refs.map((ref) => [accountName(ref), ref]));
    const ids = new Map<string, number>();
    const missing: string[] = [];
    for (const name of byName.keys()) {
      const id = this.accountIds.get(name);
      if (id === undefined) missing.push(name);
      else ids.set(name, id);
    }
    if (missing.length === 0) return ids;
    const existing = await tx
      .select({
        id: accounts.id,
        name: accounts.name,
        // Written by this very transaction (not yet committed): its xmin is our transaction id.
        uncommitted: sql<boolean>`coalesce(${sql.raw('xmin')}::text = (pg_current_xact_id_if_assigned()::text::bigint % 4294967296)::text, false)`,
      })
      .from(accounts)
      .where(inArray(accounts.name, missing));
    for (const row of existing) {
      ids.set(row.name, row.id);
      if (!row.uncommitted) this.accountIds.set(row.name, row.id);
    }
    const toCreate = missing.filter((name) => !ids.has(name));
    if (toCreate.length > 0) {
      await tx
        .insert(accounts)
        .values(
          toCreate.map((name) => {
            const ref = byName.get(name) as AccountRef;
            return {
              name,
              kind: ref.kind,
              userId: ref.kind === 'user' ? ref.userId : null,
              wallet: ref.kind === 'user' ? ref.wallet : null,
              asset: ref.asset,
            };
          }),
        )
        .onConflictDoNothing();
      const created = await tx
        .select({ id: accounts.id, name: accounts.name })
        .from(accounts)
        .where(inArray(accounts.name, toCreate));
      for (const row of created) ids.set(row.name, row.id);
    }
    return ids;
  }
}

export interface AccountBalance {
  wallet: Wallet;
  asset: AssetCode;
  available: bigint;
  locked: bigint;
  /** The asset's scale from `assets` (listed tokens are not in the contract's table). */
  scale?: number;
}

/** A user's accounts. A listed token's code comes back typed as an AssetCode; `scale` says how to read it. */
export async function userBalances(db: Executor, userId: number): Promise<AccountBalance[]> {
  const rows = await db
    .select({
      wallet: accounts.wallet,
      asset: accounts.asset,
      available: accounts.available,
      locked: accounts.locked,
      scale: assets.scale,
    })
    .from(accounts)
    .innerJoin(assets, eq(assets.code, accounts.asset))
    .where(and(eq(accounts.kind, 'user'), eq(accounts.userId, userId)));
  return rows.map((row) => ({
    wallet: row.wallet as Wallet,
    asset: row.asset as AssetCode,
    available: row.available,
    locked: row.locked,
    scale: row.scale,
  }));
}

/** A user balance row as read in SQL (`user_id::text, wallet, asset, available::text, locked::text` of `ledger_accounts`). */
export interface UserBalanceRow {
  user_id: string;
  wallet: string;
  asset: string;
  available: string;
  locked: string;
}

/** The balances of several users at once (a batch's replies, read in the batch's own statement), by user id. */
export function balancesByUser(
  userIds: number[],
  rows: UserBalanceRow[],
): Map<number, AccountBalance[]> {
  const out = new Map<number, AccountBalance[]>(userIds.map((id) => [id, []]));
  for (const row of rows) {
    out.get(Number(row.user_id))?.push({
      wallet: row.wallet as Wallet,
      asset: row.asset as AssetCode,
      available: BigInt(row.available),
      locked: BigInt(row.locked),
    });
  }
  return out;
}

/** Default settings per asset; operators change them later (never the scale). */
const ASSET_DEFAULTS: Partial<
  Record<
    AssetCode,
    {
      withdrawMin: bigint;
      withdrawFee: bigint;
      confirmations: number;
      deposit: boolean;
      withdraw: boolean;
    }
  >
> = {
  // spec §5: minimum withdrawal 10 USD, 0.001 BTC, 0.01 ETH.
  USDT: {
    withdrawMin: 10_000_000n,
    withdrawFee: 1_000_000n,
    confirmations: 19,
    deposit: true,
    withdraw: true,
  },
  BTC: {
    withdrawMin: 100_000n,
    withdrawFee: 20_000n,
    confirmations: 2,
    deposit: false,
    withdraw: true,
  },
  ETH: {
    withdrawMin: 1_000_000n,
    withdrawFee: 200_000n,
    confirmations: 12,
    deposit: false,
    withdraw: true,
  },
};

/**
 * Makes sure every asset of the contract exists (idempotent; keeps operator settings).
 * The deposit minimum moved from configuration into the table (issue 7): an asset without
 * one takes `depositMinMinor` (DEPOSIT_MIN_USDT) for USDT and 0 for the others, once.
 */
export async function ensureAssets(
  db: Db,
  seed: { depositMinMinor: bigint } = { depositMinMinor: 1_000_000n },
): Promise<void> {
  const codes = Object.keys(ASSETS) as AssetCode[];
  await db
    .insert(assets)
    .values(
      codes.map((code, index) => {
        const defaults = ASSET_DEFAULTS[code];
        return {
          code,
          name: ASSETS[code].name,
          scale: ASSETS[code].scale,
          withdrawMinMinor: defaults?.withdrawMin ?? 0n,
          withdrawFeeMinor: defaults?.withdrawFee ?? 0n,
          confirmations: defaults?.confirmations ?? 0,
          depositEnabled: defaults?.deposit ?? false,
          withdrawEnabled: defaults?.withdraw ?? false,
          sortOrder: index,
        };
      }),
    )
    .onConflictDoNothing();
  await db
    .update(assets)
    .set({
      depositMinMinor: sql`case when ${assets.code} = 'USDT' then ${seed.depositMinMinor.toString()}::numeric else 0 end`,
    })
    .where(isNull(assets.depositMinMinor));
  // The scale is part of the asset's identity: a mismatch would misread every stored amount.
  const stored = await db.select({ code: assets.code, scale: assets.scale }).from(assets);
  for (const row of stored) {
    const expected = ASSETS[row.code as AssetCode]?.scale;
    if (expected !== undefined && expected !== row.scale) {
      throw new Error(
        `asset ${row.code} is stored with scale ${row.scale} but the contract says ${expected}`,
      );
    }
  }
}

/** A token listed by a launchpad project: whole tokens, no deposits or withdrawals. */
export interface ListedTokenSpec {
  code: string;
  name: string;
  scale: number;
}

/**
 * Adds a listed token to the ledger's assets, in the caller's transaction. Returns false if an
 * asset with that code exists already (the caller refuses the listing): a code names one
 * asset for good, and its scale is part of every amount stored under it.
 */
export async function addListedToken(tx: Executor, token: ListedTokenSpec): Promise<boolean> {
  const inserted = await tx
    .insert(assets)
    .values({
      code: token.code,
      name: token.name,
      scale: token.scale,
      withdrawMinMinor: 0n,
      withdrawFeeMinor: 0n,
      confirmations: 0,
      depositEnabled: false,
      withdrawEnabled: false,
      // After the contract's assets, which take their index.
      sortOrder: 1000,
    })
    .onConflictDoNothing()
    .returning({ code: assets.code });
  return inserted.length > 0;
}

/** Every asset's scale (a handful of rows), listed tokens included. */
export async function assetScales(db: Executor): Promise<Map<string, number>> {
  const rows = await db.select({ code: assets.code, scale: assets.scale }).from(assets);
  return new Map(rows.map((row) => [row.code, row.scale]));
}

export interface AssetSettings {
  code: AssetCode;
  scale: number;
  withdrawMinMinor: bigint;
  withdrawFeeMinor: bigint;
  withdrawEnabled: boolean;
}

/** An asset's withdrawal settings as operators configured them (the `assets` table). */
export async function getAssetSettings(
  db: Executor,
  code: AssetCode,
): Promise<AssetSettings | undefined> {
  const [row] = await db
    .select({
      code: assets.code,
      scale: assets.scale,
      withdrawMinMinor: assets.withdrawMinMinor,
      withdrawFeeMinor: assets.withdrawFeeMinor,
      withdrawEnabled: assets.withdrawEnabled,
    })
    .from(assets)
    .where(eq(assets.code, code))
    .limit(1);
  return row ? { ...row, code: row.code as AssetCode } : undefined;
}
