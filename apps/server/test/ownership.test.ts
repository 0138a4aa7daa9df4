import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { VotePoll } from '@tradewind/contract/vote';
import { createBonusCode } from '../src/modules/invite/service.ts';
import { approveRewardBudget } from './reward-budget-helpers.ts';
import type { Message } from '@tradewind/contract/messages';
import { createPoll } from '../src/modules/vote/service.ts';
import { createProject as createIeoProject } from '../src/modules/ieo/service.ts';
import type { IeoDetail } from '@tradewind/contract/ieo';
import { queryRows } from '../src/platform/db.ts';
import { recordPrices } from './prices.ts';
import { tempDataDir } from './uploads.ts';
import {
  PASSWORD,
  type Reply,
  T0,
  TRADE_PIN,
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  lastCode,
  registerReadyUser,
  registerUser,
} from './harness.ts';
import {
  PIN,
  type User,
  demoLoanProduct,
  demoMiner,
  loanPhotos,
  ownerCard,
  ownerLoan,
  ownerMessage,
  ownerWithdrawal,
  uploadFor,
  withdrawalOwner,
} from './objects.ts';

/**
 * The ownership (BOLA) matrix: every user route that takes an object id is tried by
 * another user, who must be denied and leave the owner's object as it was. A route that
 * takes an id and has no case here fails the first test, so routes added later are
 * covered by construction.
 */

interface OwnershipCase {
  /** Creates the owner's object and returns the request that names it. */
  arrange: (t: TestApp, owner: User) => Promise<{ body?: unknown; query?: string }>;
  /** Checks the owner's object is unchanged after the intruder's attempt. */
  unchanged: (t: TestApp, owner: User) => Promise<void>;
  /**
   * The ids name public objects nobody owns (a poll and its option): the intruder's request
   * is allowed, acts for the intruder alone, and `unchanged` shows the owner's part is untouched.
   */
  shared?: true;
  /** The owner has not passed KYC yet (every other owner has, with a trading password). */
  unverifiedOwner?: true;
}

const SHOP_ADDRESS = {
  name: 'Mei Lin',
  phone: '+14155550123',
  region: 'US',
  address: '1 Market St, SF',
};

/** A delivery address in the owner's address book; its id. */
async function ownerAddress(t: TestApp, owner: User): Promise<string> {
  const reply = await call<{ id: string }>(t.app, 'POST', '/api/v1/shop/addresses', {
    token: owner.token,
    body: SHOP_ADDRESS,
  });
  expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
  return reply.body.data.id;
}

/** The owner's address is still theirs, as they saved it. */
async function addressKept(t: TestApp, owner: User, id: string): Promise<void> {
  const reply = await call<{ items: { id: string; name: string }[] }>(
    t.app,
    'GET',
    '/api/v1/shop/addresses',
    { token: owner.token },
  );
  expect(reply.body.data.items).toContainEqual(expect.objectContaining({ id, name: 'Mei Lin' }));
}

/** What the owner's own request was, so `unchanged` can show it still works for them. */
const owned = new Map<string, unknown>();

async function messageUnread(t: TestApp, owner: User, id: string) {
  const reply = await call<Message>(t.app, 'GET', `/api/v1/messages/detail?id=${id}`, {
    token: owner.token,
  });
  expect(reply.body.data).toMatchObject({ id, kind: 'welcome', read: false });
  expect(
    (
      await call<{ unread: number }>(t.app, 'GET', '/api/v1/messages/unread', {
        token: owner.token,
      })
    ).body.data.unread,
  ).toBe(1);
}

