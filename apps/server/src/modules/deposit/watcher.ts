import type { DepositRejectReason } from '@tradewind/contract/deposit';
import { formatAmount } from '@tradewind/contract/money';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import type { Hub } from '#platform/ws.ts';
import {
  DuplicateEntryError,
  type Ledger,
  externalAccount,
  userAccount,
} from '../ledger/service.ts';
import { type CreatedMessage, createMessages, publishMessages } from '../messages/service.ts';
import { type ChainAdapter, type ChainTransfer, confirmationsAt } from './chain.ts';
import { type AssetDepositSettings, usdtDepositSettings } from './service.ts';
import { depositAddresses, deposits, depositWatchState } from './tables.ts';

/** Pending deposits looked at per run; the rest wait for the next run. */
const MAX_PENDING_PER_RUN = 500;
const INSERT_CHUNK = 200;

export interface WatcherDeps {
  db: Db;
  clock: Clock;
  config: Config;
  ledger: Ledger;
  chain: ChainAdapter;
  hub?: Hub;
  log?: { warn: (obj: object, msg: string) => void };
}

export interface WatchResult {
  head: number;
  /** New rows: pending, or rejected at once. */
  recorded: number;
  rejected: number;
  credited: number;
}

/**
 * One pass of the deposit watcher: records every new incoming transfer (pending, or
 * rejected when it is below the minimum or to an address no user owns), then credits each
 * pending one whose block has enough confirmations, exactly once.
 *
 * Any number of passes may run at once, in any number of processes: a transfer is one row
 * (txid + log index unique), a row is claimed with FOR UPDATE SKIP LOCKED and credited only
 * while still pending, and its ledger entry's reference `deposit:<txid>:<index>` is unique.
 */
export async function runDepositWatcher(deps: WatcherDeps): Promise<WatchResult> {
  const { db, chain } = deps;
  const result: WatchResult = { head: 0, recorded: 0, rejected: 0, credited: 0 };
  const owners = new Map(
    (
      await db
        .select({ address: depositAddresses.address, userId: depositAddresses.userId })
        .from(depositAddresses)
    ).map((r) => [r.address, r.userId]),
  );
  const settings = await usdtDepositSettings(db);

  if (owners.size > 0) {
    const [state] = await db
      .select({ cursor: depositWatchState.cursor })
      .from(depositWatchState)
      .where(eq(depositWatchState.chain, chain.name));
    const page = await chain.listIncoming([...owners.keys()], state?.cursor ?? null);
    result.head = await chain.currentBlock();
    const counts = await recordTransfers(deps, page.transfers, owners, settings);
    result.recorded = counts.recorded;
    result.rejected = counts.rejected;
    await saveState(db, chain.name, page.cursor, result.head, deps.clock.now());
  } else {
    result.head = await chain.currentBlock();
    await saveState(db, chain.name, null, result.head, deps.clock.now());
  }

  result.credited = await creditConfirmed(deps, result.head, settings.confirmations);
  return result;
}

async function recordTransfers(
  deps: WatcherDeps,
  transfers: ChainTransfer[],
  owners: Map<string, number>,
  settings: AssetDepositSettings,
) {
  const required = settings.confirmations;
  const now = deps.clock.now();
  const unique = new Map<string, ChainTransfer>();
  for (const transfer of transfers) unique.set(`${transfer.txid}:${transfer.logIndex}`, transfer);
  // Inserted in chain order (block, then key): ids follow the chain, and concurrent watchers
  // take the unique-index locks in the same order.
  const sorted = [...unique.entries()]
    .sort(
      ([keyA, a], [keyB, b]) =>
        a.blockNumber - b.blockNumber || (keyA < keyB ? -1 : keyA > keyB ? 1 : 0),
    )
    .map(([, transfer]) => transfer);
  let recorded = 0;
  let rejected = 0;
  for (let i = 0; i < sorted.length; i += INSERT_CHUNK) {
    const rows = sorted.slice(i, i + INSERT_CHUNK).map((transfer) => {
      const userId = owners.get(transfer.toAddress) ?? null;
      const reason: DepositRejectReason | null =
        userId === null
          ? 'unknown_address'
          : transfer.amountMinor < settings.minDepositMinor
            ? 'below_minimum'
            : null;
      return {
        userId,
        asset: 'USDT',
        network: 'TRC20',
        txid: transfer.txid,
        logIndex: transfer.logIndex,
        toAddress: transfer.toAddress,
        fromAddress: transfer.fromAddress,
        amountMinor: transfer.amountMinor,
        blockNumber: transfer.blockNumber,
        status: reason ? 'rejected' : 'pending_payment',
        reason,
        requiredConfirmations: required,
        createdAt: now,
      };
    });
    const inserted = await deps.db
      .insert(deposits)
      .values(rows)
      .onConflictDoNothing({ target: [deposits.txid, deposits.logIndex] })
      .returning({ status: deposits.status });
    recorded += inserted.length;
    rejected += inserted.filter((r) => r.status === 'rejected').length;
  }
  return { recorded, rejected };
}

