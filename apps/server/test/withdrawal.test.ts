import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../src/modules/ledger/invariants.ts';
import { OPS_COMMANDS } from '../src/ops-commands.ts';
import { findOperator } from '../src/modules/operator/service.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  PASSWORD,
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  operatorToken,
  registerUser,
  verifyUser,
} from './harness.ts';

let t: TestApp;
let reviewer: { token: string; username: string };
beforeAll(async () => {
  t = await createTestApp();
  reviewer = await operatorToken(t, 'reviewer');
});
afterAll(() => t.close());

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

const PIN = '480316';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const BTC_BECH32 = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TXID = 'a'.repeat(64);

interface Item {
  id: string;
  kind: string;
  asset: string;
  network: string | null;
  address: string | null;
  card: { bankName: string; accountMasked: string; holderName: string } | null;
  amount: string;
  fee: string;
  total: string;
  status: string;
  reason: string | null;
  txid: string | null;
}
interface SpotRow {
  asset: string;
  available: string;
  locked: string;
}

type User = Awaited<ReturnType<typeof registerUser>>;

/** KYC passed as an operator's approval leaves it, in the name the cards here carry (`verifyUser`). */
async function markVerified(uid: string) {
  await verifyUser(t, Number(uid));
}

async function setPin(user: User, pin = PIN) {
  const reply = await call(t.app, 'POST', '/api/v1/money-passwords', {
    token: user.token,
    body: {
      kind: 'withdraw',
      proof: 'login_password',
      loginPassword: PASSWORD,
      password: pin,
      confirmPassword: pin,
    },
  });
  if (reply.body.code !== 0) throw new Error(`set pin failed: ${JSON.stringify(reply.body)}`);
}

/** A verified user with a withdrawal password and spot funds (minor units). */
async function readyUser(
  funds: { USDT?: bigint; BTC?: bigint; ETH?: bigint } = { USDT: 100_000_000n },
  options: { verified?: boolean; pin?: boolean } = {},
) {
  const user = await registerUser(t.app);
  if (options.verified ?? true) await markVerified(user.uid);
  if (options.pin ?? true) await setPin(user);
  for (const [asset, amount] of Object.entries(funds))
    if (amount) await fund(t, Number(user.uid), amount, 'spot', asset as 'USDT' | 'BTC' | 'ETH');
  return user;
}

function withdraw(
  user: User,
  body: Record<string, unknown>,
  options: { key?: string | null; lang?: string } = {},
) {
  const key = options.key === undefined ? idempotencyKey() : options.key;
  return call<Item>(t.app, 'POST', '/api/v1/withdrawals', {
    token: user.token,
    body,
    lang: options.lang,
    headers: key ? { 'idempotency-key': key } : {},
  });
}

const usdt = (amount: string, extra: Record<string, unknown> = {}) => ({
  asset: 'USDT',
  network: 'TRC20',
  address: TRON,
  amount,
  password: PIN,
  ...extra,
});

function cardWithdraw(user: User, body: Record<string, unknown>, key: string = idempotencyKey()) {
  return call<Item>(t.app, 'POST', '/api/v1/withdrawals/card', {
    token: user.token,
    body,
    headers: { 'idempotency-key': key },
  });
}

async function spot(user: User, asset = 'USDT'): Promise<SpotRow> {
  const reply = await call<{ spot: SpotRow[] }>(t.app, 'GET', '/api/v1/wallet/balances', {
    token: user.token,
  });
  const row = reply.body.data.spot.find((s) => s.asset === asset);
  if (!row) throw new Error(`no ${asset} row`);
  return row;
}

const history = async (user: User) =>
  (
    await call<{ items: Item[]; hasMore: boolean }>(t.app, 'GET', '/api/v1/withdrawals', {
      token: user.token,
    })
  ).body.data.items;

const admin = (url: string, body: Record<string, unknown>, token = reviewer.token) =>
  call<Item & { uid: string }>(t.app, 'POST', `/api/admin/v1/withdrawals/${url}`, { token, body });

async function accountBalance(name: string): Promise<string> {
  const rows = await queryRows<{ available: string }>(
    t.database.db,
    sql`select available::text from ledger_accounts where name = ${name}`,
  );
  return rows[0]?.available ?? '0';
}

async function entriesFor(id: string) {
  return queryRows<{
    reference: string;
    type: string;
    bucket: string;
    amount: string;
    account: string;
  }>(
    t.database.db,
    sql`select e.reference, p.type, p.bucket, p.amount::text, a.name as account
        from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
        where e.reference like ${`withdrawal:${id}:%`} order by p.id`,
  );
}

