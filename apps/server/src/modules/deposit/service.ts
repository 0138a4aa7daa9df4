import {
  DEPOSIT_ASSET,
  DEPOSIT_NETWORK,
  type DepositAddress,
  type DepositHistory,
  type DepositHistoryQuery,
  type DepositRejectReason,
} from '@tradewind/contract/deposit';
import { formatAmount } from '@tradewind/contract/money';
import { ASSETS } from '@tradewind/contract/wallet';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import { type Db, type Executor, queryRows } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { type ChainAdapter, confirmationsAt } from './chain.ts';
import { SimulatedChain } from './simulated-chain.ts';
import { depositAddresses, deposits, depositWatchState } from './tables.ts';
import { TronApiChain } from './tron-api.ts';
import {
  DEMO_TRON_XPUB,
  MAX_DERIVATION_INDEX,
  deriveTronAddress,
  xpubFingerprint,
} from './tron.ts';

const USDT_SCALE = ASSETS.USDT.scale;

/**
 * The key user addresses come from: the configured TRON_XPUB; in demo mode on the simulated
 * chain, the public demo key; otherwise none, and crypto deposits are unavailable. The demo
 * key is never paired with a real chain: anyone can spend what is sent to its addresses.
 */
export function depositXpub(config: Config): string | undefined {
  if (config.deposit.tronXpub) return config.deposit.tronXpub;
  return config.demoMode && config.deposit.chain === 'simulated' ? DEMO_TRON_XPUB : undefined;
}

/** The configured chain adapter: simulated (demo mode only, enforced by the config) or the TRON HTTP API. */
export function createChainAdapter(config: Config, db: Db, clock: Clock): ChainAdapter {
  if (config.deposit.chain === 'simulated') return new SimulatedChain(db, clock);
  return new TronApiChain({
    baseUrl: config.deposit.tronApiUrl,
    apiKey: config.deposit.tronApiKey,
  });
}

export interface AssetDepositSettings {
  confirmations: number;
  depositEnabled: boolean;
  /** A transfer below this is rejected, never credited. */
  minDepositMinor: bigint;
}

/**
 * USDT's deposit settings, kept by the ledger's `assets` table (operators change them there).
 * Read with SQL: only the ledger module imports ledger tables.
 */
export async function usdtDepositSettings(db: Executor): Promise<AssetDepositSettings> {
  const [row] = await queryRows<{
    confirmations: number;
    deposit_enabled: boolean;
    deposit_min_minor: string | null;
  }>(
    db,
    sql`select confirmations, deposit_enabled, deposit_min_minor::text from assets where code = ${DEPOSIT_ASSET}`,
  );
  if (!row) throw new Error('asset USDT is missing');
  if (row.deposit_min_minor === null)
    throw new Error('asset USDT has no deposit minimum (ensureAssets seeds it)');
  return {
    confirmations: Number(row.confirmations),
    depositEnabled: row.deposit_enabled,
    minDepositMinor: BigInt(row.deposit_min_minor),
  };
}

/** Serialises index allocation so indexes stay gapless (wallets scan addresses in order). */
const INDEX_LOCK = 7_441_101;

/**
 * The user's deposit address, allocated on first use: the next unused index, derived from
 * the account xpub, stored once (unique user, address and index). Raises DEPOSIT_UNAVAILABLE
 * when no key is configured or USDT deposits are switched off.
 */
export async function getOrCreateAddress(
  db: Db,
  now: Date,
  config: Config,
  userId: number,
  settings?: AssetDepositSettings,
): Promise<string> {
  const xpub = depositXpub(config);
  settings ??= await usdtDepositSettings(db);
  if (!xpub || !settings.depositEnabled) throw new AppError('DEPOSIT_UNAVAILABLE');
  const existing = await findAddress(db, userId);
  if (existing) return existing;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${INDEX_LOCK})`);
    const again = await findAddress(tx, userId);
    if (again) return again;
    const [{ next } = { next: 0 }] = await queryRows<{ next: number }>(
      tx,
      sql`select coalesce(max(derivation_index) + 1, 0)::int as next from deposit_addresses`,
    );
    if (next > MAX_DERIVATION_INDEX) throw new Error('deposit address indexes exhausted');
    const address = deriveTronAddress(xpub, next);
    await tx.insert(depositAddresses).values({
      userId,
      network: DEPOSIT_NETWORK,
      address,
      derivationIndex: next,
      keyFingerprint: xpubFingerprint(xpub),
      createdAt: now,
    });
    return address;
  });
}

async function findAddress(db: Executor, userId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ address: depositAddresses.address })
    .from(depositAddresses)
    .where(eq(depositAddresses.userId, userId));
  return row?.address;
}

export async function depositAddressInfo(
  db: Db,
  now: Date,
  config: Config,
  userId: number,
): Promise<DepositAddress> {
  const settings = await usdtDepositSettings(db);
  const address = await getOrCreateAddress(db, now, config, userId, settings);
  return {
    asset: DEPOSIT_ASSET,
    network: DEPOSIT_NETWORK,
    address,
    minDeposit: formatAmount(settings.minDepositMinor, USDT_SCALE),
    confirmations: settings.confirmations,
    simulated: config.deposit.chain === 'simulated',
  };
}

/** The last chain head the watcher saw (0 before its first run). */
export async function lastHead(db: Executor, chain: string): Promise<number> {
  const [row] = await db
    .select({ head: depositWatchState.headBlock })
    .from(depositWatchState)
    .where(eq(depositWatchState.chain, chain));
  return row?.head ?? 0;
}

/** The user's own deposits, newest first, a page at a time (`cursor` = last id of the previous page). */
export async function listDeposits(
  db: Db,
  config: Config,
  userId: number,
  query: DepositHistoryQuery,
): Promise<DepositHistory> {
  const rows = await db
    .select()
    .from(deposits)
    .where(
      and(
        eq(deposits.userId, userId),
        query.cursor ? lt(deposits.id, Number(query.cursor)) : undefined,
      ),
    )
    .orderBy(desc(deposits.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const head = await lastHead(db, config.deposit.chain);
  const { confirmations: required } = await usdtDepositSettings(db);
  return {
    items: page.map((row) => {
      const pendingRequired =
        row.status === 'pending_payment' ? required : row.requiredConfirmations;
      return {
        id: String(row.id),
        asset: DEPOSIT_ASSET,
        network: DEPOSIT_NETWORK,
        amount: formatAmount(row.amountMinor, USDT_SCALE),
        status: row.status as 'pending_payment' | 'paid' | 'rejected',
        reason: (row.reason as DepositRejectReason | null) ?? null,
        txid: row.txid,
        confirmations: Math.min(
          pendingRequired,
          row.status === 'paid' ? row.confirmations : confirmationsAt(head, row.blockNumber),
        ),
        requiredConfirmations: pendingRequired,
        createdAt: row.createdAt.toISOString(),
        creditedAt: row.creditedAt?.toISOString() ?? null,
      };
    }),
    nextCursor:
      rows.length > query.limit && page.length > 0 ? String(page[page.length - 1]?.id) : null,
  };
}
