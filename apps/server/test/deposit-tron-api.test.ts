import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TronApiChain,
  TronApiError,
  USDT_TRC20_CONTRACT,
  usdtTransfersOf,
} from '../src/modules/deposit/tron-api.ts';
import { createChainAdapter } from '../src/modules/deposit/service.ts';
import { DEMO_TRON_XPUB } from '../src/modules/deposit/tron.ts';
import { runDepositWatcher } from '../src/modules/deposit/watcher.ts';
import { queryRows } from '../src/platform/db.ts';
import { type TestApp, call, createTestApp, registerUser } from './harness.ts';

/**
 * The TronGrid adapter against recorded replies in the real APIs' formats
 * (test/fixtures/trongrid), served by a small local HTTP server.
 */

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/trongrid');
const fixture = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

const OURS = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';
const OTHER_OURS = 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK';
const SENDER = 'TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC';
const TX = {
  paid: '98349a025973114e0b7bd60ef3275d3a4a3da7893f040250246b47ca52eea79f',
  fake: '0624d1ea5d784395ac1f0764baf198376da93072ff9382afe41640c48a28c015',
  multi: 'b479d3781039d3d089c02d619ac1349217b2bd45c66bde3ac948c38ccbb7438e',
  revert: 'a789e33ccaf681c329e0d93207185b94c8eecdb24cee4413a680eddf7b9c9718',
  unconfirmed: '9a20c2962e3154d5cda6a80d3e7c4e82c2a7c9403bdcc619419908e474434e43',
  huge: '691dcb637865c2fbfc44c85389272fa5fce1804a17dc61dbb7e9c5940423ddd7',
};
const PAGE2_FINGERPRINT = '4kVH8Zz1cUL2ZX9QC2u7ZbTgpmD3ZPj5ZcJ7j6mU2M8pVRkqSSkpF3zG';

