import { z } from 'zod';
import type { ChainAdapter, ChainTransfer, IncomingPage } from './chain.ts';
import { isTronAddress, tronAddressFromHex, tronAddressToHex } from './tron.ts';

/** Tether's USDT on TRON mainnet: the only token credited. Fake "USDT" tokens have other contracts. */
export const USDT_TRC20_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
export const USDT_TRC20_DECIMALS = 6;
/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const PAGE_SIZE = 200;
const MAX_PAGES_PER_ADDRESS = 10;
const TX_INFO_CACHE_SIZE = 10_000;

/*
 * Replies of the TronGrid v1 API and of the FullNode HTTP API, read as loosely as they are
 * documented: only the fields used are checked, and every amount is a string or hex, never
 * a float.
 */
const trc20PageSchema = z.looseObject({
  success: z.boolean().optional(),
  data: z.array(
    z.looseObject({
      transaction_id: z.string().regex(/^[0-9a-f]{64}$/),
      token_info: z.looseObject({ address: z.string(), decimals: z.number().int().optional() }),
      block_timestamp: z.number().int(),
      from: z.string().optional(),
      to: z.string(),
      type: z.string().optional(),
      value: z.string().regex(/^\d{1,78}$/),
    }),
  ),
  meta: z.looseObject({ fingerprint: z.string().optional() }).optional(),
});

const nowBlockSchema = z.looseObject({
  block_header: z.looseObject({
    raw_data: z.looseObject({
      number: z.number().int().nonnegative(),
      timestamp: z.number().int().nonnegative(),
    }),
  }),
});

const txInfoSchema = z.looseObject({
  id: z.string().optional(),
  blockNumber: z.number().int().nonnegative().optional(),
  receipt: z.looseObject({ result: z.string().optional() }).optional(),
  log: z
    .array(
      z.looseObject({
        address: z.string(),
        topics: z.array(z.string()).optional(),
        data: z.string().optional(),
      }),
    )
    .optional(),
});
type TxInfo = z.infer<typeof txInfoSchema>;

export interface TronApiOptions {
  /** e.g. https://api.trongrid.io (TRON_API_URL). */
  baseUrl: string;
  /** Sent as TRON-PRO-API-KEY (TRON_API_KEY). */
  apiKey?: string | undefined;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Each read goes this far back in chain time, so late-indexed transfers are still seen. */
  rescanMs?: number;
}

export class TronApiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TronApiError';
  }
}

/**
 * USDT-TRC20 deposits through a TronGrid-style API. The per-account TRC-20 list finds
 * candidate transactions; each one's receipt (`/wallet/gettransactioninfobyid`) is then the
 * authority: it must have succeeded, and its Transfer logs from the USDT contract give the
 * log index, the recipient, the integer amount and the block (the list has no block number).
 */
export class TronApiChain implements ChainAdapter {
  readonly name = 'tron' as const;
  private readonly doFetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly rescanMs: number;
  private readonly txInfoCache = new Map<string, TxInfo>();

  constructor(private readonly options: TronApiOptions) {
    this.doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.rescanMs = options.rescanMs ?? 10 * 60_000;
  }

  async currentBlock(): Promise<number> {
    return (await this.nowBlock()).number;
  }

  async listIncoming(
    addresses: readonly string[],
    sinceCursor: string | null,
  ): Promise<IncomingPage> {
    const now = await this.nowBlock();
    const since = sinceCursor === null ? null : Number(sinceCursor);
    const wanted = new Set(addresses);
    const txids = new Set<string>();
    for (const address of addresses) {
      for (const txid of await this.candidateTxids(address, since)) txids.add(txid);
    }
    const transfers: ChainTransfer[] = [];
    for (const txid of txids) {
      const info = await this.transactionInfo(txid, true);
      for (const transfer of usdtTransfersOf(txid, info)) {
        if (wanted.has(transfer.toAddress)) transfers.push(transfer);
      }
    }
    return { transfers, cursor: String(Math.max(since ?? 0, now.timestamp - this.rescanMs)) };
  }

  async blockOf(transfer: ChainTransfer): Promise<number | null> {
    const info = await this.transactionInfo(transfer.txid, false);
    const same = usdtTransfersOf(transfer.txid, info).find(
      (t) =>
        t.logIndex === transfer.logIndex &&
        t.toAddress === transfer.toAddress &&
        t.amountMinor === transfer.amountMinor,
    );
    return same ? same.blockNumber : null;
  }