async function saveState(
  db: Db,
  chain: string,
  cursor: string | null,
  head: number,
  now: Date,
): Promise<void> {
  await db
    .insert(depositWatchState)
    .values({ chain, cursor, headBlock: head, updatedAt: now })
    .onConflictDoUpdate({
      target: depositWatchState.chain,
      // The head never goes back (API nodes behind a balancer may lag one another).
      set: {
        cursor: cursor === null ? sql`${depositWatchState.cursor}` : cursor,
        headBlock: sql`greatest(${depositWatchState.headBlock}, ${head})`,
        updatedAt: now,
      },
    });
}

async function creditConfirmed(deps: WatcherDeps, head: number, required: number): Promise<number> {
  const { db, chain } = deps;
  const due = await db
    .select()
    .from(deposits)
    .where(
      and(
        eq(deposits.status, 'pending_payment'),
        sql`${deposits.blockNumber} <= ${head - required + 1}`,
      ),
    )
    .orderBy(asc(deposits.id))
    .limit(MAX_PENDING_PER_RUN);
  let credited = 0;
  for (const row of due) {
    const transfer: ChainTransfer = {
      txid: row.txid,
      logIndex: row.logIndex,
      toAddress: row.toAddress,
      fromAddress: row.fromAddress,
      amountMinor: row.amountMinor,
      blockNumber: row.blockNumber,
    };
    // Asked outside any transaction: a network call must not hold a row lock.
    const block = await chain.blockOf(transfer);
    if (block === null) {
      deps.log?.warn(
        { txid: row.txid, logIndex: row.logIndex },
        'deposit transfer no longer on chain; left pending',
      );
      continue;
    }
    if (block !== row.blockNumber) {
      // Moved to another block (a fork resolved): count its confirmations again from there.
      await db
        .update(deposits)
        .set({ blockNumber: block })
        .where(and(eq(deposits.id, row.id), eq(deposits.status, 'pending_payment')));
      if (confirmationsAt(head, block) < required) continue;
    }
    const paid = await creditOne(deps, row.id, head, required).catch((error: unknown) => {
      // The ledger already holds this transfer's credit: never a second one. A bug to look at, not to retry blindly.
      if (!(error instanceof DuplicateEntryError)) throw error;
      deps.log?.warn(
        { txid: row.txid, logIndex: row.logIndex },
        'deposit already credited in the ledger but still pending; not credited again',
      );
      return null;
    });
    if (paid && row.userId !== null) {
      credited += 1;
      deps.hub?.publishToUser(row.userId, {
        type: 'deposit.paid',
        id: String(row.id),
        asset: 'USDT',
        amount: formatAmount(row.amountMinor, 6),
      });
      publishMessages(deps.hub, paid);
    }
  }
  return credited;
}

/**
 * Credits one pending deposit in one transaction, if it is still pending (and not claimed by
 * another watcher) and confirmed, with the owner's "deposit credited" message. Returns the
 * message to push after the commit, or null when nothing was credited.
 */
async function creditOne(
  deps: WatcherDeps,
  id: number,
  head: number,
  required: number,
): Promise<CreatedMessage[] | null> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(deposits)
      .where(and(eq(deposits.id, id), eq(deposits.status, 'pending_payment')))
      .for('update', { skipLocked: true });
    if (!row || row.userId === null || confirmationsAt(head, row.blockNumber) < required)
      return null;
    const entryId = await deps.ledger.post(tx, now, {
      kind: 'deposit',
      reference: `deposit:${row.txid}:${row.logIndex}`,
      userId: row.userId,
      postings: [
        { account: externalAccount('chain', 'USDT'), amount: -row.amountMinor, type: 'deposit' },
        {
          account: userAccount(row.userId, 'spot', 'USDT'),
          amount: row.amountMinor,
          type: 'deposit',
        },
      ],
    });
    await tx
      .update(deposits)
      .set({
        status: 'paid',
        entryId,
        confirmations: confirmationsAt(head, row.blockNumber),
        requiredConfirmations: required,
        creditedAt: now,
      })
      .where(eq(deposits.id, row.id));
    return createMessages(tx, now, [
      {
        userId: row.userId,
        kind: 'deposit.credited',
        ref: `deposit:${row.id}`,
        params: { amount: formatAmount(row.amountMinor, 6), asset: 'USDT' },
        link: '/RechargeHistory',
      },
    ]);
  });
}

/**
 * Runs the watcher every `intervalMs` until stopped (ROLE all or worker). Runs never
 * overlap within a process; a failed run is logged and the next one tries again.
 */
export function startDepositWorker(
  deps: WatcherDeps & {
    log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
    /** Hears how each round ended (metrics). */
    onRound?: (ok: boolean) => void;
  },
  intervalMs: number,
) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = runDepositWatcher(deps)
      .then(
        () => deps.onRound?.(true),
        (error: unknown) => {
          deps.onRound?.(false);
          deps.log.error({ err: error }, 'deposit watcher run failed');
        },
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