const CASES: Record<string, OwnershipCase> = {
  'POST /api/v1/shop/addresses': {
    // Editing: the intruder names the owner's address id with their own fields.
    arrange: async (t, owner) => {
      const id = await ownerAddress(t, owner);
      owned.set('address-edit', id);
      return { body: { id, ...SHOP_ADDRESS, name: 'Intruder' } };
    },
    unchanged: (t, owner) => addressKept(t, owner, String(owned.get('address-edit'))),
  },
  'POST /api/v1/shop/addresses/delete': {
    arrange: async (t, owner) => {
      const id = await ownerAddress(t, owner);
      owned.set('address-delete', id);
      return { body: { id } };
    },
    unchanged: (t, owner) => addressKept(t, owner, String(owned.get('address-delete'))),
  },
  'POST /api/v1/shop/purchase': {
    // A physical item sent to the owner's address: the intruder has the points, not the address.
    arrange: async (t, owner) => {
      const id = await ownerAddress(t, owner);
      owned.set('address-purchase', id);
      const [intruder] = await queryRows<{ id: number }>(
        t.database.db,
        sql`select id::int from users where id > ${Number(owner.uid)} order by id limit 1`,
      );
      await t.database.db.execute(
        sql`insert into points_events (user_id, kind, amount, created_at) values (${intruder?.id}, 'task_reward', 1000, ${t.clock.now()})`,
      );
      return { body: { item: 'stickers', addressId: id } };
    },
    unchanged: async (t, owner) => {
      await addressKept(t, owner, String(owned.get('address-purchase')));
      const [row] = await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from shop_orders`,
      );
      expect(row?.n).toBe(0);
    },
  },
  'GET /api/v1/messages/detail': {
    arrange: async (t, owner) => {
      const id = await ownerMessage(t, owner);
      owned.set('message-detail', id);
      return { query: `?id=${id}` };
    },
    unchanged: (t, owner) => messageUnread(t, owner, String(owned.get('message-detail'))),
  },
  'POST /api/v1/messages/read': {
    arrange: async (t, owner) => {
      const id = await ownerMessage(t, owner);
      owned.set('message-read', id);
      return { body: { id } };
    },
    unchanged: (t, owner) => messageUnread(t, owner, String(owned.get('message-read'))),
  },
  'POST /api/v1/votes/cast': {
    shared: true,
    arrange: async (t, owner) => {
      const pollId = await createPoll(t.database.db, new Date(T0), {
        slug: `bola-${owner.uid}`,
        title: { en: 'Poll' },
        description: { en: 'Poll' },
        startsAt: new Date(T0 - 1000),
        endsAt: new Date(T0 + 86_400_000),
        options: [{ en: 'A' }, { en: 'B' }],
      });
      const poll = await votePoll(t, owner, pollId);
      const body = { pollId: String(pollId), optionId: poll.options[0]?.id };
      expect(
        (await call(t.app, 'POST', '/api/v1/votes/cast', { token: owner.token, body })).body.code,
      ).toBe(0);
      owned.set('vote', body);
      return { body };
    },
    unchanged: async (t, owner) => {
      const body = owned.get('vote') as { pollId: string; optionId: string };
      const poll = await votePoll(t, owner, Number(body.pollId));
      // The owner's ballot stands and the intruder's is their own: two votes, not a replaced one.
      expect(poll.votedOptionId).toBe(body.optionId);
      expect(poll.total).toBe(2);
      expect(
        (await call(t.app, 'POST', '/api/v1/votes/cast', { token: owner.token, body })).body.code,
      ).toBe(2701);
    },
  },
  'POST /api/v1/bonus-codes/redeem': {
    // A bonus code is public: the intruder's redemption credits the intruder alone and
    // leaves the owner's reward and their used-up allowance as they were.
    shared: true,
    arrange: async (t, owner) => {
      const code = `BOLA-${owner.uid}`;
      await approveRewardBudget(t, '20');
      await createBonusCode(t.database.db, t.clock.now(), null, {
        code,
        asset: 'USDT',
        amount: '10',
        maxRedemptions: 2,
        perUserLimit: 1,
        verifiedOnly: false,
        onePerIdentity: false,
        expiresAt: new Date(T0 + 86_400_000).toISOString(),
      });
      const own = await call(t.app, 'POST', '/api/v1/bonus-codes/redeem', {
        token: owner.token,
        body: { code },
        headers: { 'idempotency-key': idempotencyKey() },
      });
      expect(own.body.code).toBe(0);
      owned.set('bonus-code', code);
      return { body: { code } };
    },
    unchanged: async (t, owner) => {
      const balances = await call<{ spot: { asset: string; available: string }[] }>(
        t.app,
        'GET',
        '/api/v1/wallet/balances',
        { token: owner.token },
      );
      expect(balances.body.data.spot.find((s) => s.asset === 'USDT')?.available).toBe('10');
      const again = await call(t.app, 'POST', '/api/v1/bonus-codes/redeem', {
        token: owner.token,
        body: { code: owned.get('bonus-code') },
        headers: { 'idempotency-key': idempotencyKey() },
      });
      // Both uses are taken (owner and intruder), and the owner's own limit still holds.
      expect(again.body.code).toBe(3204);
    },
  },
  'GET /api/v1/invite': {
    // Always the requester's own code and counts.
    shared: true,
    arrange: async (t, owner) => {
      owned.set(
        'invite-code',
        (await call<{ inviteCode: string }>(t.app, 'GET', '/api/v1/invite', { token: owner.token }))
          .body.data.inviteCode,
      );
      return {};
    },
    unchanged: async (t, owner) => {
      const own = await call<{ inviteCode: string }>(t.app, 'GET', '/api/v1/invite', {
        token: owner.token,
      });
      expect(own.body.data.inviteCode).toBe(owned.get('invite-code'));
    },
  },
  'GET /api/v1/invite/invitees': {
    // The list is always the requester's own: the intruder gets their (empty) list, never the owner's.
    shared: true,
    arrange: async (t, owner) => {
      const { inviteCode } = (
        await call<{ inviteCode: string }>(t.app, 'GET', '/api/v1/invite', { token: owner.token })
      ).body.data;
      const account = `invitee.${owner.uid}@example.com`;
      // Both register tabs prove the address (decision 0026).
      await call(t.app, 'POST', '/api/v1/auth/codes', {
        body: { channel: 'email', account, purpose: 'register' },
      });
      const reply = await call(t.app, 'POST', '/api/v1/auth/register', {
        body: {
          mode: 'invite',
          channel: 'email',
          account,
          code: await lastCode(t.app, account),
          inviteCode,
          password: PASSWORD,
          confirmPassword: PASSWORD,
        },
      });
      expect(reply.body.code).toBe(0);
      return {};
    },
    unchanged: async (t, owner) => {
      const list = await call<{ items: { contact: string }[] }>(
        t.app,
        'GET',
        '/api/v1/invite/invitees',
        { token: owner.token },
      );
      expect(list.body.data.items.map((i) => i.contact)).toEqual(['in***@example.com']);
    },
  },
  'POST /api/v1/user/profile': {
    arrange: async (t, owner) => {
      const id = await uploadFor(t, owner, 'avatar');
      expect(
        (
          await call(t.app, 'POST', '/api/v1/user/profile', {
            token: owner.token,
            body: { avatarFileId: id },
          })
        ).body.code,
      ).toBe(0);
      const profile = await call<{ avatar: string }>(t.app, 'GET', '/api/v1/user/profile', {
        token: owner.token,
      });
      owned.set('avatar', profile.body.data.avatar);
      return { body: { avatarFileId: id } };
    },
    unchanged: async (t, owner) => {
      const profile = await call<{ avatar: string }>(t.app, 'GET', '/api/v1/user/profile', {
        token: owner.token,
      });
      expect(profile.body.data.avatar).toBe(owned.get('avatar'));
      // Nobody else wears it: the intruder's avatar was not set to the owner's file.
      const rows = await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from users where avatar = ${String(owned.get('avatar'))}`,
      );
      expect(rows[0]?.n).toBe(1);
    },
  },
  'GET /api/v1/mining/product': {
    // A miner for rent is public to every user: the case shows reading it changes nothing.
    shared: true,
    arrange: async (t) => ({ query: `?id=${await demoMiner(t)}` }),
    unchanged: async (t, owner) => {
      const reply = await call<{ unitPrice: string; enabled: boolean }>(
        t.app,
        'GET',
        `/api/v1/mining/product?id=${await demoMiner(t)}`,
        { token: owner.token },
      );
      expect(reply.body.data).toMatchObject({ unitPrice: '100', enabled: true });
    },
  },
  'POST /api/v1/mining/rentals': {
    // `productId` names a miner nobody owns: a rental is always paid from the requester's own spot account.
    arrange: async (t, owner) => {
      await fund(t, Number(owner.uid), 100_000_000n);
      return { body: { productId: await demoMiner(t), quantity: 1, amount: '100' } };
    },
    unchanged: async (t, owner) => {
      const balances = await call<{ spot: { asset: string; available: string }[] }>(
        t.app,
        'GET',
        '/api/v1/wallet/balances',
        { token: owner.token },
      );
      expect(balances.body.data.spot.find((s) => s.asset === 'USDT')?.available).toBe('100');
      const rentals = await call<{ items: unknown[] }>(
        t.app,
        'GET',
        '/api/v1/mining/rentals?tab=all',
        { token: owner.token },
      );
      expect(rentals.body.data.items).toEqual([]);
    },
  },
  'GET /api/v1/mining/rental': {
    arrange: async (t, owner) => {
      await fund(t, Number(owner.uid), 100_000_000n);
      const reply = await call<{ id: string }>(t.app, 'POST', '/api/v1/mining/rentals', {
        token: owner.token,
        body: { productId: await demoMiner(t), quantity: 1, amount: '100' },
        headers: { 'idempotency-key': idempotencyKey() },
      });
      if (reply.body.code !== 0) throw new Error(JSON.stringify(reply.body));
      owned.set('mining-rental', reply.body.data.id);
      return { query: `?id=${reply.body.data.id}` };
    },
    unchanged: async (t, owner) => {
      const own = await call<{ id: string; status: string; amount: string }>(
        t.app,
        'GET',
        `/api/v1/mining/rental?id=${String(owned.get('mining-rental'))}`,
        { token: owner.token },
      );
      expect(own.body.data).toMatchObject({
        id: owned.get('mining-rental'),
        status: 'under_review',
        amount: '100',
      });
    },
  },
  'POST /api/v1/loans': {
    // The file ids name the owner's private ID photos: another verified user cannot apply with them.
    arrange: async (t, owner) => {
      await t.database.db.execute(
        sql`update users set verified = true where id >= ${Number(owner.uid)}`,
      );
      const photos = await loanPhotos(t, owner);
      owned.set('loan-photos', photos);
      return {
        body: { productId: await demoLoanProduct(t), amount: '100', periodDays: 7, ...photos },
      };
    },
    unchanged: async (t, owner) => {
      const loans = await call<{ items: unknown[] }>(t.app, 'GET', '/api/v1/loans', {
        token: owner.token,
      });
      expect(loans.body.data.items).toEqual([]);
      const rows = await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from loans where front_file_id = ${Number((owned.get('loan-photos') as { frontFileId: string }).frontFileId)}`,
      );
      expect(rows[0]?.n).toBe(0);
    },
  },
  'GET /api/v1/loan': {
    arrange: async (t, owner) => ({ query: `?id=${await ownedLoan(t, owner)}` }),
    unchanged: async (t, owner) => {
      const own = await call<{ id: string; status: string }>(
        t.app,
        'GET',
        `/api/v1/loan?id=${String(owned.get('loan'))}`,
        { token: owner.token },
      );
      expect(own.body.data).toMatchObject({
        id: owned.get('loan'),
        status: 'disbursed',
        amount: '100',
      });
    },
  },
  'POST /api/v1/loans/repay': {
    arrange: async (t, owner) => {
      const id = await ownedLoan(t, owner);
      // The intruder could pay: the refusal is about whose loan it is, not their balance.
      const [intruder] = await queryRows<{ id: number }>(
        t.database.db,
        sql`select id::int from users where id > ${Number(owner.uid)} order by id limit 1`,
      );
      await fund(t, Number(intruder?.id), 1_000_000_000n);
      return { body: { id } };
    },
    unchanged: async (t, owner) => {
      const own = await call<{ status: string; dueNow: string }>(
        t.app,
        'GET',
        `/api/v1/loan?id=${String(owned.get('loan'))}`,
        { token: owner.token },
      );
      expect(own.body.data).toMatchObject({ status: 'disbursed', dueNow: '100.1' });
      const balances = await call<{ spot: { asset: string; available: string }[] }>(
        t.app,
        'GET',
        '/api/v1/wallet/balances',
        { token: owner.token },
      );
      expect(balances.body.data.spot.find((s) => s.asset === 'USDT')?.available).toBe('100');
    },
  },
  'POST /api/v1/ieo/subscribe': {
    shared: true,
    arrange: async (t, owner) => {
      const projectId = String(await ieoProject(t, `bola-sub-${owner.uid}`));
      // Both users may apply for themselves: verified and funded.
      await t.database.db.execute(
        sql`update users set verified = true where id >= ${Number(owner.uid)}`,
      );
      const [intruder] = await queryRows<{ id: number }>(
        t.database.db,
        sql`select id::int from users where id > ${Number(owner.uid)} order by id limit 1`,
      );
      for (const id of [Number(owner.uid), Number(intruder?.id)]) await fund(t, id, 100_000_000n);
      const body = { projectId, price: '1', quantity: '40' };
      expect(
        (
          await call(t.app, 'POST', '/api/v1/ieo/subscribe', {
            token: owner.token,
            body,
            headers: { 'idempotency-key': idempotencyKey() },
          })
        ).body.code,
      ).toBe(0);
      owned.set('ieo-sub', projectId);
      return { body: { projectId, price: '1', quantity: '10' } };
    },
    unchanged: async (t, owner) => {
      const detail = await call<IeoDetail>(
        t.app,
        'GET',
        `/api/v1/ieo/detail?id=${String(owned.get('ieo-sub'))}`,
        { token: owner.token },
      );
      // The owner's application stands; the intruder's is their own.
      expect(detail.body.data.application).toMatchObject({ quantity: '40', amount: '40' });
      expect(detail.body.data.project.subscribed).toBe('50');
      const balances = await call<{ spot: { asset: string; available: string; locked: string }[] }>(
        t.app,
        'GET',
        '/api/v1/wallet/balances',
        { token: owner.token },
      );
      expect(balances.body.data.spot.find((b) => b.asset === 'USDT')).toMatchObject({
        available: '60',
        locked: '40',
      });
    },
  },
  'GET /api/v1/ieo/detail': {
    shared: true,
    arrange: async (t, owner) => {
      const projectId = String(await ieoProject(t, `bola-detail-${owner.uid}`));
      await t.database.db.execute(
        sql`update users set verified = true where id = ${Number(owner.uid)}`,
      );
      await fund(t, Number(owner.uid), 100_000_000n);
      const body = { projectId, price: '1', quantity: '5' };
      expect(
        (
          await call(t.app, 'POST', '/api/v1/ieo/subscribe', {
            token: owner.token,
            body,
            headers: { 'idempotency-key': idempotencyKey() },
          })
        ).body.code,
      ).toBe(0);
      owned.set('ieo-detail', projectId);
      return { query: `?id=${projectId}` };
    },
    unchanged: async (t, owner) => {
      const id = String(owned.get('ieo-detail'));
      const own = await call<IeoDetail>(t.app, 'GET', `/api/v1/ieo/detail?id=${id}`, {
        token: owner.token,
      });
      expect(own.body.data.application).toMatchObject({ quantity: '5' });
      // Another user sees the public project but never the owner's application.
      const other = await registerUser(t.app);
      expect(
        (await call<IeoDetail>(t.app, 'GET', `/api/v1/ieo/detail?id=${id}`, { token: other.token }))
          .body.data.application,
      ).toBeNull();
    },
  },
  'GET /api/v1/files/content': {
    arrange: async (t, owner) => {
      const id = await uploadFor(t, owner, 'kyc');
      owned.set('file', id);
      return { query: `?id=${id}` };
    },
    unchanged: async (t, owner) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/files/content?id=${String(owned.get('file'))}`,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/jpeg');
    },
  },
  'POST /api/v1/kyc': {
    unverifiedOwner: true,
    arrange: async (t, owner) => {
      const body = {
        country: 'NL',
        lastName: 'Jansen',
        firstName: 'Eva',
        documentType: 'id_card',
        documentNumber: 'NL1234567',
        frontFileId: await uploadFor(t, owner, 'kyc'),
        backFileId: await uploadFor(t, owner, 'kyc'),
        faceFileId: await uploadFor(t, owner, 'kyc'),
      };
      owned.set('kyc', body);
      return { body };
    },
    unchanged: async (t, owner) => {
      expect(
        (await call<{ state: string }>(t.app, 'GET', '/api/v1/kyc', { token: owner.token })).body
          .data.state,
      ).toBe('none');
      // The owner's photos are still theirs to use.
      expect(
        (await call(t.app, 'POST', '/api/v1/kyc', { token: owner.token, body: owned.get('kyc') }))
          .body.code,
      ).toBe(0);
    },
  },
  'POST /api/v1/card-deposits': {
    arrange: async (t, owner) => {
      const body = { amount: '10', screenshotFileId: await uploadFor(t, owner, 'card_deposit') };
      owned.set('card-deposit', body);
      return { body };
    },
    unchanged: async (t, owner) => {
      expect(
        (
          await call<{ items: unknown[] }>(t.app, 'GET', '/api/v1/card-deposits', {
            token: owner.token,
          })
        ).body.data.items,
      ).toEqual([]);
      const own = await call(t.app, 'POST', '/api/v1/card-deposits', {
        token: owner.token,
        body: owned.get('card-deposit'),
        headers: { 'idempotency-key': idempotencyKey() },
      });
      expect(own.body.code).toBe(0);
    },
  },
  'POST /api/v1/convert': {
    arrange: async (t, owner) => {
      await fund(t, Number(owner.uid), 100_000_000n);
      await recordPrices(t, { BTCUSDT: '95000.00' });
      const quote = await call<{ id: string }>(t.app, 'POST', '/api/v1/convert/quote', {
        token: owner.token,
        body: { from: 'USDT', to: 'BTC', amount: '10' },
      });
      if (quote.body.code !== 0) throw new Error(`quote failed: ${JSON.stringify(quote.body)}`);
      owned.set('quote', quote.body.data.id);
      return { body: { quoteId: quote.body.data.id } };
    },
    unchanged: async (t, owner) => {
      const balances = await call<{ spot: { asset: string; available: string }[] }>(
        t.app,
        'GET',
        '/api/v1/wallet/balances',
        { token: owner.token },
      );
      expect(
        balances.body.data.spot
          .filter((s) => s.asset === 'USDT' || s.asset === 'BTC')
          .map((s) => s.available),
      ).toEqual(['100', '0']);
      // The quote is still the owner's to execute, once.
      const own = await call(t.app, 'POST', '/api/v1/convert', {
        token: owner.token,
        body: { quoteId: owned.get('quote') },
        headers: { 'idempotency-key': idempotencyKey() },
      });
      expect(own.body.code).toBe(0);
    },
  },
  'POST /api/v1/auth/sessions/revoke': {
    arrange: async (t, owner) => {
      const list = await call<{ items: { id: string }[] }>(t.app, 'GET', '/api/v1/auth/sessions', {
        token: owner.token,
      });
      return { body: { id: list.body.data.items[0]?.id } };
    },
    unchanged: async (t, owner) => {
      expect(
        (await call(t.app, 'GET', '/api/v1/user/profile', { token: owner.token })).body.code,
      ).toBe(0);
    },
  },
  'GET /api/v1/withdrawals/detail': {
    arrange: async (t, owner) => ({ query: `?id=${await ownerWithdrawal(t, owner)}` }),
    unchanged: withdrawalsUnchanged,
  },
  'GET /api/v1/withdrawals': {
    // The page cursor names a withdrawal: another user's is refused, not used to page their own list.
    arrange: async (t, owner) => ({ query: `?beforeId=${await ownerWithdrawal(t, owner)}` }),
    unchanged: withdrawalsUnchanged,
  },
  'POST /api/v1/bank-cards/delete': {
    arrange: async (t, owner) => {
      const id = await ownerCard(t, owner);
      lastCard.set(owner.uid, id);
      return { body: { id } };
    },
    unchanged: async (t, owner) => cardsUnchanged(t, owner, lastCard.get(owner.uid) ?? ''),
  },
  'POST /api/v1/withdrawals/card': {
    arrange: async (t, owner) => {
      await withdrawalOwner(t, owner);
      const id = await ownerCard(t, owner);
      lastCard.set(owner.uid, id);
      return { body: { cardId: id, amount: '20', password: PIN } };
    },
    unchanged: async (t, owner) => {
      await cardsUnchanged(t, owner, lastCard.get(owner.uid) ?? '');
      const list = await call<{ items: unknown[] }>(t.app, 'GET', '/api/v1/withdrawals', {
        token: owner.token,
      });
      expect(list.body.data.items).toEqual([]);
    },
  },
  'POST /api/v1/contracts/orders': {
    // `periodId` names a configured period, which nobody owns: the case shows an order is
    // always paid from the requester's own futures account, never from someone else's.
    arrange: async (t, owner) => {
      await fund(t, Number(owner.uid), 100_000_000n, 'futures');
      await recordPrices(t, { BTCUSDT: '95000.00' });
      return { body: { symbol: 'BTCUSDT', direction: 'up', periodId: 1, amount: '10' } };
    },
    unchanged: async (t, owner) => {
      const balances = await call<{ futures: { available: string; locked: string } }>(
        t.app,
        'GET',
        '/api/v1/wallet/balances',
        { token: owner.token },
      );
      expect(balances.body.data.futures).toMatchObject({ available: '100', locked: '0' });
      const orders = await call<{ items: unknown[] }>(
        t.app,
        'GET',
        '/api/v1/contracts/orders?state=open',
        { token: owner.token },
      );
      expect(orders.body.data.items).toEqual([]);
    },
  },
  'GET /api/v1/contracts/order': {
    arrange: async (t, owner) => {
      await fund(t, Number(owner.uid), 100_000_000n, 'futures');
      await recordPrices(t, { BTCUSDT: '95000.00' });
      const reply = await call<{ order: { id: string } }>(
        t.app,
        'POST',
        '/api/v1/contracts/orders',
        {
          token: owner.token,
          body: {
            symbol: 'BTCUSDT',
            direction: 'up',
            periodId: 1,
            amount: '10',
            tradePassword: TRADE_PIN,
          },
          headers: { 'idempotency-key': idempotencyKey() },
        },
      );
      if (reply.body.code !== 0) throw new Error(JSON.stringify(reply.body));
      owned.set('contract-order', reply.body.data.order.id);
      return { query: `?id=${reply.body.data.order.id}` };
    },
    unchanged: async (t, owner) => {
      const own = await call<{ id: string; state: string; stake: string }>(
        t.app,
        'GET',
        `/api/v1/contracts/order?id=${String(owned.get('contract-order'))}`,
        { token: owner.token },
      );
      expect(own.body.data).toMatchObject({
        id: owned.get('contract-order'),
        state: 'open',
        stake: '10',
      });
      const balances = await call<{ futures: { available: string; locked: string } }>(
        t.app,
        'GET',
        '/api/v1/wallet/balances',
        { token: owner.token },
      );
      expect(balances.body.data.futures).toMatchObject({ available: '89.98', locked: '10.02' });
    },
  },
};

