import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Adjustment, AdminUserDetail, UserSearch } from '@tradewind/contract/user-admin';
import type { FundsPage } from '@tradewind/contract/funds';
import type { MessageList } from '@tradewind/contract/messages';
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
  uniqueEmail,
} from './harness.ts';

/**
 * The console's Users section (issue 7): search and a read-only detail; freeze/unfreeze
 * (no sign-in, no money movement, balances untouched); manual adjustments that a second
 * admin approves into exactly one `system` ledger entry whose reason the user sees.
 */

let t: TestApp;
let admin: { token: string; username: string };
let admin2: { token: string; username: string };
let reviewer: { token: string; username: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await operatorToken(t, 'admin');
  admin2 = await operatorToken(t, 'admin');
  reviewer = await operatorToken(t, 'reviewer');
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof registerUser>>;

async function balancesOf(uid: string) {
  return queryRows<{ name: string; available: string; locked: string }>(
    t.database.db,
    sql`select name, available::text, locked::text from ledger_accounts where user_id = ${Number(uid)} order by name`,
  );
}

async function auditOf(action: string, targetId: string) {
  return queryRows<{
    before: string | null;
    after: string | null;
    reason: string | null;
    operator_id: string;
  }>(
    t.database.db,
    sql`select before, after, reason, operator_id::text from audit_log where action = ${action} and target_id = ${targetId} order by id`,
  );
}

const op = (token: string) => ({ token });
const money = (token: string, body: unknown) => ({
  token,
  body,
  headers: { 'idempotency-key': idempotencyKey() },
});

describe('search and read-only detail', () => {
  it('finds a user by uid, email, phone or nickname; a reviewer may read; a user token may not', async () => {
    const email = uniqueEmail('findme');
    const user = await registerUser(t.app, email);
    await fund(t, Number(user.uid), 25_000_000n);
    for (const q of [user.uid, email.slice(0, 10).toUpperCase(), email.split('@')[0] as string]) {
      const reply = await call<UserSearch>(
        t.app,
        'GET',
        `/api/admin/v1/users/search?q=${encodeURIComponent(q)}`,
        op(reviewer.token),
      );
      expect(reply.body.code).toBe(0);
      expect(reply.body.data.items.map((u) => u.uid)).toContain(user.uid);
    }
    // LIKE's wildcards match literally: "%" finds nobody rather than everybody.
    const wild = await call<UserSearch>(
      t.app,
      'GET',
      '/api/admin/v1/users/search?q=%25',
      op(reviewer.token),
    );
    expect(wild.body.data.items).toEqual([]);
    expect(
      (await call(t.app, 'GET', `/api/admin/v1/users/search?q=${user.uid}`, { token: user.token }))
        .status,
    ).toBe(401);
    expect(
      (await call(t.app, 'GET', '/api/admin/v1/users/search?q=', op(reviewer.token))).body.code,
    ).toBe(422);

    const detail = await call<AdminUserDetail>(
      t.app,
      'GET',
      `/api/admin/v1/users/detail?uid=${user.uid}`,
      op(reviewer.token),
    );
    expect(detail.body.data.profile).toMatchObject({
      uid: user.uid,
      email,
      frozenAt: null,
      frozenReason: null,
      verified: false,
      language: 'en',
    });
    expect(detail.body.data.balances).toEqual([
      { wallet: 'spot', asset: 'USDT', available: '25', locked: '0' },
    ]);
    expect(detail.body.data.activeSessions).toBe(1);
    const postings = await call<FundsPage>(
      t.app,
      'GET',
      `/api/admin/v1/users/postings?uid=${user.uid}`,
      op(reviewer.token),
    );
    expect(postings.body.data.items).toMatchObject([
      { type: 'deposit', amount: '25', asset: 'USDT' },
    ]);
    const orders = await call<{ items: unknown[] }>(
      t.app,
      'GET',
      `/api/admin/v1/users/orders?uid=${user.uid}`,
      op(reviewer.token),
    );
    expect(orders.body.data.items).toEqual([]);
    const missing = await call(
      t.app,
      'GET',
      '/api/admin/v1/users/detail?uid=99999999',
      op(reviewer.token),
    );
    expect(missing.body.code).toBe(3540);
  });
});

describe('freeze and unfreeze', () => {
  let user: User;
  beforeAll(async () => {
    user = await registerUser(t.app);
    await fund(t, Number(user.uid), 50_000_000n);
  });

  it('needs an admin and a reason; bad input changes nothing', async () => {
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/users/freeze', {
          ...op(reviewer.token),
          body: { uid: user.uid, reason: 'x' },
        })
      ).body.code,
    ).toBe(403);
    const noReason = await call(t.app, 'POST', '/api/admin/v1/users/freeze', {
      ...op(admin.token),
      body: { uid: user.uid, reason: '  ' },
    });
    expect(noReason.body.code).toBe(422);
    expect(noReason.body.errors?.reason).toBeDefined();
    const [row] = await queryRows<{ frozen_at: Date | null }>(
      t.database.db,
      sql`select frozen_at from users where id = ${Number(user.uid)}`,
    );
    expect(row?.frozen_at).toBeNull();
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/users/unfreeze', {
          ...op(admin.token),
          body: { uid: user.uid, reason: 'not frozen' },
        })
      ).body.code,
    ).toBe(3542);
  });

  it('a frozen user is signed out, cannot sign in, and keeps their balances; unfreezing restores sign-in and money movement', async () => {
    const before = await balancesOf(user.uid);
    const frozen = await call<{ frozenAt: string; sessionsRevoked: number }>(
      t.app,
      'POST',
      '/api/admin/v1/users/freeze',
      {
        ...op(admin.token),
        body: { uid: user.uid, reason: 'Suspected account takeover' },
      },
    );
    expect(frozen.body.code).toBe(0);
    expect(frozen.body.data.sessionsRevoked).toBe(1);
    // The user's next API call is refused: the session is gone.
    const next = await call(t.app, 'GET', '/api/v1/user/profile', { token: user.token });
    expect([401, 411]).toContain(next.body.code);
    const signIn = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account: user.account, password: PASSWORD },
    });
    expect(signIn.body.code).toBe(1011);
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/users/freeze', {
          ...op(admin.token),
          body: { uid: user.uid, reason: 'again' },
        })
      ).body.code,
    ).toBe(3541);

    const detail = await call<AdminUserDetail>(
      t.app,
      'GET',
      `/api/admin/v1/users/detail?uid=${user.uid}`,
      op(reviewer.token),
    );
    expect(detail.body.data.profile.frozenReason).toBe('Suspected account takeover');
    expect(detail.body.data.activeSessions).toBe(0);
    const [audit] = await auditOf('user.freeze', user.uid);
    expect(audit?.reason).toBe('Suspected account takeover');
    expect(JSON.parse(audit?.before ?? '{}')).toEqual({ frozenAt: null, frozenReason: null });
    expect(JSON.parse(audit?.after ?? '{}')).toMatchObject({
      frozenReason: 'Suspected account takeover',
      sessionsRevoked: 1,
    });

    const thawed = await call(t.app, 'POST', '/api/admin/v1/users/unfreeze', {
      ...op(admin.token),
      body: { uid: user.uid, reason: 'Owner verified by phone' },
    });
    expect(thawed.body.code).toBe(0);
    expect(await balancesOf(user.uid)).toEqual(before);
    const [unfreezeAudit] = await auditOf('user.unfreeze', user.uid);
    expect(unfreezeAudit?.reason).toBe('Owner verified by phone');
    const again = await call<{ token: string }>(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account: user.account, password: PASSWORD },
    });
    expect(again.body.code).toBe(0);
    const moved = await call(
      t.app,
      'POST',
      '/api/v1/wallet/transfer',
      money(again.body.data.token, { from: 'spot', to: 'futures', asset: 'USDT', amount: '5' }),
    );
    expect(moved.body.code).toBe(0);
  });

  it('every money-moving service refuses a frozen account (even through a session that outlived the freeze), and nothing moves', async () => {
    const victim = await registerUser(t.app);
    await fund(t, Number(victim.uid), 100_000_000n);
    await fund(t, Number(victim.uid), 100_000_000n, 'futures');
    // Set the flag directly, keeping the session: this exercises the money guard itself,
    // not the session revocation a freeze also does.
    await t.database.db.execute(
      sql`update users set frozen_at = now(), frozen_reason = 'test', verified = true where id = ${Number(victim.uid)}`,
    );
    const before = await balancesOf(victim.uid);
    const attempts: [string, unknown][] = [
      ['/api/v1/wallet/transfer', { from: 'spot', to: 'futures', asset: 'USDT', amount: '1' }],
      ['/api/v1/convert', { quoteId: 'a'.repeat(22) }],
      [
        '/api/v1/contracts/orders',
        { symbol: 'BTCUSDT', direction: 'up', periodId: 1, amount: '10' },
      ],
      [
        '/api/v1/withdrawals',
        {
          asset: 'USDT',
          network: 'TRC20',
          address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
          amount: '20',
          password: '123456',
        },
      ],
      ['/api/v1/withdrawals/card', { cardId: '1', amount: '20', password: '123456' }],
      ['/api/v1/card-deposits', { amount: '100', screenshotFileId: '1' }],
      ['/api/v1/ieo/subscribe', { projectId: '1', price: '1', quantity: '1' }],
      ['/api/v1/mining/rentals', { productId: '1', quantity: 1, amount: '100' }],
      ['/api/v1/bonus-codes/redeem', { code: 'WELCOME' }],
      [
        '/api/v1/loans',
        {
          productId: '1',
          amount: '100',
          periodDays: 7,
          frontFileId: '1',
          backFileId: '2',
          holdingFileId: '3',
        },
      ],
    ];
    for (const [url, body] of attempts) {
      const reply = await call(t.app, 'POST', url, money(victim.token, body));
      expect({ url, code: reply.body.code, status: reply.status }).toEqual({
        url,
        code: 1011,
        status: 403,
      });
    }
    // Repaying a loan is not guarded (it only pays down a debt to the house): the refusal is about the loan, not the freeze.
    expect(
      (await call(t.app, 'POST', '/api/v1/loans/repay', money(victim.token, { id: '999999' }))).body
        .code,
    ).toBe(3455);
    expect(await balancesOf(victim.uid)).toEqual(before);
    await t.database.db.execute(
      sql`update users set frozen_at = null, frozen_reason = null where id = ${Number(victim.uid)}`,
    );
    const moved = await call(
      t.app,
      'POST',
      '/api/v1/wallet/transfer',
      money(victim.token, { from: 'spot', to: 'futures', asset: 'USDT', amount: '1' }),
    );
    expect(moved.body.code).toBe(0);
  });
});

