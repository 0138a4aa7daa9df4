import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { queryRows } from '../src/platform/db.ts';
import { trader } from './contracts.ts';
import {
  TRADE_PIN,
  type TestApp,
  call,
  createTestApp,
  idempotencyKey,
  operatorToken,
  registerUser,
  testConfig,
} from './harness.ts';
import { recordPrices } from './prices.ts';
import { noisyPng, upload } from './uploads.ts';
import { sharedSettingDefault } from '../src/platform/config.ts';

/**
 * Issue 30: settings came from each node's environment, so two nodes could apply different
 * ones (node 2 kept the default of 20 open orders and refused 250 of 500 orders node 1
 * accepted). Now the install's value lives in the database and every node applies it; a
 * node's own environment only seeds a new install.
 */

let t: TestApp;
let nodeB: FastifyInstance;
const warnings: string[] = [];
let adminA: string;
let adminB: string;

beforeAll(async () => {
  // Node A starts first and seeds the install with 3; node B's environment says 50.
  t = await createTestApp({
    env: { CONTRACT_MAX_OPEN_ORDERS: '3', CARD_DEPOSIT_FEE_BPS: '25' },
  });
  nodeB = await buildApp({
    config: testConfig({ CONTRACT_MAX_OPEN_ORDERS: '50', CARD_DEPOSIT_FEE_BPS: '500' }),
    database: t.database,
    clock: t.clock,
    logger: {
      level: 'warn',
      stream: { write: (line: string) => void warnings.push(JSON.parse(line).msg) },
    },
  });
  await nodeB.ready();
  adminA = (await operatorToken(t, 'admin')).token;
  adminB = (await operatorToken(t, 'admin')).token;
});
afterAll(async () => {
  await nodeB.close();
  await t.close();
});

function order(app: FastifyInstance, token: string) {
  return call<{ order: { id: string } }>(app, 'POST', '/api/v1/contracts/orders', {
    token,
    body: {
      symbol: 'BTCUSDT',
      direction: 'up',
      periodId: 1,
      amount: '10',
      tradePassword: TRADE_PIN,
    },
    headers: { 'idempotency-key': idempotencyKey() },
  });
}

const openOrders = async (userId: number) =>
  Number(
    (
      await queryRows<{ n: string }>(
        t.database.db,
        sql`select count(*)::text as n from contract_orders where user_id = ${userId} and state = 'open'`,
      )
    )[0]?.n,
  );

const shared = (app: FastifyInstance, token: string) =>
  call<{
    items: { name: string; value: string; setBy: string | null }[];
    changes: { id: string; status: string }[];
  }>(app, 'GET', '/api/admin/v1/settings/shared', { token });

const request = (app: FastifyInstance, token: string, body: object, lang = 'en') =>
  call<{ id: string; status: string; previous: string }>(
    app,
    'POST',
    '/api/admin/v1/settings/shared',
    { token, body, lang },
  );

const decide = (app: FastifyInstance, token: string, body: object) =>
  call<{ status: string }>(app, 'POST', '/api/admin/v1/settings/shared/decide', { token, body });