let ieoTokens = 0;
/** A launchpad project subscribing now (created directly through the service, no operator). */
async function ieoProject(t: TestApp, slug: string): Promise<number> {
  ieoTokens += 1;
  const now = t.clock.now().getTime();
  return createIeoProject(t.database.db, t.clock.now(), null, {
    slug,
    token: `BOLA${ieoTokens}`,
    tokenName: 'Ownership test token',
    name: { en: 'Ownership test' },
    description: { en: 'Ownership test' },
    supply: '1000',
    unitPrice: '1',
    priceMin: '1',
    priceMax: '1',
    perUserCap: '100',
    startsAt: new Date(now - 60_000).toISOString(),
    endsAt: new Date(now + 86_400_000).toISOString(),
    listsAt: new Date(now + 2 * 86_400_000).toISOString(),
    announcedAt: new Date(now - 60_000).toISOString(),
  });
}

async function votePoll(t: TestApp, user: User, pollId: number): Promise<VotePoll> {
  const list = await call<{ items: VotePoll[] }>(t.app, 'GET', '/api/v1/votes', {
    token: user.token,
  });
  const poll = list.body.data.items.find((p) => p.id === String(pollId));
  if (!poll) throw new Error(`poll ${pollId} not listed`);
  return poll;
}

/** The card each owner linked in `arrange`, for `unchanged`. */
const lastCard = new Map<string, string>();