async function addCard(user: User, accountNumber = '6222 0212 3456 7890') {
  const reply = await call<{ id: string }>(t.app, 'POST', '/api/v1/bank-cards', {
    token: user.token,
    body: {
      bankName: 'Bank of Tradewind',
      accountNumber,
      branchName: 'Harbour Road',
      branchCode: 'TWB-001',
      holderName: 'Mei Lin',
    },
  });
  if (reply.body.code !== 0) throw new Error(`add card failed: ${JSON.stringify(reply.body)}`);
  return reply.body.data.id;
}

describe('options', () => {
  it('lists currencies with network, minimum and fee from the assets table, the balance and what is missing', async () => {
    const user = await registerUser(t.app);
    await fund(t, Number(user.uid), 25_500_000n);
    const reply = await call<{
      assets: {
        asset: string;
        networks: string[];
        minAmount: string;
        fee: string;
        available: string;
        decimals: number;
      }[];
      verified: boolean;
      withdrawPasswordSet: boolean;
      cards: unknown[];
      arrivalHours: number;
    }>(t.app, 'GET', '/api/v1/withdrawals/options', { token: user.token });
    expect(
      reply.body.data.assets.map(({ asset, networks, minAmount, fee, available, decimals }) => ({
        asset,
        networks,
        minAmount,
        fee,
        available,
        decimals,
      })),
    ).toEqual([
      {
        asset: 'USDT',
        networks: ['TRC20'],
        minAmount: '10',
        fee: '1',
        available: '25.5',
        decimals: 6,
      },
      {
        asset: 'BTC',
        networks: ['BTC'],
        minAmount: '0.001',
        fee: '0.0002',
        available: '0',
        decimals: 8,
      },
      {
        asset: 'ETH',
        networks: ['ETH'],
        minAmount: '0.01',
        fee: '0.002',
        available: '0',
        decimals: 8,
      },
    ]);
    expect(reply.body.data).toMatchObject({
      verified: false,
      withdrawPasswordSet: false,
      cards: [],
      arrivalHours: 12,
    });
  });
});

describe('a request locks amount + fee', () => {
  it('moves amount + fee from available to locked in one entry, with the withdrawal row, under review', async () => {
    const user = await readyUser({ USDT: 100_000_000n });
    const reply = await withdraw(user, usdt('25.5'));
    expect(reply.body.code).toBe(0);
    expect(reply.body.data).toMatchObject({
      kind: 'crypto',
      asset: 'USDT',
      network: 'TRC20',
      address: TRON,
      amount: '25.5',
      fee: '1',
      total: '26.5',
      status: 'under_review',
      reason: null,
      txid: null,
    });
    expect(await spot(user)).toMatchObject({ available: '73.5', locked: '26.5' });
    const postings = await entriesFor(reply.body.data.id);
    expect(
      postings.map(({ reference, type, bucket, amount }) => ({ reference, type, bucket, amount })),
    ).toEqual([
      {
        reference: `withdrawal:${reply.body.data.id}:request`,
        type: 'withdraw',
        bucket: 'available',
        amount: '-25500000',
      },
      {
        reference: `withdrawal:${reply.body.data.id}:request`,
        type: 'withdraw',
        bucket: 'locked',
        amount: '25500000',
      },
      {
        reference: `withdrawal:${reply.body.data.id}:request`,
        type: 'withdraw_fee',
        bucket: 'available',
        amount: '-1000000',
      },
      {
        reference: `withdrawal:${reply.body.data.id}:request`,
        type: 'withdraw_fee',
        bucket: 'locked',
        amount: '1000000',
      },
    ]);
    expect((await history(user))[0]).toMatchObject({
      id: reply.body.data.id,
      status: 'under_review',
    });
  });

  it('BTC to a segwit address and ETH to a checksummed address', async () => {
    const user = await readyUser({ BTC: 1_000_000n, ETH: 100_000_000n });
    const btc = await withdraw(user, {
      asset: 'BTC',
      network: 'BTC',
      address: BTC_BECH32,
      amount: '0.001',
      password: PIN,
    });
    expect(btc.body.data).toMatchObject({ amount: '0.001', fee: '0.0002', total: '0.0012' });
    expect(await spot(user, 'BTC')).toMatchObject({ available: '0.0088', locked: '0.0012' });
    const eth = await withdraw(user, {
      asset: 'ETH',
      network: 'ETH',
      address: ETH,
      amount: '0.5',
      password: PIN,
    });
    expect(eth.body.code).toBe(0);
    expect(await spot(user, 'ETH')).toMatchObject({ available: '0.498', locked: '0.502' });
  });
});

