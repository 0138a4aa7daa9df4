import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { VotePoll } from '@tradewind/contract/vote';
import type { Message } from '@tradewind/contract/messages';
import { createMessages } from '../src/modules/messages/service.ts';
import { createPoll } from '../src/modules/vote/service.ts';
import { recordPrices } from './prices.ts';
import { pngImage, tempDataDir, upload } from './uploads.ts';
import { PASSWORD, type Reply, T0, type TestApp, call, createTestApp, fund, idempotencyKey, registerUser } from './harness.ts';

/**
 * The ownership (BOLA) matrix: every user route that takes an object id is tried by
 * another user, who must be denied and leave the owner's object as it was. A route that
 * takes an id and has no case here fails the first test, so routes added later are
 * covered by construction.
 */

type User = Awaited<ReturnType<typeof registerUser>>;

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
}

async function uploadFor(t: TestApp, user: User, purpose: 'kyc' | 'card_deposit'): Promise<string> {
  const reply = await upload(t.app, user.token, { purpose, data: await pngImage(48, 32) });
  if (reply.body.code !== 0) throw new Error(`upload failed: ${JSON.stringify(reply.body)}`);
  return reply.body.data.id;
}

/** What the owner's own request was, so `unchanged` can show it still works for them. */
const owned = new Map<string, unknown>();

/** A message for the owner; `unchanged` checks it is still theirs and still unread. */
async function ownerMessage(t: TestApp, owner: User): Promise<string> {
  const [created] = await createMessages(t.database.db, new Date(T0), [{ userId: Number(owner.uid), kind: 'welcome', ref: `bola-${owner.uid}` }]);
  if (!created) throw new Error('no message created');
  return created.message.id;
}

async function messageUnread(t: TestApp, owner: User, id: string) {
  const reply = await call<Message>(t.app, 'GET', `/api/v1/messages/detail?id=${id}`, { token: owner.token });
  expect(reply.body.data).toMatchObject({ id, kind: 'welcome', read: false });
  expect((await call<{ unread: number }>(t.app, 'GET', '/api/v1/messages/unread', { token: owner.token })).body.data.unread).toBe(1);
}