async function withdrawalsUnchanged(t: TestApp, owner: User) {
  const list = await call<{ items: { status: string; total: string }[] }>(
    t.app,
    'GET',
    '/api/v1/withdrawals',
    { token: owner.token },
  );
  expect(list.body.data.items.map((i) => [i.status, i.total])).toEqual([['under_review', '21']]);
  const balances = await call<{ spot: { asset: string; available: string; locked: string }[] }>(
    t.app,
    'GET',
    '/api/v1/wallet/balances',
    { token: owner.token },
  );
  expect(balances.body.data.spot.find((s) => s.asset === 'USDT')).toMatchObject({
    available: '79',
    locked: '21',
  });
}

async function cardsUnchanged(t: TestApp, owner: User, id: string) {
  const cards = await call<{ items: { id: string }[] }>(t.app, 'GET', '/api/v1/bank-cards', {
    token: owner.token,
  });
  expect(cards.body.data.items.map((c) => c.id)).toEqual([id]);
}

/** The owner's disbursed loan, remembered for `unchanged`. */
async function ownedLoan(t: TestApp, owner: User): Promise<string> {
  const id = await ownerLoan(t, owner);
  owned.set('loan', id);
  return id;
}

function idFields(schema: z.core.$ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape).filter((name) => name === 'id' || /Id$/.test(name)) : [];
}