describe('refused requests change nothing', () => {
  async function expectUnchanged(user: User) {
    expect(await spot(user)).toMatchObject({ available: '100', locked: '0' });
    expect(await history(user)).toEqual([]);
  }

  it.each([
    ['USDT', 'TRC20', '9.999999', 'The minimum withdrawal is 10 USDT.'],
    ['BTC', 'BTC', '0.00099999', 'The minimum withdrawal is 0.001 BTC.'],
    ['ETH', 'ETH', '0.00999999', 'The minimum withdrawal is 0.01 ETH.'],
  ])('below the minimum (%s %s %s)', async (asset, network, amount, message) => {
    const user = await readyUser({ USDT: 100_000_000n, BTC: 100_000_000n, ETH: 100_000_000n });
    const address = { USDT: TRON, BTC: BTC_BECH32, ETH }[asset];
    const reply = await withdraw(user, { asset, network, address, amount, password: PIN });
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.amount).toEqual([message]);
    expect(await spot(user, asset)).toMatchObject({
      available: asset === 'USDT' ? '100' : '1',
      locked: '0',
    });
  });

  it.each([
    [
      'USDT',
      'TRC20',
      '10.0000001',
      'Enter an amount greater than zero with at most 6 decimal places.',
    ],
    [
      'BTC',
      'BTC',
      '0.001000001',
      'Enter an amount greater than zero with at most 8 decimal places.',
    ],
  ])('more decimals than the asset has (%s %s)', async (asset, network, amount, message) => {
    const user = await readyUser({ USDT: 100_000_000n, BTC: 100_000_000n });
    const reply = await withdraw(user, {
      asset,
      network,
      address: asset === 'USDT' ? TRON : BTC_BECH32,
      amount,
      password: PIN,
    });
    expect(reply.body.errors?.amount).toEqual([message]);
    expect(await spot(user, asset)).toMatchObject({ locked: '0' });
  });

  it('a wrong withdrawal password', async () => {
    const user = await readyUser();
    const reply = await withdraw(user, usdt('20', { password: '480317' }));
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.password).toEqual([
      'Incorrect password. Attempts left before a 15-minute lock: 4.',
    ]);
    await expectUnchanged(user);
  });

  it('the trading password does not authorise a withdrawal', async () => {
    const user = await readyUser();
    await call(t.app, 'POST', '/api/v1/money-passwords', {
      token: user.token,
      body: {
        kind: 'trade',
        proof: 'login_password',
        loginPassword: PASSWORD,
        password: '907153',
        confirmPassword: '907153',
      },
    });
    expect(
      (await withdraw(user, usdt('20', { password: '907153' }))).body.errors?.password,
    ).toBeDefined();
    await expectUnchanged(user);
  });

  it('no withdrawal password set yet (spec §8), in English and Chinese', async () => {
    const user = await readyUser({ USDT: 100_000_000n }, { pin: false });
    const reply = await withdraw(user, usdt('20'));
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe(2301);
    expect(reply.body.message).toBe('Withdrawal password not set. Please set it first.');
    expect((await withdraw(user, usdt('20'), { lang: 'zh_CN' })).body.message).toBe(
      '尚未设置提现密码，请先设置。',
    );
    await expectUnchanged(user);
  });

  it('no password typed', async () => {
    const user = await readyUser();
    const reply = await withdraw(user, usdt('20', { password: '' }));
    expect(reply.body.errors?.password).toEqual(['This field is required.']);
    await expectUnchanged(user);
  });

  it('identity not verified (spec §5, §8)', async () => {
    const user = await readyUser({ USDT: 100_000_000n }, { verified: false });
    const reply = await withdraw(user, usdt('20'));
    expect(reply.body.code).toBe(2310);
    expect(reply.body.message).toBe('Complete identity verification first.');
    expect((await withdraw(user, usdt('20'), { lang: 'de' })).body.message).toBe(
      'Schließen Sie zuerst die Identitätsprüfung ab.',
    );
    await expectUnchanged(user);
  });

  it('amount + fee above the balance (the fee counts)', async () => {
    const user = await readyUser();
    const reply = await withdraw(user, usdt('99.5'));
    expect(reply.body.code).toBe(2001);
    expect(reply.body.message).toBe('Insufficient balance.');
    await expectUnchanged(user);
    expect((await withdraw(user, usdt('99'))).body.code).toBe(0);
    expect(await spot(user)).toMatchObject({ available: '0', locked: '100' });
  });

  it.each([
    [
      'TRC20',
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u',
      'This address contains a typo: its checksum does not match.',
    ],
    ['TRC20', BTC_BECH32, 'This address belongs to another network. Check the network you chose.'],
    ['TRC20', 'not an address', 'This address is not valid for the selected network.'],
    ['TRC20', '', 'This field is required.'],
  ])('a receiving address that is not valid for %s (%s)', async (network, address, message) => {
    const user = await readyUser();
    const reply = await withdraw(user, usdt('20', { network, address }));
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.address).toEqual([message]);
    await expectUnchanged(user);
  });

  it('a network the currency is not withdrawn on', async () => {
    const user = await readyUser();
    const reply = await withdraw(user, usdt('20', { network: 'ETH', address: ETH }));
    expect(reply.body.errors?.network).toEqual([
      'This currency cannot be withdrawn on that network.',
    ]);
    await expectUnchanged(user);
  });

  it('without an Idempotency-Key', async () => {
    const user = await readyUser();
    const reply = await withdraw(user, usdt('20'), { key: null });
    expect(Object.keys(reply.body.errors ?? {})).toEqual(['Idempotency-Key']);
    await expectUnchanged(user);
  });
});

