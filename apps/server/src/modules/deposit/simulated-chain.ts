import crypto from 'node:crypto';
import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import type { Executor } from '#platform/db.ts';
import type { ChainAdapter, ChainTransfer, IncomingPage } from './chain.ts';
import { simulatedChain, simulatedTransfers } from './tables.ts';

/** TRON makes a block every 3 s; the simulated chain does the same, counted from TRON's mainnet launch. */
export const SIM_BLOCK_MS = 3000;
export const SIM_GENESIS_MS = Date.UTC(2018, 5, 25);
/** Each read goes this many blocks back, so a transfer whose row committed late is still seen. */
const RESCAN_BLOCKS = 200;
const ADDRESS_CHUNK = 1000;
const MAX_TRANSFERS_PER_READ = 5000;

/**
 * A chain that exists only in this database: transfers are rows someone "sent" (demo
 * endpoint, `npm run chain`), and the height follows the clock, plus any blocks mined ahead.
 */
export class SimulatedChain implements ChainAdapter {
  readonly name = 'simulated' as const;

  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
  ) {}

  async currentBlock(): Promise<number> {
    const [row] = await this.db
      .select({ extra: simulatedChain.extraBlocks })
      .from(simulatedChain)
      .where(eq(simulatedChain.id, 1));
    return (
      Math.floor((this.clock.now().getTime() - SIM_GENESIS_MS) / SIM_BLOCK_MS) + (row?.extra ?? 0)
    );
  }

  async listIncoming(
    addresses: readonly string[],
    sinceCursor: string | null,
  ): Promise<IncomingPage> {
    const head = await this.currentBlock();
    const from = sinceCursor === null ? 0 : Number(sinceCursor);
    const transfers: ChainTransfer[] = [];
    for (
      let i = 0;
      i < addresses.length && transfers.length < MAX_TRANSFERS_PER_READ;
      i += ADDRESS_CHUNK
    ) {
      const rows = await this.db
        .select()
        .from(simulatedTransfers)
        .where(
          and(
            inArray(simulatedTransfers.toAddress, addresses.slice(i, i + ADDRESS_CHUNK)),
            gte(simulatedTransfers.blockNumber, from),
          ),
        )
        .orderBy(asc(simulatedTransfers.id))
        .limit(MAX_TRANSFERS_PER_READ);
      for (const row of rows) {
        transfers.push({
          txid: row.txid,
          logIndex: row.logIndex,
          toAddress: row.toAddress,
          fromAddress: row.fromAddress,
          amountMinor: row.amountMinor,
          blockNumber: row.blockNumber,
        });
      }
    }
    // A full read moves the cursor to a window behind the head; a truncated one stays put.
    const complete = transfers.length < MAX_TRANSFERS_PER_READ;
    return { transfers, cursor: String(complete ? Math.max(from, head - RESCAN_BLOCKS) : from) };
  }

  async blockOf(transfer: ChainTransfer): Promise<number | null> {
    const [row] = await this.db
      .select({ blockNumber: simulatedTransfers.blockNumber })
      .from(simulatedTransfers)
      .where(
        and(
          eq(simulatedTransfers.txid, transfer.txid),
          eq(simulatedTransfers.logIndex, transfer.logIndex),
          eq(simulatedTransfers.toAddress, transfer.toAddress),
          eq(simulatedTransfers.amountMinor, transfer.amountMinor),
        ),
      );
    return row?.blockNumber ?? null;
  }

  /** Sends USDT to an address; it lands in the next block. */
  async send(
    toAddress: string,
    amountMinor: bigint,
    fromAddress: string | null = null,
  ): Promise<ChainTransfer> {
    const blockNumber = (await this.currentBlock()) + 1;
    const transfer: ChainTransfer = {
      txid: crypto.randomBytes(32).toString('hex'),
      logIndex: 0,
      toAddress,
      fromAddress,
      amountMinor,
      blockNumber,
    };
    await this.db.insert(simulatedTransfers).values({ ...transfer, createdAt: this.clock.now() });
    return transfer;
  }

  /** Moves the head forward by `blocks` at once (demo: confirm without waiting a minute). */
  async mine(blocks: number): Promise<number> {
    await this.db
      .insert(simulatedChain)
      .values({ id: 1, extraBlocks: blocks })
      .onConflictDoUpdate({
        target: simulatedChain.id,
        set: { extraBlocks: sql`${simulatedChain.extraBlocks} + ${blocks}` },
      });
    return this.currentBlock();
  }
}
