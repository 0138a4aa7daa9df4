/**
 * Where the deposit watcher reads incoming USDT-TRC20 transfers. Two adapters implement
 * it: the simulated chain (demo mode and tests) and a TRON HTTP API (TronGrid).
 */

export interface ChainTransfer {
  /** Transaction id (64 hex digits). */
  txid: string;
  /** Position of the Transfer event in the transaction's logs: one transaction may pay several times. */
  logIndex: number;
  toAddress: string;
  fromAddress: string | null;
  /** USDT minor units (6 decimals). */
  amountMinor: bigint;
  blockNumber: number;
}

export interface IncomingPage {
  transfers: ChainTransfer[];
  /** Pass back as `sinceCursor` next time. Adapters re-read a safety window behind it. */
  cursor: string;
}

export interface ChainAdapter {
  readonly name: 'simulated' | 'tron';
  /** Number of the newest block. */
  currentBlock(): Promise<number>;
  /**
   * USDT transfers to these addresses since the cursor (all of them when null). The same
   * transfer may come back on later calls: the watcher records each (txid, log index) once.
   */
  listIncoming(addresses: readonly string[], sinceCursor: string | null): Promise<IncomingPage>;
  /**
   * Asked again just before crediting: the block the transfer is in now, or null when the
   * chain no longer has it (a dropped fork). A transfer is credited only where it still is.
   */
  blockOf(transfer: ChainTransfer): Promise<number | null>;
}

/** Confirmations of a transfer in `blockNumber` when the head is `head`: its own block counts as one. */
export function confirmationsAt(head: number, blockNumber: number): number {
  return Math.max(0, head - blockNumber + 1);
}