describe('wrong withdrawal passwords are limited', () => {
  it('5 wrong → locked 15 minutes by the clock; the right one is refused meanwhile; afterwards it works', async () => {
    const user = await readyUser();
    for (let remaining = 4; remaining >= 1; remaining--) {
      expect(
        (await withdraw(user, usdt('20', { password: '000001' }))).body.errors?.password,
      ).toEqual([`Incorrect password. Attempts left before a 15-minute lock: ${remaining}.`]);
    }
    const fifth = await withdraw(user, usdt('20', { password: '000001' }));
    expect(fifth.body.code).toBe(2304);
    expect(fifth.body.message).toBe('Too many wrong attempts. Try again in 15 min.');
    const right = await withdraw(user, usdt('20'));
    expect(right.body.code).toBe(2304);
    expect(await spot(user)).toMatchObject({ available: '100', locked: '0' });
    t.clock.advance(15 * 60_000);
    expect((await withdraw(user, usdt('20'))).body.code).toBe(0);
    expect(await spot(user)).toMatchObject({ available: '79', locked: '21' });
  });

  it('a success resets the count', async () => {
    const user = await readyUser();
    for (let i = 0; i < 4; i++) await withdraw(user, usdt('20', { password: '000001' }));
    expect((await withdraw(user, usdt('10'))).body.code).toBe(0);
    expect(
      (await withdraw(user, usdt('10', { password: '000001' }))).body.errors?.password,
    ).toEqual(['Incorrect password. Attempts left before a 15-minute lock: 4.']);
  });

  it('concurrent wrong guesses cannot slip past the limit', async () => {
    const user = await readyUser();
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        withdraw(user, usdt('20', { password: String(100_000 + i * 7919) })),
      ),
    );
    const codes = replies.map((r) => r.body.code);
    expect(codes.filter((c) => c === 422)).toHaveLength(4);
    expect(codes.filter((c) => c === 2304)).toHaveLength(8);
    expect(await spot(user)).toMatchObject({ available: '100', locked: '0' });
  });
});