const CASES: Record<string, OwnershipCase> = {
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
      expect((await call(t.app, 'POST', '/api/v1/votes/cast', { token: owner.token, body })).body.code).toBe(0);
      owned.set('vote', body);
      return { body };
    },
    unchanged: async (t, owner) => {
      const body = owned.get('vote') as { pollId: string; optionId: string };
      const poll = await votePoll(t, owner, Number(body.pollId));
      // The owner's ballot stands and the intruder's is their own: two votes, not a replaced one.
      expect(poll.votedOptionId).toBe(body.optionId);
      expect(poll.total).toBe(2);
      expect((await call(t.app, 'POST', '/api/v1/votes/cast', { token: owner.token, body })).body.code).toBe(2701);
    },
  },
  'GET /api/v1/files/content': {
    arrange: async (t, owner) => {
      const id = await uploadFor(t, owner, 'kyc');
      owned.set('file', id);
      return { query: `?id=${id}` };
    },
    unchanged: async (t, owner) => {
      const response = await t.app.inject({ method: 'GET', url: `/api/v1/files/content?id=${String(owned.get('file'))}`, headers: { authorization: `Bearer ${owner.token}` } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/jpeg');
    },
  },
  'POST /api/v1/kyc': {
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
      expect((await call<{ state: string }>(t.app, 'GET', '/api/v1/kyc', { token: owner.token })).body.data.state).toBe('none');
      // The owner's photos are still theirs to use.
      expect((await call(t.app, 'POST', '/api/v1/kyc', { token: owner.token, body: owned.get('kyc') })).body.code).toBe(0);
    },
  },
  'POST /api/v1/card-deposits': {
    arrange: async (t, owner) => {
      const body = { amount: '10', screenshotFileId: await uploadFor(t, owner, 'card_deposit') };
      owned.set('card-deposit', body);
      return { body };
    },
    unchanged: async (t, owner) => {
      expect((await call<{ items: unknown[] }>(t.app, 'GET', '/api/v1/card-deposits', { token: owner.token })).body.data.items).toEqual([]);
      const own = await call(t.app, 'POST', '/api/v1/card-deposits', { token: owner.token, body: owned.get('card-deposit'), headers: { 'idempotency-key': idempotencyKey() } });
      expect(own.body.code).toBe(0);
    },
  },
  'POST /api/v1/convert': {
    arrange: async (t, owner) => {
      await fund(t, Number(owner.uid), 100_000_000n);
      await recordPrices(t, { BTCUSDT: '95000.00' });
      const quote = await call<{ id: string }>(t.app, 'POST', '/api/v1/convert/quote', { token: owner.token, body: { from: 'USDT', to: 'BTC', amount: '10' } });
      if (quote.body.code !== 0) throw new Error(`quote failed: ${JSON.stringify(quote.body)}`);
      owned.set('quote', quote.body.data.id);
      return { body: { quoteId: quote.body.data.id } };
    },
    unchanged: async (t, owner) => {
      const balances = await call<{ spot: { asset: string; available: string }[] }>(t.app, 'GET', '/api/v1/wallet/balances', { token: owner.token });
      expect(balances.body.data.spot.filter((s) => s.asset === 'USDT' || s.asset === 'BTC').map((s) => s.available)).toEqual(['100', '0']);
      // The quote is still the owner's to execute, once.
      const own = await call(t.app, 'POST', '/api/v1/convert', { token: owner.token, body: { quoteId: owned.get('quote') }, headers: { 'idempotency-key': idempotencyKey() } });
      expect(own.body.code).toBe(0);
    },
  },
  'POST /api/v1/auth/sessions/revoke': {
    arrange: async (t, owner) => {
      const list = await call<{ items: { id: string }[] }>(t.app, 'GET', '/api/v1/auth/sessions', { token: owner.token });
      return { body: { id: list.body.data.items[0]?.id } };
    },
    unchanged: async (t, owner) => {
      expect((await call(t.app, 'GET', '/api/v1/user/profile', { token: owner.token })).body.code).toBe(0);
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
      const list = await call<{ items: unknown[] }>(t.app, 'GET', '/api/v1/withdrawals', { token: owner.token });
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
      const balances = await call<{ futures: { available: string; locked: string } }>(t.app, 'GET', '/api/v1/wallet/balances', { token: owner.token });
      expect(balances.body.data.futures).toMatchObject({ available: '100', locked: '0' });
      const orders = await call<{ items: unknown[] }>(t.app, 'GET', '/api/v1/contracts/orders?state=open', { token: owner.token });
      expect(orders.body.data.items).toEqual([]);
    },
  },
  'GET /api/v1/contracts/order': {
    arrange: async (t, owner) => {
      await fund(t, Number(owner.uid), 100_000_000n, 'futures');
      await recordPrices(t, { BTCUSDT: '95000.00' });
      const reply = await call<{ order: { id: string } }>(t.app, 'POST', '/api/v1/contracts/orders', {
        token: owner.token,
        body: { symbol: 'BTCUSDT', direction: 'up', periodId: 1, amount: '10' },
        headers: { 'idempotency-key': idempotencyKey() },
      });
      if (reply.body.code !== 0) throw new Error(JSON.stringify(reply.body));
      owned.set('contract-order', reply.body.data.order.id);
      return { query: `?id=${reply.body.data.order.id}` };
    },
    unchanged: async (t, owner) => {
      const own = await call<{ id: string; state: string; stake: string }>(t.app, 'GET', `/api/v1/contracts/order?id=${String(owned.get('contract-order'))}`, { token: owner.token });
      expect(own.body.data).toMatchObject({ id: owned.get('contract-order'), state: 'open', stake: '10' });
      const balances = await call<{ futures: { available: string; locked: string } }>(t.app, 'GET', '/api/v1/wallet/balances', { token: owner.token });
      expect(balances.body.data.futures).toMatchObject({ available: '89.98', locked: '10.02' });
    },
  },
};


