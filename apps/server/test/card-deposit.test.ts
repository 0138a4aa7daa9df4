import { quoteCardDeposit } from '@tradewind/contract/card-deposit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../src/modules/card-deposit/ops.ts';
import { createCardDeposit, listCardDeposits } from '../src/modules/card-deposit/service.ts';
import type { OpsContext } from '../src/modules/operator/ops-commands.ts';
import { OPS_COMMANDS } from '../src/ops-commands.ts';
import { findOperator } from '../src/modules/operator/service.ts';
import {
  ConfigError,
  DEMO_CARD_PAYEE,
  loadConfig,
  parseSharedSettings,
} from '../src/platform/config.ts';
import { type Tx, queryRows } from '../src/platform/db.ts';
import { AppError } from '../src/platform/errors.ts';
import {
  type TestApp,
  call,
  createTestApp,
  idempotencyKey,
  operatorToken,
  registerUser,
} from './harness.ts';
import { pngImage, tempDataDir, upload } from './uploads.ts';

const FEE_BPS = 150;
let t: TestApp;
let reviewer: { token: string; username: string };
let admin: { token: string; username: string };
const data = tempDataDir();
beforeAll(async () => {
  t = await createTestApp({ env: { DATA_DIR: data.dir, CARD_DEPOSIT_FEE_BPS: String(FEE_BPS) } });
  reviewer = await operatorToken(t, 'reviewer');
  admin = await operatorToken(t, 'admin');
});
afterAll(async () => {
  await t.close();
  data.remove();
});

type User = { token: string; uid: string };
interface Deposit {
  id: string;
  status: string;
  amount: string;
  fee: string;
  actualAmount: string;
  reason: string | null;
  screenshotFileId: string;
  payee: { bank: string; cardNumber: string; name: string; phone: string };
}

async function screenshot(user: User, purpose = 'card_deposit'): Promise<string> {
  const reply = await upload(t.app, user.token, { purpose, data: await pngImage(90, 160) });
  if (reply.body.code !== 0) throw new Error(`upload failed: ${JSON.stringify(reply.body)}`);
  return reply.body.data.id;
}

const report = (user: User, body: unknown, key: string | null = idempotencyKey(), lang?: string) =>
  call<Deposit>(t.app, 'POST', '/api/v1/card-deposits', {
    token: user.token,
    body,
    lang,
    headers: key ? { 'idempotency-key': key } : {},
  });
const history = (user: User, cursor?: string) =>
  call<{ items: Deposit[]; nextCursor: string | null }>(
    t.app,
    'GET',
    `/api/v1/card-deposits${cursor ? `?cursor=${cursor}` : ''}`,
    { token: user.token },
  );
const decide = (token: string, body: Record<string, unknown>) =>
  call<Deposit & { uid: string }>(t.app, 'POST', '/api/admin/v1/card-deposits/decide', {
    token,
    body,
  });
const spotUsdt = async (user: User) =>
  (
    await call<{ spot: { asset: string; available: string; locked: string }[] }>(
      t.app,
      'GET',
      '/api/v1/wallet/balances',
      { token: user.token },
    )
  ).body.data.spot.find((s) => s.asset === 'USDT');
const accountBalance = async (name: string) => {
  const [row] = await queryRows<{ available: string }>(
    t.database.db,
    sql`select available::text from ledger_accounts where name = ${name}`,
  );
  return BigInt(row?.available ?? '0');
};
const entriesFor = (id: string) =>
  queryRows<{ id: string; kind: string; user_id: string }>(
    t.database.db,
    sql`select id::text, kind, user_id::text from ledger_entries where reference = ${`card_deposit:${id}:credit`}`,
  );
const rowsOf = (user: User) =>
  queryRows<{ id: string; status: string }>(
    t.database.db,
    sql`select id::text, status from card_deposits where user_id = ${Number(user.uid)} order by id`,
  );

async function pending(amount = '100'): Promise<{ user: User; deposit: Deposit }> {
  const user = await registerUser(t.app);
  const reply = await report(user, { amount, screenshotFileId: await screenshot(user) });
  if (reply.body.code !== 0) throw new Error(`report failed: ${JSON.stringify(reply.body)}`);
  return { user, deposit: reply.body.data };
}

