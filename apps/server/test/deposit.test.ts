import crypto from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../src/modules/auth/sessions.ts';
import type { ChainAdapter, ChainTransfer } from '../src/modules/deposit/chain.ts';
import { SIM_BLOCK_MS, SimulatedChain } from '../src/modules/deposit/simulated-chain.ts';
import {
  DEMO_TRON_XPUB,
  decodeTronAddress,
  deriveTronAddress,
  isTronAddress,
  tronAddressFromPublicKey,
  tronAddressToHex,
} from '../src/modules/deposit/tron.ts';
import { type WatcherDeps, runDepositWatcher } from '../src/modules/deposit/watcher.ts';
import { Ledger } from '../src/modules/ledger/service.ts';
import { users } from '../src/modules/user/tables.ts';
import { ConfigError, loadConfig } from '../src/platform/config.ts';
import { queryRows } from '../src/platform/db.ts';
import { type TestApp, call, createTestApp, registerUser } from './harness.ts';

/** BIP39's test mnemonic (all-zero entropy); its seed with an empty passphrase is the published 5eb00bbd…e9e38e4. */
const ABANDON_MNEMONIC = `${'abandon '.repeat(11)}about`;
const abandonSeed = () =>
  crypto.pbkdf2Sync(ABANDON_MNEMONIC.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');

describe('TRON address derivation', () => {
  it('the BIP39 seed of "abandon … about" is the published one', () => {
    expect(abandonSeed().toString('hex')).toBe(
      '5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4',
    );
  });

  it("the demo xpub is the account key m/44'/195'/0' of that mnemonic", () => {
    expect(HDKey.fromMasterSeed(abandonSeed()).derive("m/44'/195'/0'").publicExtendedKey).toBe(
      DEMO_TRON_XPUB,
    );
  });

  it("m/44'/195'/0'/0/0 of \"abandon … about\" is the published TRON address TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", () => {
    expect(deriveTronAddress(DEMO_TRON_XPUB, 0)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
  });

  it('public derivation from the xpub gives the addresses of the private keys at the same paths', () => {
    const root = HDKey.fromMasterSeed(abandonSeed());
    for (const index of [0, 1, 2, 3, 1000, 0x7fffffff]) {
      const privateKey = root.derive(`m/44'/195'/0'/0/${index}`).privateKey as Uint8Array;
      // From the private key: its uncompressed public key straight from the curve.
      expect(deriveTronAddress(DEMO_TRON_XPUB, index)).toBe(
        tronAddressFromPublicKey(secp256k1.getPublicKey(privateKey, false)),
      );
    }
    expect(new Set([0, 1, 2, 3].map((i) => deriveTronAddress(DEMO_TRON_XPUB, i))).size).toBe(4);
    expect(() => deriveTronAddress(DEMO_TRON_XPUB, 0x80000000)).toThrow(/out of range/);
    expect(() => deriveTronAddress(DEMO_TRON_XPUB, -1)).toThrow(/out of range/);
  });

  it('keccak-256 and the 0x41 prefix match an independent vector: private key 1 is Ethereum 0x7E5F…5Bdf', () => {
    const privateKey = new Uint8Array(32);
    privateKey[31] = 1;
    const address = tronAddressFromPublicKey(secp256k1.getPublicKey(privateKey, true));
    expect(tronAddressToHex(address)).toBe('417e5f4552091a69125d5dfcb7b8c2659029395bdf');
  });

  it('addresses are base58check with the 0x41 prefix; a changed character, another prefix or length fails', () => {
    for (const index of [0, 1, 2, 99]) {
      const address = deriveTronAddress(DEMO_TRON_XPUB, index);
      expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      const bytes = decodeTronAddress(address);
      expect(bytes?.length).toBe(21);
      expect(bytes?.[0]).toBe(0x41);
    }
    // Tether's contract, as published in both forms.
    expect(tronAddressToHex('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(
      '41a614f803b6fd780986a42c78ec9c7f77e6ded13c',
    );
    expect(isTronAddress('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdJ')).toBe(false);
    expect(isTronAddress('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYd')).toBe(false);
    // A valid base58check string with Bitcoin's 0x00 prefix is not a TRON address.
    expect(isTronAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toBe(false);
    expect(isTronAddress('not an address')).toBe(false);
  });

  it('the configuration takes only an account-level xpub and never repeats what it was given', () => {
    const root = HDKey.fromMasterSeed(abandonSeed());
    const xprv = root.derive("m/44'/195'/0'").privateExtendedKey;
    const tooDeep = root.derive("m/44'/195'/0'/0").publicExtendedKey;
    for (const value of [xprv, tooDeep, 'xpub-nonsense']) {
      try {
        loadConfig({ TRON_XPUB: value });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as Error).message).toContain(
          'TRON_XPUB: must be the account-level extended public key',
        );
        expect((error as Error).message).not.toContain(value);
      }
    }
    expect(loadConfig({ TRON_XPUB: DEMO_TRON_XPUB }).deposit.tronXpub).toBe(DEMO_TRON_XPUB);
    expect(() => loadConfig({ DEMO_MODE: 'false', DEPOSIT_CHAIN: 'simulated' })).toThrow(
      /simulated chain exists only in demo mode/,
    );
    expect(loadConfig({ DEMO_MODE: 'false' }).deposit.chain).toBe('tron');
    expect(loadConfig({ DEPOSIT_MIN_USDT: '0.5' }).deposit.minDepositMinor).toBe(500_000n);
    expect(() => loadConfig({ DEPOSIT_MIN_USDT: '0.0000001' })).toThrow(/DEPOSIT_MIN_USDT/);
  });
});

let t: TestApp;
let sim: SimulatedChain;
beforeAll(async () => {
  t = await createTestApp();
  sim = new SimulatedChain(t.database.db, t.clock);
});
afterAll(() => t.close());

interface AddressReply {
  asset: string;
  network: string;
  address: string;
  minDeposit: string;
  confirmations: number;
  simulated: boolean;
}
interface DepositItem {
  id: string;
  amount: string;
  status: string;
  reason: string | null;
  txid: string;
  confirmations: number;
  requiredConfirmations: number;
  creditedAt: string | null;
}
interface HistoryReply {
  items: DepositItem[];
  nextCursor: string | null;
}

const watcherDeps = (overrides: Partial<WatcherDeps> = {}): WatcherDeps => ({
  db: t.database.db,
  clock: t.clock,
  config: t.app.services.config,
  ledger: t.app.services.ledger,
  chain: sim,
  ...overrides,
});
const watch = (overrides: Partial<WatcherDeps> = {}) => runDepositWatcher(watcherDeps(overrides));
const advanceBlocks = (blocks: number) => t.clock.advance(blocks * SIM_BLOCK_MS);

const addressOf = async (token: string) =>
  (await call<AddressReply>(t.app, 'GET', '/api/v1/deposit/address', { token })).body.data.address;
const history = async (token: string, query = '') =>
  (await call<HistoryReply>(t.app, 'GET', `/api/v1/deposit/history${query}`, { token })).body.data;
const spotUsdt = async (token: string) =>
  (
    await call<{ spot: { asset: string; available: string }[] }>(
      t.app,
      'GET',
      '/api/v1/wallet/balances',
      { token },
    )
  ).body.data.spot.find((s) => s.asset === 'USDT')?.available;

async function send(address: string, amount: string) {
  const reply = await call<{ txid: string; blockNumber: number }>(
    t.app,
    'POST',
    '/api/v1/dev/chain/transfer',
    { body: { address, amount } },
  );
  expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
  return reply.body.data;
}

async function entriesFor(txid: string) {
  return queryRows<{ reference: string; kind: string }>(
    t.database.db,
    sql`select reference, kind from ledger_entries where reference like ${`deposit:${txid}:%`}`,
  );
}

async function depositUser() {
  const user = await registerUser(t.app);
  return { ...user, address: await addressOf(user.token) };
}

describe('deposit address', () => {
  it('is created on first call, stays the same, and each user has their own (unique address and index)', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const first = await addressOf(a.token);
    expect(await addressOf(a.token)).toBe(first);
    const other = await addressOf(b.token);
    expect(other).not.toBe(first);
    const rows = await queryRows<{
      user_id: string;
      address: string;
      derivation_index: number;
      key_fingerprint: string;
    }>(
      t.database.db,
      sql`select user_id::text, address, derivation_index, key_fingerprint from deposit_addresses where user_id in (${Number(a.uid)}, ${Number(b.uid)}) order by derivation_index`,
    );
    expect(rows.map((r) => [r.user_id, r.address])).toEqual([
      [a.uid, first],
      [b.uid, other],
    ]);
    // Each stored address is the derivation of its stored index.
    for (const row of rows)
      expect(deriveTronAddress(DEMO_TRON_XPUB, row.derivation_index)).toBe(row.address);
    expect(rows[0]?.key_fingerprint).toMatch(/^[0-9a-f]{8}$/);
  });

  it('concurrent first calls of one user give one address; concurrent users get distinct, gapless indexes', async () => {
    const one = await registerUser(t.app);
    const replies = await Promise.all(Array.from({ length: 8 }, () => addressOf(one.token)));
    expect(new Set(replies).size).toBe(1);
    const many = await Promise.all(Array.from({ length: 3 }, () => registerUser(t.app)));
    const addresses = await Promise.all(many.map((u) => addressOf(u.token)));
    expect(new Set(addresses).size).toBe(3);
    const [{ count, max }] = (await queryRows<{ count: number; max: number }>(
      t.database.db,
      sql`select count(*)::int as count, max(derivation_index) as max from deposit_addresses`,
    )) as [{ count: number; max: number }];
    expect(max).toBe(count - 1);
  });

  it('tells the network, the minimum, the confirmations, and that the demo chain is simulated', async () => {
    const { token } = await registerUser(t.app);
    const reply = await call<AddressReply>(t.app, 'GET', '/api/v1/deposit/address', { token });
    expect(reply.body.data).toMatchObject({
      asset: 'USDT',
      network: 'TRC20',
      minDeposit: '1',
      confirmations: 19,
      simulated: true,
    });
    expect(isTronAddress(reply.body.data.address)).toBe(true);
    expect((await call(t.app, 'GET', '/api/v1/deposit/address')).body.code).toBe(401);
  });

  it('is unavailable, with a clear message, when operators switch USDT deposits off', async () => {
    const { token, uid } = await registerUser(t.app);
    await t.database.db.execute(sql`update assets set deposit_enabled = false where code = 'USDT'`);
    try {
      const reply = await call(t.app, 'GET', '/api/v1/deposit/address', { token, lang: 'de' });
      expect(reply.body).toMatchObject({
        code: 2101,
        message: 'Krypto-Einzahlungen sind derzeit nicht verfügbar.',
      });
      const rows = await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from deposit_addresses where user_id = ${Number(uid)}`,
      );
      expect(rows[0]?.n).toBe(0);
    } finally {
      await t.database.db.execute(
        sql`update assets set deposit_enabled = true where code = 'USDT'`,
      );
    }
  });
});

describe('crediting', () => {
  it('simulated deposit → pending payment → paid at 19 confirmations → spot USDT credited once', async () => {
    const user = await depositUser();
    const sent = await send(user.address, '25.5');
    expect(sent.blockNumber).toBe((await sim.currentBlock()) + 1);

    const first = await watch();
    expect(first.recorded).toBeGreaterThanOrEqual(1);
    let [item] = (await history(user.token)).items;
    expect(item).toMatchObject({
      txid: sent.txid,
      amount: '25.5',
      status: 'pending_payment',
      reason: null,
      confirmations: 0,
      requiredConfirmations: 19,
      creditedAt: null,
    });
    expect(await spotUsdt(user.token)).toBe('0');

    // 18 confirmations: one short.
    advanceBlocks(18);
    await watch();
    [item] = (await history(user.token)).items;
    expect(item).toMatchObject({ status: 'pending_payment', confirmations: 18 });
    expect(await spotUsdt(user.token)).toBe('0');

    advanceBlocks(1);
    const published: [number, unknown][] = [];
    const hub = {
      publishToUser: (userId: number, data: unknown) => published.push([userId, data]),
    } as unknown as WatcherDeps['hub'];
    await watch({ hub });
    [item] = (await history(user.token)).items;
    expect(item).toMatchObject({ status: 'paid', confirmations: 19, requiredConfirmations: 19 });
    // The user's own real-time channel hears of it.
    expect(published).toContainEqual([
      Number(user.uid),
      { type: 'deposit.paid', id: item?.id, asset: 'USDT', amount: '25.5' },
    ]);
    expect(item?.creditedAt).toBe(t.clock.now().toISOString());
    expect(await spotUsdt(user.token)).toBe('25.5');

    // Later runs find the same transfer again and change nothing.
    advanceBlocks(5);
    await watch();
    await watch();
    expect(await spotUsdt(user.token)).toBe('25.5');
    expect(await entriesFor(sent.txid)).toEqual([
      { reference: `deposit:${sent.txid}:0`, kind: 'deposit' },
    ]);
    const postings = await queryRows<{ name: string; amount: string; type: string }>(
      t.database.db,
      sql`select a.name, p.amount::text, p.type from ledger_postings p join ledger_accounts a on a.id = p.account_id
          join ledger_entries e on e.id = p.entry_id where e.reference = ${`deposit:${sent.txid}:0`} order by p.amount`,
    );
    expect(postings).toEqual([
      { name: 'external:chain:USDT', amount: '-25500000', type: 'deposit' },
      { name: `user:${user.uid}:spot:USDT`, amount: '25500000', type: 'deposit' },
    ]);
  });

  it('a transfer the chain lists twice, and every run lists again, is recorded once and credited once', async () => {
    const user = await depositUser();
    const sent = await send(user.address, '7');
    // An adapter that repeats every transfer and always reads from the start.
    const repeating: ChainAdapter = {
      name: 'simulated',
      currentBlock: () => sim.currentBlock(),
      listIncoming: async (addresses) => {
        const page = await sim.listIncoming(addresses, null);
        return {
          transfers: [...page.transfers, ...page.transfers.map((tr) => ({ ...tr }))],
          cursor: page.cursor,
        };
      },
      blockOf: (transfer) => sim.blockOf(transfer),
    };
    await watch({ chain: repeating });
    advanceBlocks(19);
    await watch({ chain: repeating });
    await watch({ chain: repeating });
    await watch();
    const rows = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from deposits where txid = ${sent.txid}`,
    );
    expect(rows[0]?.n).toBe(1);
    expect((await history(user.token)).items.map((i) => [i.txid, i.status])).toEqual([
      [sent.txid, 'paid'],
    ]);
    expect(await spotUsdt(user.token)).toBe('7');
    expect(await entriesFor(sent.txid)).toHaveLength(1);
  });

  it.each([2, 8])(
    '%i watchers running at once credit each transfer exactly once',
    async (watchers) => {
      const a = await depositUser();
      const b = await depositUser();
      const sent = [
        await send(a.address, '1'),
        await send(a.address, '2.5'),
        await send(b.address, '10'),
        await send(b.address, '0.75'),
        await send(b.address, '3'),
      ];
      advanceBlocks(20);
      // As separate processes would: each watcher has its own ledger (account-id cache) and adapter.
      const results = await Promise.all(
        Array.from({ length: watchers }, () =>
          runDepositWatcher(
            watcherDeps({
              ledger: new Ledger(),
              chain: new SimulatedChain(t.database.db, t.clock),
            }),
          ),
        ),
      );
      expect(results.every((r) => r.head === results[0]?.head)).toBe(true);
      // A second round finds nothing left to do.
      await Promise.all(
        Array.from({ length: watchers }, () =>
          runDepositWatcher(watcherDeps({ ledger: new Ledger() })),
        ),
      );
      // 0.75 is below the 1 USDT minimum: rejected, never credited; every other transfer has one entry.
      for (const [i, transfer] of sent.entries())
        expect(await entriesFor(transfer.txid), transfer.txid).toHaveLength(i === 3 ? 0 : 1);
      expect(await spotUsdt(a.token)).toBe('3.5');
      expect(await spotUsdt(b.token)).toBe('13');
      // (Sent in the same block, so compared without their order.)
      expect((await history(b.token)).items.map((i) => [i.amount, i.status]).sort()).toEqual([
        ['0.75', 'rejected'],
        ['10', 'paid'],
        ['3', 'paid'],
      ]);
    },
  );

  it('a transfer below the minimum deposit is rejected with its reason and never credited', async () => {
    const user = await depositUser();
    const sent = await send(user.address, '0.999999');
    await watch();
    advanceBlocks(40);
    await watch();
    const [item] = (await history(user.token, '')).items;
    expect(item).toMatchObject({
      txid: sent.txid,
      amount: '0.999999',
      status: 'rejected',
      reason: 'below_minimum',
      creditedAt: null,
    });
    expect(await spotUsdt(user.token)).toBe('0');
    expect(await entriesFor(sent.txid)).toEqual([]);
    // Exactly the minimum is credited.
    const enough = await send(user.address, '1');
    await watch();
    advanceBlocks(19);
    await watch();
    expect(await spotUsdt(user.token)).toBe('1');
    expect(await entriesFor(enough.txid)).toHaveLength(1);
  });

  it('a transfer to an address no user owns is rejected and credited to nobody', async () => {
    await depositUser();
    const stranger = deriveTronAddress(DEMO_TRON_XPUB, 1_000_000);
    const transfer: ChainTransfer = {
      txid: crypto.randomBytes(32).toString('hex'),
      logIndex: 3,
      toAddress: stranger,
      fromAddress: null,
      amountMinor: 50_000_000n,
      blockNumber: (await sim.currentBlock()) - 100,
    };
    const lying: ChainAdapter = {
      name: 'simulated',
      currentBlock: () => sim.currentBlock(),
      listIncoming: async () => ({ transfers: [transfer], cursor: '0' }),
      blockOf: async () => transfer.blockNumber,
    };
    const result = await watch({ chain: lying });
    expect(result.rejected).toBe(1);
    const rows = await queryRows<{ user_id: string | null; status: string; reason: string }>(
      t.database.db,
      sql`select user_id, status, reason from deposits where txid = ${transfer.txid}`,
    );
    expect(rows).toEqual([{ user_id: null, status: 'rejected', reason: 'unknown_address' }]);
    expect(await entriesFor(transfer.txid)).toEqual([]);
  });

  it('a confirmed transfer the chain no longer has is not credited; one that moved is counted from its new block', async () => {
    const user = await depositUser();
    const sent = await send(user.address, '4');
    await watch();
    advanceBlocks(25);
    let moved: number | null = null;
    const forked: ChainAdapter = {
      name: 'simulated',
      currentBlock: () => sim.currentBlock(),
      listIncoming: (a, c) => sim.listIncoming(a, c),
      blockOf: async () => moved,
    };
    await watch({ chain: forked });
    expect((await history(user.token)).items[0]).toMatchObject({ status: 'pending_payment' });
    expect(await spotUsdt(user.token)).toBe('0');

    // Head is now sent.blockNumber + 24; in block sent.blockNumber + 20 the transfer has 5 confirmations.
    moved = sent.blockNumber + 20;
    await watch({ chain: forked });
    expect((await history(user.token)).items[0]).toMatchObject({
      status: 'pending_payment',
      confirmations: 5,
    });
    advanceBlocks(13);
    await watch({ chain: forked });
    expect((await history(user.token)).items[0]).toMatchObject({
      status: 'pending_payment',
      confirmations: 18,
    });
    advanceBlocks(1);
    await watch({ chain: forked });
    expect((await history(user.token)).items[0]).toMatchObject({
      status: 'paid',
      confirmations: 19,
    });
    expect(await spotUsdt(user.token)).toBe('4');
  });
});

describe('history', () => {
  it('lists newest first, a page at a time with a cursor, at most 50 per page', async () => {
    const user = await depositUser();
    const sent = [];
    for (const amount of ['5', '6', '7']) {
      sent.push(await send(user.address, amount));
      advanceBlocks(1);
    }
    await watch();
    const first = await history(user.token, '?limit=2');
    expect(first.items.map((i) => i.txid)).toEqual([sent[2]?.txid, sent[1]?.txid]);
    expect(first.nextCursor).toBe(first.items[1]?.id);
    const second = await history(user.token, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((i) => i.txid)).toEqual([sent[0]?.txid]);
    expect(second.nextCursor).toBeNull();
    expect((await history(user.token, '?limit=50')).items).toHaveLength(3);

    for (const query of [
      '?limit=51',
      '?limit=0',
      '?limit=abc',
      '?cursor=abc',
      '?cursor=-1',
      '?other=1',
    ]) {
      const reply = await call(t.app, 'GET', `/api/v1/deposit/history${query}`, {
        token: user.token,
      });
      expect(reply.body.code, query).toBe(422);
    }
    expect((await call(t.app, 'GET', '/api/v1/deposit/history')).body.code).toBe(401);
  });

  it("another user's deposits are never visible", async () => {
    const owner = await depositUser();
    const sent = await send(owner.address, '12');
    await watch();
    const stranger = await registerUser(t.app);
    const own = await history(owner.token);
    expect(own.items.map((i) => i.txid)).toContain(sent.txid);
    expect((await history(stranger.token)).items).toEqual([]);
    // A cursor past the owner's rows still shows only the stranger's own (none).
    expect(
      (await history(stranger.token, `?cursor=${Number(own.items[0]?.id) + 1}`)).items,
    ).toEqual([]);
    // The stranger's address is not the owner's.
    expect(await addressOf(stranger.token)).not.toBe(owner.address);
  });
});

describe('simulated chain (demo mode)', () => {
  it('refuses a bad address or amount with a form error and sends nothing', async () => {
    const count = async () =>
      (
        await queryRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from deposit_sim_transfers`,
        )
      )[0]?.n;
    const before = await count();
    const address = deriveTronAddress(DEMO_TRON_XPUB, 5);
    const badChecksum = `${address.slice(0, -1)}${address.endsWith('A') ? 'B' : 'A'}`;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ address: badChecksum, amount: '1' }, 'address', 'This is not a valid TRON address.'],
      [
        { address: '0x7e5f4552091a69125d5dfcb7b8c2659029395bdf', amount: '1' },
        'address',
        'Enter a TRON address (34 characters starting with T).',
      ],
      [
        { address, amount: '1.0000001' },
        'amount',
        'Enter an amount greater than zero with at most 6 decimal places.',
      ],
      [{ address, amount: '-1' }, 'amount', 'Enter an amount such as 12.5.'],
      [{ address, amount: 1 }, 'amount', 'This value has the wrong type.'],
    ];
    for (const [body, field, message] of cases) {
      const reply = await call(t.app, 'POST', '/api/v1/dev/chain/transfer', { body });
      expect(reply.body.code, JSON.stringify(body)).toBe(422);
      expect(reply.body.errors?.[field], JSON.stringify(body)).toEqual([message]);
    }
    const zh = await call(t.app, 'POST', '/api/v1/dev/chain/transfer', {
      body: { address: badChecksum, amount: '1' },
      lang: 'zh-CN',
    });
    expect(zh.body.errors?.address).toEqual(['这不是有效的 TRON 地址。']);
    expect(await count()).toBe(before);
  });

  it('mines blocks ahead of the clock and reports the height', async () => {
    const before = (await call<{ blockNumber: number }>(t.app, 'GET', '/api/v1/dev/chain/height'))
      .body.data.blockNumber;
    expect(before).toBe(await sim.currentBlock());
    const mined = await call<{ blockNumber: number }>(t.app, 'POST', '/api/v1/dev/chain/mine', {
      body: { blocks: 19 },
    });
    expect(mined.body.data.blockNumber).toBe(before + 19);
    expect(
      (await call(t.app, 'POST', '/api/v1/dev/chain/mine', { body: { blocks: 0 } })).body.code,
    ).toBe(422);
    expect(
      (await call(t.app, 'POST', '/api/v1/dev/chain/mine', { body: { blocks: 1001 } })).body.code,
    ).toBe(422);
  });
});

describe('outside demo mode', () => {
  it('has no simulated chain routes, and without TRON_XPUB crypto deposits are unavailable, in the user’s language', async () => {
    const prod = await createTestApp({ env: { DEMO_MODE: 'false' } });
    try {
      for (const [method, url] of [
        ['POST', '/api/v1/dev/chain/transfer'],
        ['POST', '/api/v1/dev/chain/mine'],
        ['GET', '/api/v1/dev/chain/height'],
      ] as const) {
        const reply = await call(prod.app, method, url, {
          body:
            method === 'POST'
              ? { address: deriveTronAddress(DEMO_TRON_XPUB, 0), amount: '5', blocks: 1 }
              : undefined,
        });
        expect(reply.status, url).toBe(404);
      }
      expect(prod.app.routeTable.some((r) => r.url.startsWith('/api/v1/dev/'))).toBe(false);

      const now = prod.clock.now();
      const [user] = await prod.database.db
        .insert(users)
        .values({
          email: 'prod-depositor@example.com',
          passwordHash: 'unused',
          nickname: 'prod',
          inviteCode: 'PRODDEP1',
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: users.id });
      const { token } = await createSession(prod.database.db, {
        userId: user?.id as number,
        now,
        ttlMs: 86_400_000,
        meta: { ip: '127.0.0.1', device: 'test' },
      });
      const en = await call(prod.app, 'GET', '/api/v1/deposit/address', { token });
      expect(en.body).toMatchObject({
        code: 2101,
        message: 'Crypto deposits are not available at the moment.',
        data: null,
      });
      const zh = await call(prod.app, 'GET', '/api/v1/deposit/address', { token, lang: 'zh-CN' });
      expect(zh.body.message).toBe('加密货币充值暂不可用。');
      const rows = await queryRows<{ n: number }>(
        prod.database.db,
        sql`select count(*)::int as n from deposit_addresses`,
      );
      expect(rows[0]?.n).toBe(0);
      // History still answers (empty), so earlier deposits stay visible if the key is removed.
      expect(
        (await call<HistoryReply>(prod.app, 'GET', '/api/v1/deposit/history', { token })).body.data
          .items,
      ).toEqual([]);
    } finally {
      await prod.close();
    }
  });
});