describe('operator review', () => {
  async function pending(amount = '25.5') {
    const user = await readyUser();
    const reply = await withdraw(user, usdt(amount));
    return { user, id: reply.body.data.id };
  }

  it('reject → review failed, funds released at once, the reason visible in the history, audited', async () => {
    const { user, id } = await pending();
    const reply = await admin('review', {
      id,
      decision: 'reject',
      reason: 'Address on a sanctions list',
    });
    expect(reply.body.code).toBe(0);
    expect(reply.body.data).toMatchObject({
      status: 'review_failed',
      reason: 'Address on a sanctions list',
    });
    expect(await spot(user)).toMatchObject({ available: '100', locked: '0' });
    expect((await history(user))[0]).toMatchObject({
      id,
      status: 'review_failed',
      reason: 'Address on a sanctions list',
    });
    const refund = (await entriesFor(id)).filter((p) => p.reference.endsWith(':refund'));
    expect(refund.map((p) => [p.type, p.bucket, p.amount])).toEqual([
      ['withdraw_refund', 'locked', '-25500000'],
      ['withdraw_refund', 'available', '25500000'],
      ['withdraw_refund', 'locked', '-1000000'],
      ['withdraw_refund', 'available', '1000000'],
    ]);
    const audit = await queryRows<{
      action: string;
      before: string;
      after: string;
      reason: string;
      via: string;
    }>(
      t.database.db,
      sql`select action, before, after, reason, via from audit_log where target_type = 'withdrawal' and target_id = ${id}`,
    );
    expect(audit).toEqual([
      {
        action: 'withdrawal.reject',
        before: '{"status":"under_review"}',
        after: '{"status":"review_failed"}',
        reason: 'Address on a sanctions list',
        via: 'api',
      },
    ]);
  });

  it('a rejection needs a reason', async () => {
    const { user, id } = await pending();
    const reply = await admin('review', { id, decision: 'reject' });
    expect(reply.body.errors?.reason).toEqual(['A reason is required.']);
    expect(await spot(user)).toMatchObject({ locked: '26.5' });
  });

  it('approve → processing → complete with txid: the locked amount leaves to the chain, the fee goes to the house', async () => {
    const { user, id } = await pending();
    const fees = BigInt(await accountBalance('house:fees:USDT'));
    const chain = BigInt(await accountBalance('external:chain:USDT'));
    const approved = await admin('review', { id, decision: 'approve' });
    expect(approved.body.data).toMatchObject({
      status: 'processing',
      reviewedBy: reviewer.username,
    });
    expect(await spot(user)).toMatchObject({ available: '73.5', locked: '26.5' });
    const queue = await call<{ items: { id: string; status: string; uid: string }[] }>(
      t.app,
      'GET',
      '/api/admin/v1/withdrawals/queue?status=processing',
      { token: reviewer.token },
    );
    expect(queue.body.data.items.find((i) => i.id === id)).toMatchObject({
      status: 'processing',
      uid: user.uid,
    });
    const done = await admin('complete', { id, txid: TXID.toUpperCase() });
    expect(done.body.data).toMatchObject({ status: 'success', txid: TXID });
    expect(await spot(user)).toMatchObject({ available: '73.5', locked: '0' });
    expect(BigInt(await accountBalance('house:fees:USDT')) - fees).toBe(1_000_000n);
    expect(BigInt(await accountBalance('external:chain:USDT')) - chain).toBe(25_500_000n);
    expect((await history(user))[0]).toMatchObject({ status: 'success', txid: TXID });
    const completion = (await entriesFor(id)).filter((p) => p.reference.endsWith(':complete'));
    expect(completion.map((p) => [p.type, p.account, p.amount]).sort()).toEqual(
      [
        ['withdraw', `user:${user.uid}:spot:USDT`, '-25500000'],
        ['withdraw', 'external:chain:USDT', '25500000'],
        ['withdraw_fee', `user:${user.uid}:spot:USDT`, '-1000000'],
        ['withdraw_fee', 'house:fees:USDT', '1000000'],
      ].sort(),
    );
  });

  it('processing → failed with the reason releases the funds at once', async () => {
    const { user, id } = await pending();
    await admin('review', { id, decision: 'approve' });
    const failed = await admin('fail', { id, reason: 'Network congestion, transfer not sent' });
    expect(failed.body.data).toMatchObject({
      status: 'failed',
      reason: 'Network congestion, transfer not sent',
    });
    expect(await spot(user)).toMatchObject({ available: '100', locked: '0' });
    expect((await history(user))[0]).toMatchObject({
      status: 'failed',
      reason: 'Network congestion, transfer not sent',
    });
  });

  it('complete or reject twice → INVALID_STATE, and money moves once', async () => {
    const a = await pending();
    await admin('review', { id: a.id, decision: 'approve' });
    expect((await admin('complete', { id: a.id, txid: TXID })).body.code).toBe(0);
    const again = await admin('complete', { id: a.id, txid: 'b'.repeat(64) });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(2501);
    expect((await admin('fail', { id: a.id, reason: 'late' })).body.code).toBe(2501);
    expect(
      (await admin('review', { id: a.id, decision: 'reject', reason: 'late' })).body.code,
    ).toBe(2501);
    expect(await spot(a.user)).toMatchObject({ available: '73.5', locked: '0' });
    expect((await entriesFor(a.id)).filter((p) => p.reference.endsWith(':complete'))).toHaveLength(
      4,
    );
    expect((await entriesFor(a.id)).filter((p) => p.reference.endsWith(':refund'))).toHaveLength(0);

    const b = await pending();
    expect(
      (await admin('review', { id: b.id, decision: 'reject', reason: 'first' })).body.code,
    ).toBe(0);
    expect(
      (await admin('review', { id: b.id, decision: 'reject', reason: 'second' })).body.code,
    ).toBe(2501);
    expect((await admin('review', { id: b.id, decision: 'approve' })).body.code).toBe(2501);
    expect(await spot(b.user)).toMatchObject({ available: '100', locked: '0' });
    expect((await entriesFor(b.id)).filter((p) => p.reference.endsWith(':refund'))).toHaveLength(4);
  });

  it('only a reviewed withdrawal can be completed or failed; only a pending one reviewed', async () => {
    const { user, id } = await pending();
    expect((await admin('complete', { id, txid: TXID })).body.code).toBe(2501);
    expect((await admin('fail', { id, reason: 'x' })).body.code).toBe(2501);
    await admin('review', { id, decision: 'approve' });
    expect((await admin('review', { id, decision: 'approve' })).body.code).toBe(2501);
    expect(await spot(user)).toMatchObject({ locked: '26.5' });
  });

  it('concurrent completions of one withdrawal: exactly one moves money', async () => {
    const { user, id } = await pending();
    await admin('review', { id, decision: 'approve' });
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => admin('complete', { id, txid: TXID })),
    );
    expect(replies.filter((r) => r.body.code === 0)).toHaveLength(1);
    expect(replies.filter((r) => r.body.code === 2501)).toHaveLength(9);
    expect(await spot(user)).toMatchObject({ available: '73.5', locked: '0' });
    expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
  });

  it('a chain txid must be 64 hex digits; unknown ids are NOT_FOUND', async () => {
    const { id } = await pending();
    await admin('review', { id, decision: 'approve' });
    expect((await admin('complete', { id, txid: 'abc123' })).body.errors?.txid).toEqual([
      'This transaction id does not fit the network (64 hexadecimal digits).',
    ]);
    expect((await admin('complete', { id: '999999999', txid: TXID })).body.code).toBe(404);
  });

  it('only reviewers and administrators act; users and catalog managers cannot', async () => {
    const { user, id } = await pending();
    const catalog = await operatorToken(t, 'catalog');
    expect((await admin('review', { id, decision: 'approve' }, catalog.token)).status).toBe(403);
    expect((await admin('review', { id, decision: 'approve' }, user.token)).body.code).toBe(401);
    expect(
      (await call(t.app, 'GET', '/api/admin/v1/withdrawals/queue', { token: user.token })).body
        .code,
    ).toBe(401);
    expect(await spot(user)).toMatchObject({ locked: '26.5' });
  });

  it('the CLI commands act through the same rules and are audited as cli', async () => {
    const { user, id } = await pending();
    const operator = await findOperator(t.database.db, reviewer.username);
    const context = { ...t.app.services, db: t.database.db, operator, args: [] };
    const run = (name: string, options: Record<string, string>) => {
      const command = OPS_COMMANDS.get(name);
      if (!command) throw new Error(`no command ${name}`);
      return command.run(context, options);
    };
    expect(await run('withdrawal:queue', { status: 'under_review' })).toContain(
      `withdrawal #${id} uid ${user.uid} 25.5 USDT (fee 1): under_review → ${TRON}`,
    );
    await expect(run('withdrawal:review', { id, decision: 'reject' })).rejects.toThrow(/reason/);
    expect(await run('withdrawal:review', { id, decision: 'approve' })).toContain('processing');
    await expect(run('withdrawal:review', { id, decision: 'approve' })).rejects.toThrow(
      'INVALID_STATE',
    );
    expect(await run('withdrawal:complete', { id, txid: TXID })).toContain('success');
    expect(await spot(user)).toMatchObject({ available: '73.5', locked: '0' });
    const second = await pending();
    await run('withdrawal:review', { id: second.id, decision: 'approve' });
    expect(await run('withdrawal:fail', { id: second.id, reason: 'Bank holiday' })).toContain(
      'failed',
    );
    expect(await spot(second.user)).toMatchObject({ available: '100', locked: '0' });
    const audit = await queryRows<{ action: string; via: string }>(
      t.database.db,
      sql`select action, via from audit_log where target_type = 'withdrawal' and target_id in (${id}, ${second.id}) order by id`,
    );
    expect(audit).toEqual([
      { action: 'withdrawal.approve', via: 'cli' },
      { action: 'withdrawal.complete', via: 'cli' },
      { action: 'withdrawal.approve', via: 'cli' },
      { action: 'withdrawal.fail', via: 'cli' },
    ]);
  });
});