describe('bank-card deposit: payee, fee and actual amount', () => {
  it('the screen gets the payee, the fee rule and the limits (demo payee in demo mode)', async () => {
    const user = await registerUser(t.app);
    const reply = await call(t.app, 'GET', '/api/v1/card-deposits/config', { token: user.token });
    expect(reply.body.data).toEqual({
      available: true,
      demo: true,
      asset: 'USDT',
      payee: DEMO_CARD_PAYEE,
      feeBps: FEE_BPS,
      minAmount: '10',
      maxAmount: '100000',
    });
    expect((await call(t.app, 'GET', '/api/v1/card-deposits/config')).body.code).toBe(401);
  });

  it('reporting a payment records it as pending payment with the fee rounded up; no money moves', async () => {
    const user = await registerUser(t.app);
    const fileId = await screenshot(user);
    const reply = await report(user, { amount: '100.000001', screenshotFileId: fileId });
    expect(reply.body.code).toBe(0);
    // 100.000001 × 1.5% = 1.500000015 → rounded up to 1.500001; the user gets 98.5.
    expect(reply.body.data).toMatchObject({
      status: 'pending',
      amount: '100.000001',
      fee: '1.500001',
      actualAmount: '98.5',
      reason: null,
      screenshotFileId: fileId,
      payee: DEMO_CARD_PAYEE,
    });
    // The screen computes the same figures with the shared function before submitting.
    expect(quoteCardDeposit('100.000001', FEE_BPS)).toMatchObject({
      fee: '1.500001',
      actualAmount: '98.5',
    });
    expect(await spotUsdt(user)).toMatchObject({ available: '0', locked: '0' });
    expect(await entriesFor(reply.body.data.id)).toEqual([]);
    const list = await history(user);
    expect(list.body.data.items.map((d) => [d.id, d.status])).toEqual([
      [reply.body.data.id, 'pending'],
    ]);
  });

  it('an operator confirms: one entry credits the actual amount and posts the fee to the house', async () => {
    const { user, deposit } = await pending('100.000001');
    const feesBefore = await accountBalance('house:fees:USDT');
    const bankBefore = await accountBalance('external:bank:USDT');
    const confirmed = await decide(reviewer.token, { id: deposit.id, decision: 'approve' });
    expect(confirmed.body.code).toBe(0);
    expect(confirmed.body.data).toMatchObject({
      id: deposit.id,
      uid: user.uid,
      status: 'paid',
      reason: null,
    });

    expect(await spotUsdt(user)).toMatchObject({ available: '98.5', locked: '0' });
    expect((await accountBalance('house:fees:USDT')) - feesBefore).toBe(1_500_001n);
    expect((await accountBalance('external:bank:USDT')) - bankBefore).toBe(-100_000_001n);
    const entries = await entriesFor(deposit.id);
    expect(entries).toEqual([{ id: entries[0]?.id, kind: 'card_deposit', user_id: user.uid }]);
    const postings = await queryRows<{ account: string; type: string; amount: string }>(
      t.database.db,
      sql`select a.name as account, p.type, p.amount::text from ledger_postings p join ledger_accounts a on a.id = p.account_id where p.entry_id = ${Number(entries[0]?.id)} order by p.amount`,
    );
    expect(postings).toEqual([
      { account: 'external:bank:USDT', type: 'deposit', amount: '-100000001' },
      { account: 'house:fees:USDT', type: 'deposit_fee', amount: '1500001' },
      { account: `user:${user.uid}:spot:USDT`, type: 'deposit', amount: '98500000' },
    ]);
    expect((await history(user)).body.data.items[0]).toMatchObject({
      id: deposit.id,
      status: 'paid',
    });

    const [audit] = (
      await call<{ items: { operator: string; action: string; before: string; after: string }[] }>(
        t.app,
        'GET',
        `/api/admin/v1/audit?targetType=card_deposit&targetId=${deposit.id}`,
        { token: admin.token },
      )
    ).body.data.items;
    expect(audit).toMatchObject({ operator: reviewer.username, action: 'card_deposit.approve' });
    expect(JSON.parse(audit?.after ?? '{}')).toEqual({
      status: 'paid',
      entryId: Number(entries[0]?.id),
      credited: '98.5',
    });
  });

  it('with no fee, the whole amount is credited in two postings', async () => {
    const user = await registerUser(t.app);
    // The install's fee (shared_settings), as two admins would have set it: every node applies it.
    const setFee = (bps: number) =>
      t.database.db.execute(
        sql`insert into shared_settings (name, value, set_by, set_at) values ('CARD_DEPOSIT_FEE_BPS', ${String(bps)}, 'test', now())
            on conflict (name) do update set value = excluded.value`,
      );
    await setFee(0);
    const fileId = await screenshot(user);
    const deposit = await t.database.db
      .transaction((tx) =>
        createCardDeposit(
          tx as unknown as Tx,
          t.clock.now(),
          t.app.services.config,
          Number(user.uid),
          { amount: '12.5', screenshotFileId: fileId },
        ),
      )
      .finally(() => setFee(FEE_BPS));
    expect(deposit).toMatchObject({ amount: '12.5', fee: '0', actualAmount: '12.5' });
    expect((await decide(reviewer.token, { id: deposit.id, decision: 'approve' })).body.code).toBe(
      0,
    );
    expect((await spotUsdt(user))?.available).toBe('12.5');
    const [entry] = await entriesFor(deposit.id);
    const count = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from ledger_postings where entry_id = ${Number(entry?.id)}`,
    );
    expect(count[0]?.n).toBe('2');
  });

  it('confirm credits exactly once: decided twice at once, one credit and one INVALID_STATE', async () => {
    const { user, deposit } = await pending('50');
    const replies = await Promise.all([
      decide(reviewer.token, { id: deposit.id, decision: 'approve' }),
      decide(admin.token, { id: deposit.id, decision: 'approve' }),
      decide(reviewer.token, { id: deposit.id, decision: 'approve' }),
      decide(admin.token, { id: deposit.id, decision: 'reject', reason: 'duplicate' }),
    ]);
    const codes = replies.map((r) => r.body.code).sort();
    expect(codes).toEqual([0, 2501, 2501, 2501]);
    const winner = replies.find((r) => r.body.code === 0)?.body.data;
    const expected = winner?.status === 'paid' ? '49.25' : '0';
    expect((await spotUsdt(user))?.available).toBe(expected);
    expect(await entriesFor(deposit.id)).toHaveLength(winner?.status === 'paid' ? 1 : 0);
    // And afterwards, once more, sequentially.
    const again = await decide(reviewer.token, { id: deposit.id, decision: 'approve' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(2501);
    expect((await spotUsdt(user))?.available).toBe(expected);
  });

  it('reject changes no balance, and the user sees the reason', async () => {
    const { user, deposit } = await pending('20');
    const feesBefore = await accountBalance('house:fees:USDT');
    const rejected = await decide(reviewer.token, {
      id: deposit.id,
      decision: 'reject',
      reason: 'No payment of 20 USDT arrived.',
    });
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      reason: 'No payment of 20 USDT arrived.',
    });
    expect(await spotUsdt(user)).toMatchObject({ available: '0', locked: '0' });
    expect(await accountBalance('house:fees:USDT')).toBe(feesBefore);
    expect(await entriesFor(deposit.id)).toEqual([]);
    expect((await history(user)).body.data.items[0]).toMatchObject({
      id: deposit.id,
      status: 'rejected',
      reason: 'No payment of 20 USDT arrived.',
    });
    expect((await decide(admin.token, { id: deposit.id, decision: 'approve' })).body.code).toBe(
      2501,
    );
    expect(await spotUsdt(user)).toMatchObject({ available: '0' });
  });

  it('reject without a reason → 422 and it stays pending', async () => {
    const { user, deposit } = await pending('20');
    const reply = await decide(reviewer.token, { id: deposit.id, decision: 'reject' });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ reason: ['A reason is required.'] });
    expect((await history(user)).body.data.items[0]?.status).toBe('pending');
  });

  it('operator routes: reviewers and admins only; an unknown id is NOT_FOUND', async () => {
    const { user, deposit } = await pending('20');
    const catalog = await operatorToken(t, 'catalog');
    expect((await decide(catalog.token, { id: deposit.id, decision: 'approve' })).status).toBe(403);
    expect((await decide(user.token, { id: deposit.id, decision: 'approve' })).body.code).toBe(401);
    expect(
      (await call(t.app, 'GET', '/api/admin/v1/card-deposits/queue', { token: user.token })).body
        .code,
    ).toBe(401);
    expect((await decide(reviewer.token, { id: '777777777', decision: 'approve' })).body.code).toBe(
      404,
    );
    const queue = await call<{ items: (Deposit & { uid: string })[] }>(
      t.app,
      'GET',
      '/api/admin/v1/card-deposits/queue',
      { token: reviewer.token },
    );
    expect(queue.body.data.items.find((i) => i.id === deposit.id)).toMatchObject({
      uid: user.uid,
      amount: '20',
      fee: '0.3',
      actualAmount: '19.7',
    });
    expect(await spotUsdt(user)).toMatchObject({ available: '0' });
  });
});

describe('reporting a payment: input, idempotency, limits', () => {
  it.each([
    ['5', 'amount', 'Enter an amount from 10 to 100000 USDT.'],
    ['100000.000001', 'amount', 'Enter an amount from 10 to 100000 USDT.'],
    ['10.0000001', 'amount', 'Enter an amount greater than zero with at most 6 decimal places.'],
    ['ten', 'amount', 'Enter an amount such as 12.5.'],
    ['0', 'amount', 'The amount must be greater than zero.'],
  ])('amount %s → 422 on %s; nothing stored', async (amount, field, message) => {
    const user = await registerUser(t.app);
    const reply = await report(user, { amount, screenshotFileId: await screenshot(user) });
    expect(reply.status).toBe(422);
    expect(reply.body.errors?.[field]).toEqual([message]);
    expect(await rowsOf(user)).toEqual([]);
  });

  it('the screenshot is required', async () => {
    const user = await registerUser(t.app);
    const reply = await report(user, { amount: '10' });
    expect(reply.body.errors).toEqual({ screenshotFileId: ['This field is required.'] });
  });

  it('an Idempotency-Key is required; a replay returns the first reply and records one deposit', async () => {
    const user = await registerUser(t.app);
    const body = { amount: '30', screenshotFileId: await screenshot(user) };
    const missing = await report(user, body, null);
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors ?? {})).toEqual(['Idempotency-Key']);
    expect(await rowsOf(user)).toEqual([]);

    const key = idempotencyKey();
    const first = await report(user, body, key);
    const replays = await Promise.all(Array.from({ length: 5 }, () => report(user, body, key)));
    for (const replay of replays) expect(replay.body).toEqual(first.body);
    expect(await rowsOf(user)).toHaveLength(1);

    const reuse = await report(user, { ...body, amount: '31' }, key);
    expect(reuse.status).toBe(409);
    expect(reuse.body.code).toBe(2003);
    expect(await rowsOf(user)).toHaveLength(1);
  });

  it('one screenshot backs one deposit', async () => {
    const user = await registerUser(t.app);
    const fileId = await screenshot(user);
    expect((await report(user, { amount: '10', screenshotFileId: fileId })).body.code).toBe(0);
    const again = await report(user, { amount: '11', screenshotFileId: fileId });
    expect(again.body.errors).toEqual({
      screenshotFileId: ['This image was already used. Please upload a new one.'],
    });
    expect(await rowsOf(user)).toHaveLength(1);
  });

  it('at most 5 deposits wait for review per user', async () => {
    const user = await registerUser(t.app);
    for (let i = 0; i < 5; i++)
      expect(
        (await report(user, { amount: '10', screenshotFileId: await screenshot(user) })).body.code,
      ).toBe(0);
    const sixth = await report(user, { amount: '10', screenshotFileId: await screenshot(user) });
    expect(sixth.status).toBe(409);
    expect(sixth.body).toMatchObject({
      code: 2242,
      message:
        'You already have 5 deposits waiting for review. Please wait until they are processed.',
    });
    expect(await rowsOf(user)).toHaveLength(5);
  });

  it('unavailable without a payee: refused, nothing stored', async () => {
    const user = await registerUser(t.app);
    const fileId = await screenshot(user);
    const off = {
      ...t.app.services.config,
      cardDeposit: { ...t.app.services.config.cardDeposit, payee: null },
    };
    const attempt = t.database.db.transaction((tx) =>
      createCardDeposit(tx as unknown as Tx, t.clock.now(), off, Number(user.uid), {
        amount: '10',
        screenshotFileId: fileId,
      }),
    );
    await expect(attempt).rejects.toMatchObject({ errorName: 'CARD_DEPOSIT_UNAVAILABLE' });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    expect(await rowsOf(user)).toEqual([]);
  });
});

describe("another user's ids are denied everywhere", () => {
  it("another user's screenshot is 'not found' on its field; a KYC photo is for something else", async () => {
    const owner = await registerUser(t.app);
    const thief = await registerUser(t.app);
    const theirs = await screenshot(owner);
    const stolen = await report(thief, { amount: '10', screenshotFileId: theirs });
    expect(stolen.status).toBe(422);
    expect(stolen.body.errors).toEqual({
      screenshotFileId: ['This image was not found. Please upload it again.'],
    });
    const kycPhoto = await report(thief, {
      amount: '10',
      screenshotFileId: await screenshot(thief, 'kyc'),
    });
    expect(kycPhoto.body.errors).toEqual({
      screenshotFileId: [
        'This image was uploaded for something else. Please upload it again here.',
      ],
    });
    expect(await rowsOf(thief)).toEqual([]);
    // The owner can still use it.
    expect((await report(owner, { amount: '10', screenshotFileId: theirs })).body.code).toBe(0);
  });

  it("a user's history holds only their deposits, and their screenshots stay theirs", async () => {
    const { user, deposit } = await pending('15');
    const other = await registerUser(t.app);
    expect((await history(other)).body.data).toEqual({ items: [], nextCursor: null });
    expect((await history(other, deposit.id)).body.data.items).toEqual([]);
    expect(
      (
        await call(t.app, 'GET', `/api/v1/files/content?id=${deposit.screenshotFileId}`, {
          token: other.token,
        })
      ).body.code,
    ).toBe(404);
    expect((await history(user)).body.data.items.map((d) => d.id)).toEqual([deposit.id]);
  });
});

describe('history: newest first, cursor pagination', () => {
  it('22 deposits come back in pages of 20, newest first, each once', async () => {
    const user = await registerUser(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) {
      const reply = await report(user, {
        amount: String(10 + i),
        screenshotFileId: await screenshot(user),
      });
      ids.push(reply.body.data.id);
      // Keep under the pending cap: reject every one (a reason the user sees).
      await decide(reviewer.token, {
        id: reply.body.data.id,
        decision: 'reject',
        reason: `test ${i}`,
      });
    }
    const first = await history(user);
    expect(first.body.data.items).toHaveLength(20);
    expect(first.body.data.nextCursor).toBe(ids[2]);
    const second = await history(user, first.body.data.nextCursor ?? undefined);
    expect(second.body.data.nextCursor).toBeNull();
    const seen = [...first.body.data.items, ...second.body.data.items].map((d) => d.id);
    expect(seen).toEqual([...ids].reverse());
    expect(first.body.data.items[0]).toMatchObject({
      amount: '31',
      status: 'rejected',
      reason: 'test 21',
    });
  });

  it('the service pages by any size', async () => {
    const user = await registerUser(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await report(user, { amount: '10', screenshotFileId: await screenshot(user) })).body.data
          .id,
      );
    const page1 = await listCardDeposits(t.database.db, Number(user.uid), undefined, 2);
    expect(page1.items.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    const page2 = await listCardDeposits(
      t.database.db,
      Number(user.uid),
      page1.nextCursor ?? undefined,
      2,
    );
    expect(page2).toEqual({ items: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
  });

  it('a malformed cursor is a 422', async () => {
    const user = await registerUser(t.app);
    expect((await history(user, 'abc')).status).toBe(422);
  });
});

describe('npm run ops: card-deposit:list and card-deposit:decide', () => {
  const run = async (name: string, options: Record<string, string | undefined>) => {
    const command = OPS_COMMANDS.get(name);
    if (!command) throw new Error(`${name} is not registered`);
    const operator = options.operator
      ? await findOperator(t.database.db, options.operator)
      : undefined;
    const context: OpsContext = { ...t.app.services, db: t.database.db, operator, args: [] };
    return command.run(context, options);
  };

  it('lists and confirms through the same rules, audit-logged as cli', async () => {
    const { user, deposit } = await pending('40');
    expect(await run('card-deposit:list', {})).toContain(`#${deposit.id} uid ${user.uid}`);
    await expect(
      run('card-deposit:decide', {
        id: deposit.id,
        decision: 'reject',
        operator: reviewer.username,
      }),
    ).rejects.toThrow('reason');
    expect(
      await run('card-deposit:decide', {
        id: deposit.id,
        decision: 'approve',
        operator: reviewer.username,
      }),
    ).toBe(`bank-card deposit #${deposit.id} (uid ${user.uid}) is now paid: 39.4 USDT credited`);
    await expect(
      run('card-deposit:decide', {
        id: deposit.id,
        decision: 'approve',
        operator: reviewer.username,
      }),
    ).rejects.toThrow('INVALID_STATE');
    expect((await spotUsdt(user))?.available).toBe('39.4');
    const [entry] = await queryRows<{ via: string }>(
      t.database.db,
      sql`select via from audit_log where target_type = 'card_deposit' and target_id = ${deposit.id}`,
    );
    expect(entry?.via).toBe('cli');
  });
});