let t: TestApp;
const data = tempDataDir();
beforeAll(async () => {
  t = await createTestApp({ env: { DATA_DIR: data.dir } });
});
afterAll(async () => {
  await t.close();
  data.remove();
});

describe('ownership matrix over the route table', () => {
  it('every user route that takes an object id has an ownership case', () => {
    const needing = t.app.routeTable
      .filter(
        (route) =>
          route.auth === 'user' &&
          (idFields(route.body).length > 0 || idFields(route.query).length > 0),
      )
      .map((route) => `${route.method} ${route.url}`);
    expect(needing.length).toBeGreaterThan(0);
    expect(needing.filter((name) => !CASES[name])).toEqual([]);
  });

  it.each(Object.keys(CASES))(
    '%s: another user is denied and the object is unchanged',
    async (name) => {
      const ownershipCase = CASES[name] as OwnershipCase;
      const [method, url] = name.split(' ') as ['GET' | 'POST', string];
      // The owner may take every financial action (KYC passed, a trading password set).
      const owner = ownershipCase.unverifiedOwner
        ? await registerUser(t.app)
        : await registerReadyUser(t);
      const intruder = await registerUser(t.app);
      const request = await ownershipCase.arrange(t, owner);
      const reply: Reply = await call(t.app, method, `${url}${request.query ?? ''}`, {
        token: intruder.token,
        body: request.body,
        headers: { 'idempotency-key': `bola-${Math.random().toString(36).slice(2, 12)}` },
      });
      if (ownershipCase.shared) {
        expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
      } else {
        expect(reply.body.code, JSON.stringify(reply.body)).not.toBe(0);
        expect(reply.status).toBeGreaterThanOrEqual(400);
        expect(reply.status).toBeLessThan(500);
        expect(JSON.stringify(reply.body.data ?? null)).toBe('null');
      }
      await ownershipCase.unchanged(t, owner);
    },
  );
});