interface Recorded {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

let server: http.Server;
let baseUrl: string;
const requests: Recorded[] = [];
/** Replies a test can override: path → [status, body]. */
const overrides = new Map<string, [number, unknown]>();
const txInfo = fixture('gettransactioninfobyid.json');

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fixture');
      const body = raw ? (JSON.parse(raw) as unknown) : undefined;
      requests.push({ method: req.method ?? '', url, headers: req.headers, body });
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      };
      const override = overrides.get(url.pathname);
      if (override) return reply(...override);
      if (req.method === 'POST' && url.pathname === '/wallet/getnowblock')
        return reply(200, fixture('getnowblock.json'));
      if (req.method === 'POST' && url.pathname === '/wallet/gettransactioninfobyid') {
        return reply(200, txInfo[(body as { value: string }).value] ?? {});
      }
      const list = /^\/v1\/accounts\/([^/]+)\/transactions\/trc20$/.exec(url.pathname);
      if (req.method === 'GET' && list) {
        if (list[1] !== OURS) return reply(200, fixture('trc20-empty.json'));
        const page = url.searchParams.get('fingerprint') === PAGE2_FINGERPRINT ? 'page2' : 'page1';
        return reply(200, fixture(`trc20-${OURS}-${page}.json`));
      }
      return reply(404, { Error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const adapter = (apiKey?: string) => new TronApiChain({ baseUrl, apiKey, rescanMs: 600_000 });

describe('TRON HTTP API adapter on recorded replies', () => {
  it('reads the head from /wallet/getnowblock', async () => {
    expect(await adapter().currentBlock()).toBe(70_000_244);
  });

  it('lists only successful USDT transfers to our addresses, with integer amounts, log indexes and blocks from the receipts', async () => {
    requests.length = 0;
    const page = await adapter('key-123').listIncoming([OURS, OTHER_OURS], null);
    const found = page.transfers
      .map((t) => ({ ...t, amountMinor: t.amountMinor.toString() }))
      .sort((a, b) => a.blockNumber - b.blockNumber);
    expect(found).toEqual([
      {
        txid: TX.paid,
        logIndex: 0,
        toAddress: OURS,
        fromAddress: SENDER,
        amountMinor: '25500000',
        blockNumber: 70_000_173,
      },
      // One transaction paying two of our addresses: each payment is its own transfer, told apart by log index.
      {
        txid: TX.multi,
        logIndex: 0,
        toAddress: OTHER_OURS,
        fromAddress: SENDER,
        amountMinor: '1000000',
        blockNumber: 70_000_233,
      },
      {
        txid: TX.multi,
        logIndex: 1,
        toAddress: OURS,
        fromAddress: SENDER,
        amountMinor: '3000000',
        blockNumber: 70_000_233,
      },
      // Beyond 2^53: exact, so never through a float.
      {
        txid: TX.huge,
        logIndex: 0,
        toAddress: OURS,
        fromAddress: SENDER,
        amountMinor: '9007199254740993',
        blockNumber: 70_000_241,
      },
    ]);

    const lists = requests.filter((r) => r.url.pathname.endsWith('/transactions/trc20'));
    expect(lists.map((r) => r.url.pathname)).toEqual([
      `/v1/accounts/${OURS}/transactions/trc20`,
      `/v1/accounts/${OURS}/transactions/trc20`,
      `/v1/accounts/${OTHER_OURS}/transactions/trc20`,
    ]);
    expect(lists[0]?.url.searchParams.get('only_to')).toBe('true');
    expect(lists[0]?.url.searchParams.get('contract_address')).toBe(USDT_TRC20_CONTRACT);
    expect(lists[0]?.url.searchParams.get('min_timestamp')).toBeNull();
    expect(lists[1]?.url.searchParams.get('fingerprint')).toBe(PAGE2_FINGERPRINT);
    expect(requests.every((r) => r.headers['tron-pro-api-key'] === 'key-123')).toBe(true);
    // The fake "USDT" token is dropped from the list before its receipt is ever asked for.
    const asked = requests
      .filter((r) => r.url.pathname === '/wallet/gettransactioninfobyid')
      .map((r) => (r.body as { value: string }).value);
    expect(asked.sort()).toEqual([TX.paid, TX.multi, TX.revert, TX.unconfirmed, TX.huge].sort());
    // The cursor is chain time: the head's timestamp minus the rescan window.
    expect(page.cursor).toBe(String(1_790_000_064_000 - 600_000));
  });

  it('asks again from the cursor, and never goes back before it', async () => {
    requests.length = 0;
    const page = await adapter().listIncoming([OURS], '1790000000000');
    expect(
      requests
        .find((r) => r.url.pathname.endsWith('/trc20'))
        ?.url.searchParams.get('min_timestamp'),
    ).toBe('1790000000000');
    expect(page.cursor).toBe('1790000000000');
    // Asked for OURS only: the multi-payment's log to another address is not returned.
    expect(page.transfers.map((t) => t.toAddress)).toEqual([OURS, OURS, OURS]);
    expect(requests.some((r) => 'tron-pro-api-key' in r.headers)).toBe(false);
  });

  it('receipts are the authority: fake tokens, reverted or unmined transactions and other events give nothing', () => {
    const info = (txid: string) => txInfo[txid] as Parameters<typeof usdtTransfersOf>[1];
    expect(usdtTransfersOf(TX.fake, info(TX.fake))).toEqual([]);
    expect(usdtTransfersOf(TX.revert, info(TX.revert))).toEqual([]);
    expect(usdtTransfersOf(TX.unconfirmed, {})).toEqual([]);
    // multi: two USDT Transfer logs (0, 1); log 2 is an Approval event and is not a transfer.
    expect(
      usdtTransfersOf(TX.multi, info(TX.multi)).map((t) => [
        t.logIndex,
        t.toAddress,
        t.amountMinor,
      ]),
    ).toEqual([
      [0, OTHER_OURS, 1_000_000n],
      [1, OURS, 3_000_000n],
    ]);
  });

  it('blockOf asks the node again: the block while the receipt matches, null when the transaction is gone', async () => {
    const chain = adapter();
    const transfer = {
      txid: TX.paid,
      logIndex: 0,
      toAddress: OURS,
      fromAddress: SENDER,
      amountMinor: 25_500_000n,
      blockNumber: 70_000_173,
    };
    expect(await chain.blockOf(transfer)).toBe(70_000_173);
    expect(await chain.blockOf({ ...transfer, amountMinor: 25_500_001n })).toBeNull();
    expect(await chain.blockOf({ ...transfer, logIndex: 1 })).toBeNull();
    expect(await chain.blockOf({ ...transfer, txid: TX.unconfirmed })).toBeNull();
  });

  it('a failing or malformed API is an error (the watcher retries), never an empty success', async () => {
    overrides.set('/wallet/getnowblock', [429, { Error: 'rate limited' }]);
    await expect(adapter().currentBlock()).rejects.toThrow(/answered 429/);
    overrides.set('/wallet/getnowblock', [
      200,
      { block_header: { raw_data: { number: '70000244' } } },
    ]);
    await expect(adapter().currentBlock()).rejects.toBeInstanceOf(TronApiError);
    overrides.set('/wallet/getnowblock', [200, 'not json']);
    await expect(adapter().currentBlock()).rejects.toBeInstanceOf(TronApiError);
    overrides.clear();
    overrides.set(`/v1/accounts/${OURS}/transactions/trc20`, [
      200,
      { data: [{ transaction_id: TX.paid, value: 25.5 }], success: true },
    ]);
    await expect(adapter().listIncoming([OURS], null)).rejects.toBeInstanceOf(TronApiError);
    overrides.clear();
  });
});

describe('the deposit watcher on the TRON adapter', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Production's shape: a configured xpub (here the demo key's, whose index 0 the fixtures pay) on the TRON API.
    t = await createTestApp({
      env: { DEPOSIT_CHAIN: 'tron', TRON_XPUB: DEMO_TRON_XPUB, TRON_API_URL: baseUrl },
    });
  });
  afterAll(() => t.close());

  it('credits the confirmed transfer once and keeps the young ones pending', async () => {
    // In a fresh database the first address is index 0: the fixtures' address.
    const user = await registerUser(t.app);
    const address = await call<{ address: string; simulated: boolean }>(
      t.app,
      'GET',
      '/api/v1/deposit/address',
      { token: user.token },
    );
    expect(address.body.data.address).toBe(OURS);

    expect(address.body.data.simulated).toBe(false);
    const { config, ledger } = t.app.services;
    const deps = {
      db: t.database.db,
      clock: t.clock,
      config,
      ledger,
      chain: createChainAdapter(config, t.database.db, t.clock),
    };
    const first = await runDepositWatcher(deps);
    expect(first).toMatchObject({ head: 70_000_244, recorded: 3, rejected: 0, credited: 1 });
    const again = await runDepositWatcher(deps);
    expect(again).toMatchObject({ recorded: 0, credited: 0 });

    const balances = await call<{ spot: { asset: string; available: string }[] }>(
      t.app,
      'GET',
      '/api/v1/wallet/balances',
      { token: user.token },
    );
    expect(balances.body.data.spot.find((s) => s.asset === 'USDT')?.available).toBe('25.5');
    const history = await call<{
      items: { txid: string; amount: string; status: string; confirmations: number }[];
    }>(t.app, 'GET', '/api/v1/deposit/history', { token: user.token });
    expect(
      history.body.data.items.map((i) => [i.txid, i.amount, i.status, i.confirmations]),
    ).toEqual([
      [TX.huge, '9007199254.740993', 'pending_payment', 4],
      [TX.multi, '3', 'pending_payment', 12],
      // Shown as progress (at most the required 19); the row keeps the 72 it had when credited.
      [TX.paid, '25.5', 'paid', 19],
    ]);
    const [row] = await queryRows<{ confirmations: number; required_confirmations: number }>(
      t.database.db,
      sql`select confirmations, required_confirmations from deposits where txid = ${TX.paid}`,
    );
    expect(row).toEqual({ confirmations: 72, required_confirmations: 19 });
  });
});