describe('configuration', () => {
  it('defaults: no fee, limits 10–100000, the fake demo payee only in demo mode', () => {
    const demo = loadConfig({});
    expect(demo.cardDeposit).toEqual({ payee: DEMO_CARD_PAYEE, demoPayee: true });
    // The fee and limits are install-wide (shared settings): these are their defaults.
    expect(parseSharedSettings({}).cardDeposit).toEqual({
      feeBps: 0,
      minMinor: 10_000_000n,
      maxMinor: 100_000_000_000n,
    });
    expect(DEMO_CARD_PAYEE.name).toContain('DEMO');
    const production = loadConfig({ DEMO_MODE: 'false' });
    expect(production.cardDeposit.payee).toBeNull();
  });

  it('a configured payee is used as given, in any mode', () => {
    const payee = {
      CARD_PAYEE_BANK: 'Example Bank',
      CARD_PAYEE_NUMBER: '6222 1234 5678 9012',
      CARD_PAYEE_NAME: 'Tradewind Ltd',
      CARD_PAYEE_PHONE: '+44 20 7946 0000',
    };
    const config = loadConfig({ ...payee, DEMO_MODE: 'false', CARD_DEPOSIT_FEE_BPS: '25' });
    expect(config.cardDeposit).toMatchObject({
      payee: {
        bank: 'Example Bank',
        cardNumber: '6222 1234 5678 9012',
        name: 'Tradewind Ltd',
        phone: '+44 20 7946 0000',
      },
      demoPayee: false,
    });
    // The fee in the environment only seeds the install's value at its first start.
    expect(config.sharedSeed).toMatchObject({ CARD_DEPOSIT_FEE_BPS: '25' });
  });

  it('half a payee, a bad fee or crossed limits stop the server at boot', () => {
    expect(() => loadConfig({ CARD_PAYEE_BANK: 'Example Bank' })).toThrow(ConfigError);
    expect(() => loadConfig({ CARD_PAYEE_BANK: 'Example Bank' })).toThrow('set all four');
    expect(() => loadConfig({ CARD_DEPOSIT_FEE_BPS: '-1' })).toThrow('CARD_DEPOSIT_FEE_BPS');
    expect(() => loadConfig({ CARD_DEPOSIT_FEE_BPS: '1.5' })).toThrow('must be a whole number');
    expect(() => loadConfig({ CARD_DEPOSIT_MIN_USDT: '50', CARD_DEPOSIT_MAX_USDT: '10' })).toThrow(
      'CARD_DEPOSIT_MAX_USDT',
    );
    expect(() => loadConfig({ UPLOAD_MAX_BYTES: '0' })).toThrow('UPLOAD_MAX_BYTES');
  });
});