describe('card withdrawals', () => {
  it('need a linked card (spec §8)', async () => {
    const user = await readyUser();
    const reply = await cardWithdraw(user, { cardId: '1', amount: '20', password: PIN });
    expect(reply.body.code).toBe(2320);
    expect(reply.body.message).toBe('No bank card linked, link one first.');
    expect(await spot(user)).toMatchObject({ available: '100', locked: '0' });
  });

  it('follow the same review and ledger rules; the money leaves to the bank', async () => {
    const user = await readyUser();
    const cardId = await addCard(user);
    const reply = await cardWithdraw(user, { cardId, amount: '30', password: PIN });
    expect(reply.body.data).toMatchObject({
      kind: 'card',
      asset: 'USDT',
      network: null,
      address: null,
      card: { bankName: 'Bank of Tradewind', accountMasked: '•••• 7890', holderName: 'Mei Lin' },
      amount: '30',
      fee: '1',
      status: 'under_review',
    });
    expect(await spot(user)).toMatchObject({ available: '69', locked: '31' });
    const bank = BigInt(await accountBalance('external:bank:USDT'));
    const queue = await call<{ items: { id: string; cardAccountNumber: string | null }[] }>(
      t.app,
      'GET',
      '/api/admin/v1/withdrawals/queue',
      { token: reviewer.token },
    );
    expect(queue.body.data.items.find((i) => i.id === reply.body.data.id)?.cardAccountNumber).toBe(
      '6222021234567890',
    );
    await admin('review', { id: reply.body.data.id, decision: 'approve' });
    expect(
      (await admin('complete', { id: reply.body.data.id, txid: 'BANKREF-2026-0001' })).body.data,
    ).toMatchObject({ status: 'success', txid: 'BANKREF-2026-0001' });
    expect(BigInt(await accountBalance('external:bank:USDT')) - bank).toBe(30_000_000n);
    expect(await spot(user)).toMatchObject({ available: '69', locked: '0' });
  });

  it('a deleted card still shows in the history of a withdrawal made to it', async () => {
    const user = await readyUser();
    const cardId = await addCard(user);
    const reply = await cardWithdraw(user, { cardId, amount: '10', password: PIN });
    await call(t.app, 'POST', '/api/v1/bank-cards/delete', {
      token: user.token,
      body: { id: cardId },
    });
    expect((await history(user))[0]?.card?.bankName).toBe('Bank of Tradewind');
    await admin('review', { id: reply.body.data.id, decision: 'reject', reason: 'Card closed' });
    expect(await spot(user)).toMatchObject({ available: '100', locked: '0' });
  });

  it('the minimum, the password and the balance apply as for crypto', async () => {
    const user = await readyUser();
    const cardId = await addCard(user);
    expect(
      (await cardWithdraw(user, { cardId, amount: '9', password: PIN })).body.errors?.amount,
    ).toEqual(['The minimum withdrawal is 10 USDT.']);
    expect(
      (await cardWithdraw(user, { cardId, amount: '20', password: '000001' })).body.errors
        ?.password,
    ).toBeDefined();
    expect((await cardWithdraw(user, { cardId, amount: '100', password: PIN })).body.code).toBe(
      2001,
    );
    expect(await spot(user)).toMatchObject({ available: '100', locked: '0' });
  });
});