describe('security centre: per-user data without ids', () => {
  it('another user sees none of the owner’s devices or sign-ins, and their "sign out others" leaves the owner signed in', async () => {
    const owner = await registerUser(t.app);
    const intruder = await registerUser(t.app);
    await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account: owner.account, password: 'wrong-password-0' },
      headers: { 'user-agent': 'owner-device' },
    });
    const second = await call<{ token: string }>(t.app, 'POST', '/api/v1/auth/login', {
      body: { channel: 'email', account: owner.account, password: PASSWORD },
      headers: { 'user-agent': 'owner-device' },
    });
    const seen = await call<{ sessions: { device: string }[]; signIns: { device: string }[] }>(
      t.app,
      'GET',
      '/api/v1/security',
      { token: intruder.token },
    );
    expect(seen.body.data.sessions.some((s) => s.device === 'owner-device')).toBe(false);
    expect(seen.body.data.signIns).toEqual([]);
    expect(
      (await call(t.app, 'POST', '/api/v1/auth/sessions/revoke-others', { token: intruder.token }))
        .body.code,
    ).toBe(0);
    expect(
      (await call(t.app, 'GET', '/api/v1/user/profile', { token: owner.token })).body.code,
    ).toBe(0);
    expect(
      (await call(t.app, 'GET', '/api/v1/user/profile', { token: second.body.data.token })).body
        .code,
    ).toBe(0);
    const own = await call<{ sessions: unknown[]; signIns: unknown[] }>(
      t.app,
      'GET',
      '/api/v1/security',
      { token: owner.token },
    );
    expect(own.body.data.sessions).toHaveLength(2);
    expect(own.body.data.signIns).toHaveLength(2);
  });
});