describe('manual adjustments', () => {
  let user: User;
  beforeAll(async () => {
    user = await registerUser(t.app);
    await fund(t, Number(user.uid), 10_000_000n);
  });

  const request = (token: string, body: Record<string, unknown>) =>
    call<Adjustment>(t.app, 'POST', '/api/admin/v1/users/adjustments', {
      token,
      body: { uid: user.uid, wallet: 'spot', asset: 'USDT', ...body },
    });
  const decide = (token: string, body: Record<string, unknown>) =>
    call<Adjustment>(t.app, 'POST', '/api/admin/v1/users/adjustments/decide', { token, body });

  it('a request moves nothing; bad input is refused with a field error', async () => {
    const before = await balancesOf(user.uid);
    expect(
      (await request(admin.token, { amount: '1.0000001', reason: 'r' })).body.errors?.amount,
    ).toBeDefined();
    expect((await request(admin.token, { amount: '0', reason: 'r' })).body.code).toBe(422);
    expect(
      (await request(admin.token, { amount: '5', reason: '' })).body.errors?.reason,
    ).toBeDefined();
    expect(
      (await request(admin.token, { wallet: 'futures', asset: 'BTC', amount: '1', reason: 'r' }))
        .body.errors?.asset,
    ).toBeDefined();
    expect((await request(reviewer.token, { amount: '5', reason: 'r' })).body.code).toBe(403);
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/users/adjustments', {
          token: admin.token,
          body: { uid: '99999999', wallet: 'spot', asset: 'USDT', amount: '5', reason: 'r' },
        })
      ).body.errors?.uid,
    ).toBeDefined();
    const pending = await request(admin.token, {
      amount: '+12.5',
      reason: 'Compensation for the 21 Nov outage',
    });
    expect(pending.body.data).toMatchObject({
      status: 'pending',
      amount: '12.5',
      requestedBy: admin.username,
      entryId: null,
    });
    expect(await balancesOf(user.uid)).toEqual(before);
    expect((await auditOf('adjustment.request', pending.body.data.id))[0]?.reason).toBe(
      'Compensation for the 21 Nov outage',
    );
    const list = await call<{ items: Adjustment[] }>(
      t.app,
      'GET',
      '/api/admin/v1/users/adjustments?status=pending',
      op(admin2.token),
    );
    expect(list.body.data.items.map((a) => a.id)).toContain(pending.body.data.id);
    // Leave nothing pending for the next tests.
    expect(
      (
        await decide(admin2.token, {
          id: pending.body.data.id,
          decision: 'reject',
          reason: 'duplicate',
        })
      ).body.data.status,
    ).toBe('rejected');
  });

  it('the requester cannot decide their own request, and the database refuses it too', async () => {
    const pending = await request(admin.token, { amount: '3', reason: 'Goodwill' });
    const self = await decide(admin.token, { id: pending.body.data.id, decision: 'approve' });
    expect(self.body.code).toBe(3544);
    const selfReject = await decide(admin.token, {
      id: pending.body.data.id,
      decision: 'reject',
      reason: 'never mind',
    });
    expect(selfReject.body.code).toBe(3544);
    await expect(
      t.database.db.execute(
        sql`update balance_adjustments set status = 'rejected', decided_by = requested_by, decided_at = now(), decision_reason = 'self' where id = ${Number(pending.body.data.id)}`,
      ),
    ).rejects.toThrow();
    const [row] = await queryRows<{ status: string }>(
      t.database.db,
      sql`select status from balance_adjustments where id = ${Number(pending.body.data.id)}`,
    );
    expect(row?.status).toBe('pending');
    expect(await auditOf('adjustment.approve', pending.body.data.id)).toEqual([]);
    // A reject needs a reason.
    expect(
      (await decide(admin2.token, { id: pending.body.data.id, decision: 'reject' })).body.errors
        ?.reason,
    ).toBeDefined();
    const rejected = await decide(admin2.token, {
      id: pending.body.data.id,
      decision: 'reject',
      reason: 'Not eligible',
    });
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      decidedBy: admin2.username,
      decisionReason: 'Not eligible',
      entryId: null,
    });
    expect(
      (await decide(admin2.token, { id: pending.body.data.id, decision: 'approve' })).body.code,
    ).toBe(3545);
    expect((await auditOf('adjustment.reject', pending.body.data.id))[0]?.reason).toBe(
      'Not eligible',
    );
  });

  it('approval by a second admin posts exactly one system entry; the user sees the reason in their funds detail', async () => {
    const reason = 'Compensation for the 21 Nov outage';
    const pending = await request(admin.token, { amount: '12.5', reason });
    const approved = await decide(admin2.token, { id: pending.body.data.id, decision: 'approve' });
    expect(approved.body.data).toMatchObject({ status: 'approved', decidedBy: admin2.username });
    expect(await balancesOf(user.uid)).toContainEqual({
      name: `user:${user.uid}:spot:USDT`,
      available: '22500000',
      locked: '0',
    });
    const entries = await queryRows<{ kind: string; memo: string; n: number; types: string }>(
      t.database.db,
      sql`select e.kind, e.memo, count(p.id)::int as n, string_agg(distinct p.type, ',') as types from ledger_entries e join ledger_postings p on p.entry_id = e.id
          where e.reference = ${`adjustment:${pending.body.data.id}`} group by e.id`,
    );
    expect(entries).toEqual([{ kind: 'adjustment', memo: reason, n: 2, types: 'system' }]);
    const [house] = await queryRows<{ available: string }>(
      t.database.db,
      sql`select available::text from ledger_accounts where name = 'house:adjustments:USDT'`,
    );
    expect(house?.available).toBe('-12500000');
    const funds = await call<FundsPage>(t.app, 'GET', '/api/v1/funds/postings?type=system', {
      token: user.token,
    });
    expect(funds.body.data.items).toMatchObject([{ type: 'system', amount: '12.5', memo: reason }]);
    // …and in their inbox, once; the rejected requests before this one wrote nothing.
    const inbox = await call<MessageList>(t.app, 'GET', '/api/v1/messages', { token: user.token });
    expect(inbox.body.data.items.filter((m) => m.kind === 'account.adjusted')).toMatchObject([
      {
        title: 'Balance adjusted',
        body: `Your spot account was adjusted by +12.5 USDT. Reason: ${reason}`,
        link: '/WalletDetail',
        read: false,
      },
    ]);
    const [audit] = await auditOf('adjustment.approve', pending.body.data.id);
    expect(JSON.parse(audit?.before ?? '{}')).toMatchObject({ status: 'pending' });
    expect(JSON.parse(audit?.after ?? '{}')).toMatchObject({
      status: 'approved',
      entryId: approved.body.data.entryId,
    });
  });

  it('two concurrent approvals post one entry', async () => {
    const admin3 = await operatorToken(t, 'admin');
    const pending = await request(admin.token, { amount: '1', reason: 'Rounding correction' });
    const before = BigInt(
      (await balancesOf(user.uid)).find((b) => b.name.endsWith(':spot:USDT'))?.available ?? '0',
    );
    const replies = await Promise.all([
      decide(admin2.token, { id: pending.body.data.id, decision: 'approve' }),
      decide(admin3.token, { id: pending.body.data.id, decision: 'approve' }),
    ]);
    expect(replies.map((r) => r.body.code).sort()).toEqual([0, 3545]);
    const after = BigInt(
      (await balancesOf(user.uid)).find((b) => b.name.endsWith(':spot:USDT'))?.available ?? '0',
    );
    expect(after - before).toBe(1_000_000n);
    const [count] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from ledger_entries where reference = ${`adjustment:${pending.body.data.id}`}`,
    );
    expect(count?.n).toBe(1);
  });

  it('a debit may not take the available balance below zero: the ledger refuses and the request stays pending', async () => {
    const available =
      (await balancesOf(user.uid)).find((b) => b.name.endsWith(':spot:USDT'))?.available ?? '0';
    const pending = await request(admin.token, {
      amount: '-1000',
      reason: 'Reverse duplicate credit',
    });
    const refused = await decide(admin2.token, { id: pending.body.data.id, decision: 'approve' });
    expect(refused.body.code).toBe(2001);
    const [row] = await queryRows<{ status: string }>(
      t.database.db,
      sql`select status from balance_adjustments where id = ${Number(pending.body.data.id)}`,
    );
    expect(row?.status).toBe('pending');
    expect((await balancesOf(user.uid)).find((b) => b.name.endsWith(':spot:USDT'))?.available).toBe(
      available,
    );
    // A debit within the balance goes through, as a negative system posting.
    const small = await request(admin.token, { amount: '-2', reason: 'Reverse duplicate credit' });
    expect(
      (await decide(admin2.token, { id: small.body.data.id, decision: 'approve' })).body.code,
    ).toBe(0);
    expect(
      BigInt(
        (await balancesOf(user.uid)).find((b) => b.name.endsWith(':spot:USDT'))?.available ?? '0',
      ),
    ).toBe(BigInt(available) - 2_000_000n);
    await decide(admin2.token, {
      id: pending.body.data.id,
      decision: 'reject',
      reason: 'Too large',
    });
  });
});