describe('history', () => {
  it('pages newest first with the last id of the previous page', async () => {
    const user = await readyUser({ USDT: 1_000_000_000n });
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) ids.push((await withdraw(user, usdt('10'))).body.data.id);
    const first = await call<{ items: Item[]; hasMore: boolean }>(
      t.app,
      'GET',
      '/api/v1/withdrawals',
      { token: user.token },
    );
    expect(first.body.data.items.map((i) => i.id)).toEqual(ids.slice(1).reverse());
    expect(first.body.data.hasMore).toBe(true);
    const second = await call<{ items: Item[]; hasMore: boolean }>(
      t.app,
      'GET',
      `/api/v1/withdrawals?beforeId=${ids[1]}`,
      { token: user.token },
    );
    expect(second.body.data).toEqual({
      items: [expect.objectContaining({ id: ids[0] })],
      hasMore: false,
    });
    expect(await spot(user)).toMatchObject({ available: '769', locked: '231' });
  });
});

describe('ownership', () => {
  it('another user’s withdrawals and cards are unreachable', async () => {
    const alice = await readyUser();
    const bob = await readyUser();
    const aliceCard = await addCard(alice);
    const aliceWithdrawal = (await withdraw(alice, usdt('20'))).body.data.id;

    const detail = await call(t.app, 'GET', `/api/v1/withdrawals/detail?id=${aliceWithdrawal}`, {
      token: bob.token,
    });
    expect(detail.body.code).toBe(404);
    expect(detail.body.data).toBeNull();
    expect(
      (
        await call<Item>(t.app, 'GET', `/api/v1/withdrawals/detail?id=${aliceWithdrawal}`, {
          token: alice.token,
        })
      ).body.data.id,
    ).toBe(aliceWithdrawal);
    expect(await history(bob)).toEqual([]);

    // Bob has a card of his own, so the refusal is about Alice's card, not a missing one.
    await addCard(bob, '9999888877776666');
    const steal = await cardWithdraw(bob, { cardId: aliceCard, amount: '20', password: PIN });
    expect(steal.body.code).toBe(404);
    expect(await spot(bob)).toMatchObject({ available: '100', locked: '0' });

    expect(
      (
        await call(t.app, 'POST', '/api/v1/bank-cards/delete', {
          token: bob.token,
          body: { id: aliceCard },
        })
      ).body.code,
    ).toBe(404);
    const aliceCards = await call<{ items: { id: string }[] }>(t.app, 'GET', '/api/v1/bank-cards', {
      token: alice.token,
    });
    expect(aliceCards.body.data.items.map((c) => c.id)).toEqual([aliceCard]);
    const bobCards = await call<{ items: { id: string }[] }>(t.app, 'GET', '/api/v1/bank-cards', {
      token: bob.token,
    });
    expect(bobCards.body.data.items.map((c) => c.id)).not.toContain(aliceCard);
  });
});