async function votePoll(t: TestApp, user: User, pollId: number): Promise<VotePoll> {
  const list = await call<{ items: VotePoll[] }>(t.app, 'GET', '/api/v1/votes', { token: user.token });
  const poll = list.body.data.items.find((p) => p.id === String(pollId));
  if (!poll) throw new Error(`poll ${pollId} not listed`);
  return poll;
}

const PIN = '480316';
/** The card each owner linked in `arrange`, for `unchanged`. */
const lastCard = new Map<string, string>();

/** Withdrawals: a verified owner (KYC marked directly: no KYC flow yet) with a withdrawal password and 100 USDT. */
async function withdrawalOwner(t: TestApp, owner: User) {
  await t.database.db.execute(sql`update users set verified = true where id = ${Number(owner.uid)}`);
  await call(t.app, 'POST', '/api/v1/money-passwords', { token: owner.token, body: { kind: 'withdraw', proof: 'login_password', loginPassword: PASSWORD, password: PIN, confirmPassword: PIN } });
  await fund(t, Number(owner.uid), 100_000_000n);
}

async function ownerWithdrawal(t: TestApp, owner: User): Promise<string> {
  await withdrawalOwner(t, owner);
  const reply = await call<{ id: string }>(t.app, 'POST', '/api/v1/withdrawals', {
    token: owner.token,
    headers: { 'idempotency-key': idempotencyKey() },
    body: { asset: 'USDT', network: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amount: '20', password: PIN },
  });
  if (reply.body.code !== 0) throw new Error(JSON.stringify(reply.body));
  return reply.body.data.id;
}

async function ownerCard(t: TestApp, owner: User): Promise<string> {
  const reply = await call<{ id: string }>(t.app, 'POST', '/api/v1/bank-cards', {
    token: owner.token,
    body: { bankName: 'Harbour Bank', accountNumber: '6222021234567890', branchName: 'Central', branchCode: 'HBK-001', holderName: 'Mei Lin' },
  });
  if (reply.body.code !== 0) throw new Error(JSON.stringify(reply.body));
  return reply.body.data.id;
}

async function withdrawalsUnchanged(t: TestApp, owner: User) {
  const list = await call<{ items: { status: string; total: string }[] }>(t.app, 'GET', '/api/v1/withdrawals', { token: owner.token });
  expect(list.body.data.items.map((i) => [i.status, i.total])).toEqual([['under_review', '21']]);
  const balances = await call<{ spot: { asset: string; available: string; locked: string }[] }>(t.app, 'GET', '/api/v1/wallet/balances', { token: owner.token });
  expect(balances.body.data.spot.find((s) => s.asset === 'USDT')).toMatchObject({ available: '79', locked: '21' });
}

async function cardsUnchanged(t: TestApp, owner: User, id: string) {
  const cards = await call<{ items: { id: string }[] }>(t.app, 'GET', '/api/v1/bank-cards', { token: owner.token });
  expect(cards.body.data.items.map((c) => c.id)).toEqual([id]);
}

function idFields(schema: z.ZodType | undefined): string[] {
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
      .filter((route) => route.auth === 'user' && (idFields(route.body).length > 0 || idFields(route.query).length > 0))
      .map((route) => `${route.method} ${route.url}`);
    expect(needing.length).toBeGreaterThan(0);
    expect(needing.filter((name) => !CASES[name])).toEqual([]);
  });

  it.each(Object.keys(CASES))('%s: another user is denied and the object is unchanged', async (name) => {
    const ownershipCase = CASES[name] as OwnershipCase;
    const [method, url] = name.split(' ') as ['GET' | 'POST', string];
    const owner = await registerUser(t.app);
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
  });
});