describe('one configuration for every node', () => {
  it("a node whose environment differs applies the install's value, and says so in its log", async () => {
    const user = await trader(t);
    await recordPrices(t, { BTCUSDT: '60000' });
    for (let i = 0; i < 3; i++) expect((await order(nodeB, user.token)).body.code).toBe(0);
    const fourth = await order(nodeB, user.token);
    expect(fourth.status).toBe(409);
    expect(fourth.body.message).toContain('3');
    expect(await openOrders(user.id)).toBe(3);
    expect(
      warnings.some((w) => w.includes('CONTRACT_MAX_OPEN_ORDERS=50') && w.includes('is 3')),
    ).toBe(true);
    const config = await call<{ maxOpenOrders: number }>(nodeB, 'GET', '/api/v1/contracts/config', {
      token: user.token,
    });
    expect(config.body.data.maxOpenOrders).toBe(3);
    const listed = await shared(nodeB, adminA);
    expect(listed.body.data.items.find((i) => i.name === 'CONTRACT_MAX_OPEN_ORDERS')).toMatchObject(
      { value: '3', setBy: 'environment' },
    );
  });

  it('a change applies only once a second admin approves it, then on every node at once', async () => {
    const user = await trader(t);
    await recordPrices(t, { BTCUSDT: '60000' });
    for (let i = 0; i < 3; i++) expect((await order(t.app, user.token)).body.code).toBe(0);

    const asked = await request(t.app, adminA, {
      name: 'CONTRACT_MAX_OPEN_ORDERS',
      value: '5',
      reason: 'busier market',
    });
    expect(asked.body.code).toBe(0);
    expect(asked.body.data).toMatchObject({ status: 'pending', previous: '3' });
    // Waiting: nothing applies yet, on either node.
    expect((await order(nodeB, user.token)).status).toBe(409);
    // A second change of the same setting waits behind the first.
    const again = await request(nodeB, adminB, {
      name: 'CONTRACT_MAX_OPEN_ORDERS',
      value: '6',
      reason: 'even busier',
    });
    expect(again.body.code).toBe(3743);
    // The requester cannot approve their own change.
    const own = await decide(nodeB, adminA, { id: asked.body.data.id, decision: 'approve' });
    expect(own.body.code).toBe(3720);
    expect((await order(t.app, user.token)).status).toBe(409);

    const approved = await decide(nodeB, adminB, { id: asked.body.data.id, decision: 'approve' });
    expect(approved.body.code).toBe(0);
    expect(approved.body.data.status).toBe('approved');
    // Node A (which did not take the approval) applies 5 at once, and so does node B.
    expect((await order(t.app, user.token)).body.code).toBe(0);
    expect((await order(nodeB, user.token)).body.code).toBe(0);
    expect((await order(t.app, user.token)).status).toBe(409);
    expect(await openOrders(user.id)).toBe(5);

    const audit = await queryRows<{ action: string }>(
      t.database.db,
      sql`select action from audit_log where target_type = 'setting' order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['setting.request', 'setting.approve']);
    const decidedTwice = await decide(t.app, adminB, {
      id: asked.body.data.id,
      decision: 'approve',
    });
    expect(decidedTwice.body.code).toBe(3742);
  });

  it('the card-deposit fee and limits and the quarantine band are the install’s too', async () => {
    const user = await trader(t);
    const cardConfig = async (app: FastifyInstance) =>
      (
        await call<{ feeBps: number; minAmount: string; maxAmount: string }>(
          app,
          'GET',
          '/api/v1/card-deposits/config',
          { token: user.token },
        )
      ).body.data;
    // Node B's environment says 500 basis points; the install (seeded by node A) says 25.
    expect(await cardConfig(nodeB)).toMatchObject({
      feeBps: 25,
      minAmount: '10',
      maxAmount: '100000',
    });
    expect(await cardConfig(t.app)).toMatchObject({ feeBps: 25 });
    // A minimum above the install's maximum is refused; raised after the maximum, it applies.
    const crossed = await request(t.app, adminA, {
      name: 'CARD_DEPOSIT_MIN_USDT',
      value: '200000',
      reason: 'large clients only',
    });
    expect(crossed.status).toBe(422);
    for (const [name, value] of [
      ['CARD_DEPOSIT_MAX_USDT', '500000'],
      ['CARD_DEPOSIT_MIN_USDT', '200000'],
      ['MARKET_QUARANTINE_BAND_PPM', '20000'],
    ] as const) {
      const asked = await request(t.app, adminA, { name, value, reason: 'large clients only' });
      expect(asked.body.code, `${name}: ${asked.body.message}`).toBe(0);
      const approved = await decide(nodeB, adminB, { id: asked.body.data.id, decision: 'approve' });
      expect(approved.body.code, `${name}: ${approved.body.message}`).toBe(0);
    }
    for (const app of [t.app, nodeB])
      expect(await cardConfig(app)).toMatchObject({
        feeBps: 25,
        minAmount: '200000',
        maxAmount: '500000',
      });
    // The band the console shows (and the recorder reads) is the install's, on every node.
    for (const app of [t.app, nodeB]) {
      const sources = await call<{ quarantineBandPpm: number }>(
        app,
        'GET',
        '/api/admin/v1/market/sources',
        { token: adminA },
      );
      expect(sources.body.data.quarantineBandPpm).toBe(20_000);
    }
  });

  it('the upload limit is the install’s: lowered through one node, the other refuses the larger file', async () => {
    const user = await registerUser(t.app);
    const photo = await noisyPng(200, 200);
    expect((await upload(nodeB, user.token, { purpose: 'kyc', data: photo })).status).toBe(200);
    const asked = await request(t.app, adminA, {
      name: 'UPLOAD_MAX_BYTES',
      value: String(photo.length - 1),
      reason: 'smaller photos',
    });
    expect(asked.body.code).toBe(0);
    expect(
      (await decide(nodeB, adminB, { id: asked.body.data.id, decision: 'approve' })).body.code,
    ).toBe(0);
    for (const app of [t.app, nodeB]) {
      const refused = await upload(app, user.token, { purpose: 'kyc', data: photo });
      expect(refused.status).toBe(413);
      expect(refused.body.code).toBe(2202);
    }
    // Put back, so the other tests upload as before.
    const back = await request(t.app, adminA, {
      name: 'UPLOAD_MAX_BYTES',
      value: sharedSettingDefault('UPLOAD_MAX_BYTES'),
      reason: 'restore',
    });
    expect(
      (await decide(nodeB, adminB, { id: back.body.data.id, decision: 'approve' })).body.code,
    ).toBe(0);
  });

  it('a bad value is refused in the reader’s language and nothing is recorded', async () => {
    const before = await shared(t.app, adminA);
    for (const [name, value] of [
      ['CONTRACT_MAX_OPEN_ORDERS', 'many'],
      ['CONTRACT_MAX_OPEN_ORDERS', '0'],
      ['CONVERT_FEE_BPS', '-1'],
      ['WITHDRAWAL_SECOND_APPROVAL', 'USDT:10000'],
      ['BONUS_CODE_APPROVAL_THRESHOLD', 'USDT:lots'],
      ['MINING_AUTO_APPROVE', 'perhaps'],
    ] as const) {
      const reply = await request(t.app, adminA, { name, value, reason: 'try' }, 'zh-CN');
      expect(reply.status, `${name}=${value}`).toBe(422);
      expect(reply.body.code).toBe(422);
      expect(reply.body.errors?.value).toEqual([`该值对 ${name} 无效。`]);
    }
    const unknown = await request(t.app, adminA, { name: 'PORT', value: '80', reason: 'try' });
    expect(unknown.status).toBe(422);
    const same = await request(t.app, adminA, {
      name: 'CONTRACT_MAX_OPEN_ORDERS',
      value: '5',
      reason: 'same',
    });
    expect(same.body.code).toBe(3744);
    expect((await shared(t.app, adminA)).body.data).toEqual(before.body.data);
  });

  it('a rejected change needs a reason and changes nothing', async () => {
    const asked = await request(t.app, adminA, {
      name: 'CONVERT_FEE_BPS',
      value: '50',
      reason: 'higher fee',
    });
    expect(asked.body.code).toBe(0);
    const bare = await decide(t.app, adminB, { id: asked.body.data.id, decision: 'reject' });
    expect(bare.status).toBe(422);
    const rejected = await decide(t.app, adminB, {
      id: asked.body.data.id,
      decision: 'reject',
      reason: 'not now',
    });
    expect(rejected.body.data.status).toBe('rejected');
    const fee = (await shared(t.app, adminA)).body.data.items.find(
      (i) => i.name === 'CONVERT_FEE_BPS',
    );
    expect(fee).toMatchObject({ value: '20', setBy: null });
  });

  it('only admins see or change them', async () => {
    const reviewer = (await operatorToken(t, 'reviewer')).token;
    expect((await shared(t.app, reviewer)).status).toBe(403);
    const reply = await request(t.app, reviewer, {
      name: 'CONVERT_FEE_BPS',
      value: '10',
      reason: 'x',
    });
    expect(reply.status).toBe(403);
  });
});

describe('outside demo mode', () => {
  let live: TestApp;
  beforeAll(async () => {
    live = await createTestApp({ env: { DEMO_MODE: 'false' } });
  });
  afterAll(() => live.close());

  it('rentals cannot be set to skip review', async () => {
    const admin = (await operatorToken(live, 'admin')).token;
    const reply = await request(live.app, admin, {
      name: 'MINING_AUTO_APPROVE',
      value: 'true',
      reason: 'faster',
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors?.value).toEqual(['This value is not valid for MINING_AUTO_APPROVE.']);
    const off = await request(live.app, admin, {
      name: 'MINING_AUTO_APPROVE',
      value: 'false',
      reason: 'same',
    });
    expect(off.body.code).toBe(3744);
  });
});