  private async nowBlock(): Promise<{ number: number; timestamp: number }> {
    const reply = nowBlockSchema.safeParse(await this.request('POST', '/wallet/getnowblock', {}));
    if (!reply.success) throw new TronApiError('unexpected reply from /wallet/getnowblock');
    return reply.data.block_header.raw_data;
  }

  /** Transactions that the list says paid USDT to `address` (only_to), page by page. */
  private async candidateTxids(address: string, since: number | null): Promise<string[]> {
    const txids: string[] = [];
    let fingerprint: string | undefined;
    for (let page = 0; page < MAX_PAGES_PER_ADDRESS; page++) {
      const query = new URLSearchParams({
        only_to: 'true',
        contract_address: USDT_TRC20_CONTRACT,
        limit: String(PAGE_SIZE),
        order_by: 'block_timestamp,asc',
      });
      if (since !== null) query.set('min_timestamp', String(since));
      if (fingerprint) query.set('fingerprint', fingerprint);
      const reply = trc20PageSchema.safeParse(
        await this.request(
          'GET',
          `/v1/accounts/${encodeURIComponent(address)}/transactions/trc20?${query}`,
        ),
      );
      if (!reply.success || reply.data.success === false)
        throw new TronApiError(`unexpected TRC-20 list for ${address}`);
      for (const item of reply.data.data) {
        // The list is a hint; a token other than USDT, or a transfer to someone else, is not ours to look at.
        if (item.token_info.address !== USDT_TRC20_CONTRACT || item.to !== address) continue;
        if (
          item.token_info.decimals !== undefined &&
          item.token_info.decimals !== USDT_TRC20_DECIMALS
        ) {
          throw new TronApiError(`USDT listed with ${item.token_info.decimals} decimals`);
        }
        txids.push(item.transaction_id);
      }
      fingerprint = reply.data.meta?.fingerprint;
      // TronGrid gives a fingerprint only when another page follows.
      if (!fingerprint || reply.data.data.length === 0) break;
    }
    return txids;
  }

  /** A transaction's receipt, remembered once it is in a block (`cached: false` asks the node again). */
  private async transactionInfo(txid: string, cached: boolean): Promise<TxInfo> {
    const hit = cached ? this.txInfoCache.get(txid) : undefined;
    if (hit) return hit;
    const reply = txInfoSchema.safeParse(
      await this.request('POST', '/wallet/gettransactioninfobyid', { value: txid }),
    );
    if (!reply.success) throw new TronApiError(`unexpected transaction info for ${txid}`);
    if (reply.data.blockNumber !== undefined) {
      if (this.txInfoCache.size >= TX_INFO_CACHE_SIZE)
        this.txInfoCache.delete(this.txInfoCache.keys().next().value as string);
      this.txInfoCache.set(txid, reply.data);
    }
    return reply.data;
  }

  private async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.apiKey) headers['TRON-PRO-API-KEY'] = this.options.apiKey;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.doFetch(`${this.options.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!response.ok)
      throw new TronApiError(
        `TRON API answered ${response.status} to ${method} ${path.split('?')[0]}`,
      );
    try {
      return await response.json();
    } catch {
      throw new TronApiError(`TRON API sent no JSON for ${method} ${path.split('?')[0]}`);
    }
  }
}

const USDT_CONTRACT_HEX = tronAddressToHex(USDT_TRC20_CONTRACT).slice(2);

/** The USDT Transfer events of a successful transaction in a block; none otherwise. */
export function usdtTransfersOf(txid: string, info: TxInfo): ChainTransfer[] {
  if (info.blockNumber === undefined || info.receipt?.result !== 'SUCCESS') return [];
  const transfers: ChainTransfer[] = [];
  (info.log ?? []).forEach((log, logIndex) => {
    const [topic, from, to] = log.topics ?? [];
    const contract = log.address.toLowerCase();
    if (
      (contract.length === 42 ? contract.slice(2) : contract) !== USDT_CONTRACT_HEX ||
      topic !== TRANSFER_TOPIC
    )
      return;
    if (
      !from ||
      !to ||
      !/^[0-9a-f]{64}$/.test(from) ||
      !/^[0-9a-f]{64}$/.test(to) ||
      !/^[0-9a-f]{1,64}$/.test(log.data ?? '')
    )
      return;
    const toAddress = tronAddressFromHex(to.slice(24));
    if (!isTronAddress(toAddress)) return;
    transfers.push({
      txid,
      logIndex,
      toAddress,
      fromAddress: tronAddressFromHex(from.slice(24)),
      // uint256 in hex: an integer of minor units (6 decimals), never through a float.
      amountMinor: BigInt(`0x${log.data}`),
      blockNumber: info.blockNumber as number,
    });
  });
  return transfers;
}