describe('idempotency', () => {
  it('20 concurrent replays with one Idempotency-Key make one withdrawal and identical replies', async () => {
    const user = await readyUser();
    const key = idempotencyKey();
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => withdraw(user, usdt('12'), { key })),
    );
    expect(replies[0]?.body.code).toBe(0);
    expect(new Set(replies.map((r) => r.response.body)).size).toBe(1);
    expect(await history(user)).toHaveLength(1);
    expect(await spot(user)).toMatchObject({ available: '87', locked: '13' });
  });

  it('a replay still needs the right password; another body with the key is refused', async () => {
    const user = await readyUser();
    const key = idempotencyKey();
    const first = await withdraw(user, usdt('12'), { key });
    expect(
      (await withdraw(user, usdt('12', { password: '000001' }), { key })).body.errors?.password,
    ).toBeDefined();
    expect((await withdraw(user, usdt('12'), { key })).response.body).toBe(first.response.body);
    expect((await withdraw(user, usdt('13'), { key })).body.code).toBe(2003);
    expect(await history(user)).toHaveLength(1);
  });

  it('the stored request hash does not depend on the password', async () => {
    const user = await readyUser();
    const key = idempotencyKey();
    await withdraw(user, usdt('12'), { key });
    const rows = await queryRows<{ request_hash: string }>(
      t.database.db,
      sql`select request_hash from idempotency_keys where key = ${key}`,
    );
    const crypto = await import('node:crypto');
    const withoutPassword = crypto
      .createHash('sha256')
      .update(
        JSON.stringify([
          'POST',
          '/api/v1/withdrawals',
          { asset: 'USDT', network: 'TRC20', address: TRON, amount: '12' },
        ]),
      )
      .digest('hex');
    expect(rows[0]?.request_hash).toBe(withoutPassword);
  });
});

describe('concurrency', () => {
  it(
    `200 concurrent withdrawals against one balance: exactly ⌊B/(a+fee)⌋ succeed, nothing negative, invariants hold${onPostgres ? ' (PostgreSQL)' : ' (PGlite)'}`,
    { timeout: 180_000 },
    async () => {
      // B = 1000.5 USDT, a = 10, fee = 1 → ⌊1000.5 / 11⌋ = 90 succeed.
      const user = await readyUser({ USDT: 1_000_500_000n });
      const replies = await Promise.all(
        Array.from({ length: 200 }, () => withdraw(user, usdt('10'))),
      );
      const codes = replies.map((r) => r.body.code);
      expect(codes.filter((c) => c === 0)).toHaveLength(90);
      expect(codes.filter((c) => c !== 0).every((c) => c === 2001)).toBe(true);
      expect(await spot(user)).toMatchObject({ available: '10.5', locked: '990' });
      const rows = await queryRows<{ n: string }>(
        t.database.db,
        sql`select count(*)::text as n from withdrawals where user_id = ${Number(user.uid)}`,
      );
      expect(rows[0]?.n).toBe('90');
      const negative = await queryRows(
        t.database.db,
        sql`select name from ledger_accounts where kind = 'user' and (available < 0 or locked < 0)`,
      );
      expect(negative).toEqual([]);
      expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
    },
  );
});

describe('the fee the user saw', () => {
  it('a request carrying a fee an operator changed since is refused, localized, and locks nothing; card withdrawals too', async () => {
    const user = await readyUser();
    const [row] = await queryRows<{ fee: string }>(
      t.database.db,
      sql`select withdraw_fee_minor::text as fee from assets where code = 'USDT'`,
    );
    const shown = (BigInt(row?.fee ?? '0') / 1_000_000n).toString();
    await t.database.db.execute(
      sql`update assets set withdraw_fee_minor = withdraw_fee_minor + 5000000 where code = 'USDT'`,
    );
    try {
      const before = await spot(user);
      const refused = await withdraw(user, usdt('20', { fee: shown }), { lang: 'de' });
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body.code).toBe(2313);
      expect(refused.body.message).toContain('Auszahlungsgebühr');
      expect(refused.body.message).toContain(
        `${(BigInt(row?.fee ?? '0') / 1_000_000n + 5n).toString()} USDT`,
      );
      await addCard(user);
      const cards = (
        await call<{ cards: { id: string }[] }>(t.app, 'GET', '/api/v1/withdrawals/options', {
          token: user.token,
        })
      ).body.data.cards;
      const card = await cardWithdraw(user, {
        cardId: cards[0]?.id,
        amount: '20',
        fee: shown,
        password: PIN,
      });
      expect(card.body.code).toBe(2313);
      expect(await spot(user)).toEqual(before);
      expect(await history(user)).toEqual([]);
      // With the fee now shown, it goes through and locks amount + the new fee.
      const fee = (BigInt(row?.fee ?? '0') / 1_000_000n + 5n).toString();
      const accepted = await withdraw(user, usdt('20', { fee }));
      expect(accepted.body.code, JSON.stringify(accepted.body)).toBe(0);
      expect(accepted.body.data).toMatchObject({ amount: '20', fee });
    } finally {
      await t.database.db.execute(
        sql`update assets set withdraw_fee_minor = withdraw_fee_minor - 5000000 where code = 'USDT'`,
      );
    }
  });
});
