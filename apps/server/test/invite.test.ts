import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../src/modules/ledger/invariants.ts';
import { queryRows } from '../src/platform/db.ts';
import {
  PASSWORD,
  T0,
  type TestApp,
  call,
  createTestApp,
  idempotencyKey,
  lastCode,
  operatorToken,
  registerUser,
  uniqueEmail,
} from './harness.ts';
import { approveRewardBudget } from './reward-budget-helpers.ts';

/**
 * Invitations and bonus codes (spec §1, /Invite). On PGlite (one connection) concurrent
 * redemptions interleave; with TEST_DATABASE_URL they race on PostgreSQL for real.
 */

let t: TestApp;
let catalog: string;
beforeAll(async () => {
  t = await createTestApp();
  catalog = (await operatorToken(t, 'catalog')).token;
  // Every reward draws on an approved budget (issue 29); reward-budgets.test.ts covers it.
  await approveRewardBudget(t, '100000');
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;
const UNAVAILABLE = 'Cannot participate in the activity at this time';
let codeCounter = 0;

interface CodeOptions {
  amount?: string;
  asset?: string;
  maxRedemptions?: number;
  perUserLimit?: number;
  startsAt?: string;
  expiresAt?: string;
  verifiedOnly?: boolean;
}

async function createCode(options: CodeOptions = {}): Promise<string> {
  codeCounter += 1;
  const code = `TEST-${codeCounter}-${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
  const reply = await call(t.app, 'POST', '/api/admin/v1/bonus-codes', {
    token: catalog,
    body: {
      code,
      asset: 'USDT',
      amount: '10',
      maxRedemptions: 100,
      verifiedOnly: false,
      expiresAt: new Date(t.clock.now().getTime() + DAY_MS).toISOString(),
      ...options,
    },
  });
  if (reply.body.code !== 0) throw new Error(`create code failed: ${JSON.stringify(reply.body)}`);
  return code;
}

const redeem = (token: string, code: string, options: { key?: string; lang?: string } = {}) =>
  call<{ code: string; asset: string; amount: string; message: string }>(
    t.app,
    'POST',
    '/api/v1/bonus-codes/redeem',
    {
      token,
      body: { code },
      lang: options.lang,
      headers: { 'idempotency-key': options.key ?? idempotencyKey() },
    },
  );

async function spotUsdt(token: string): Promise<string> {
  const reply = await call<{ spot: { asset: string; available: string }[] }>(
    t.app,
    'GET',
    '/api/v1/wallet/balances',
    { token },
  );
  return reply.body.data.spot.find((s) => s.asset === 'USDT')?.available ?? '0';
}

const count = async (query: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: string }>(t.database.db, query))[0]?.n);
const rewardsHouse = async () =>
  (
    await queryRows<{ v: string }>(
      t.database.db,
      sql`select coalesce((select available::text from ledger_accounts where name = 'house:rewards:USDT'), '0') as v`,
    )
  )[0]?.v;
const codeRow = async (code: string) =>
  (
    await queryRows<{ id: string; redeemed_count: number }>(
      t.database.db,
      sql`select id::text, redeemed_count from bonus_codes where code = ${code}`,
    )
  )[0];

describe('redeeming a bonus code', () => {
  it('credits the reward once through the ledger: a reward entry from house:rewards, one redemption, the counter up by one', async () => {
    t.clock.set(T0);
    const code = await createCode({ amount: '12.5', maxRedemptions: 50 });
    const user = await registerUser(t.app);
    const houseBefore = BigInt((await rewardsHouse()) ?? '0');
    const key = idempotencyKey();

    const reply = await redeem(user.token, code.toLowerCase(), { key });
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
    expect(reply.body.data).toEqual({
      code,
      asset: 'USDT',
      amount: '12.5',
      message: 'Congratulations on receiving a reward: 12.5 USDT!',
    });
    expect(await spotUsdt(user.token)).toBe('12.5');

    const postings = await queryRows<{
      account: string;
      type: string;
      amount: string;
      kind: string;
    }>(
      t.database.db,
      sql`select a.name as account, p.type, p.amount::text, e.kind from ledger_postings p join ledger_entries e on e.id = p.entry_id join ledger_accounts a on a.id = p.account_id
          where e.reference like ${`bonus_code:%:${user.uid}:%`} order by p.amount`,
    );
    expect(postings).toEqual([
      { account: 'house:rewards:USDT', type: 'reward', amount: '-12500000', kind: 'bonus_code' },
      {
        account: `user:${user.uid}:spot:USDT`,
        type: 'reward',
        amount: '12500000',
        kind: 'bonus_code',
      },
    ]);
    expect(BigInt((await rewardsHouse()) ?? '0')).toBe(houseBefore - 12_500_000n);
    expect((await codeRow(code))?.redeemed_count).toBe(1);

    // The same request again (a retry) replays the first reply and credits nothing more.
    const replay = await redeem(user.token, code.toLowerCase(), { key });
    expect(replay.body).toMatchObject({ code: 0, data: reply.body.data });
    // A new attempt is a second use: refused, nothing moves.
    const again = await redeem(user.token, code);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 3204,
      message: `${UNAVAILABLE}: you have already used this code.`,
    });
    expect(await spotUsdt(user.token)).toBe('12.5');
    expect((await codeRow(code))?.redeemed_count).toBe(1);
    expect(
      await count(
        sql`select count(*) as n from bonus_redemptions where user_id = ${Number(user.uid)}`,
      ),
    ).toBe(1);

    // The funds detail shows it as a reward.
    const funds = await call<{ items: { type: string; amount: string }[] }>(
      t.app,
      'GET',
      '/api/v1/funds/postings',
      { token: user.token },
    );
    expect(funds.body.data.items.map((i) => [i.type, i.amount])).toEqual([['reward', '12.5']]);
  });

  it('needs an Idempotency-Key, like every money route', async () => {
    const code = await createCode();
    const user = await registerUser(t.app);
    const reply = await call(t.app, 'POST', '/api/v1/bonus-codes/redeem', {
      token: user.token,
      body: { code },
    });
    expect(reply.body.code).toBe(422);
    expect(await spotUsdt(user.token)).toBe('0');
  });

  it.each([
    [
      'an unknown code',
      3200,
      404,
      async (): Promise<string> => 'NO-SUCH-CODE',
      'this code does not exist.',
    ],
    [
      'an expired code',
      3202,
      409,
      async (): Promise<string> =>
        createCode({
          startsAt: new Date(T0 - 2 * DAY_MS).toISOString(),
          expiresAt: new Date(T0 - 1000).toISOString(),
        }),
      'this code has expired.',
    ],
    [
      'a code not started yet',
      3201,
      409,
      async (): Promise<string> =>
        createCode({
          startsAt: new Date(T0 + DAY_MS).toISOString(),
          expiresAt: new Date(T0 + 2 * DAY_MS).toISOString(),
        }),
      'this code is not active yet.',
    ],
    [
      'a verified-only code, for an unverified user',
      3205,
      403,
      async (): Promise<string> => createCode({ verifiedOnly: true }),
      'this code is for verified users; complete identity verification first.',
    ],
  ] as const)(
    '%s is refused with %i and no balance changes',
    async (_name, errorCode, status, arrange, reason) => {
      t.clock.set(T0);
      const code = await arrange();
      const user = await registerUser(t.app);
      const houseBefore = await rewardsHouse();
      const reply = await redeem(user.token, code);
      expect(reply.status).toBe(status);
      expect(reply.body).toMatchObject({
        code: errorCode,
        message: `${UNAVAILABLE}: ${reason}`,
        data: null,
      });
      expect(await spotUsdt(user.token)).toBe('0');
      expect(await rewardsHouse()).toBe(houseBefore);
      expect(
        await count(
          sql`select count(*) as n from bonus_redemptions where user_id = ${Number(user.uid)}`,
        ),
      ).toBe(0);
    },
  );

  it('the refusal is in the request language', async () => {
    const user = await registerUser(t.app);
    expect((await redeem(user.token, 'NO-SUCH-CODE', { lang: 'zh-CN' })).body.message).toBe(
      '暂时无法参与该活动：兑换码不存在。',
    );
    expect((await redeem(user.token, 'NO-SUCH-CODE', { lang: 'de' })).body.message).toBe(
      'Teilnahme an der Aktion derzeit nicht möglich: Diesen Code gibt es nicht.',
    );
  });

  it('a verified-only code credits a verified user', async () => {
    t.clock.set(T0);
    const code = await createCode({ verifiedOnly: true });
    const user = await registerUser(t.app);
    await t.database.db.execute(
      sql`update users set verified = true where id = ${Number(user.uid)}`,
    );
    expect((await redeem(user.token, code)).body.code).toBe(0);
    expect(await spotUsdt(user.token)).toBe('10');
  });

  it('a code at its total limit is refused as fully claimed; the earlier redeemers keep their reward', async () => {
    t.clock.set(T0);
    const code = await createCode({ maxRedemptions: 1 });
    const first = await registerUser(t.app);
    const second = await registerUser(t.app);
    expect((await redeem(first.token, code)).body.code).toBe(0);
    const refused = await redeem(second.token, code);
    expect(refused.body).toMatchObject({
      code: 3203,
      message: `${UNAVAILABLE}: this code has been fully claimed.`,
    });
    expect([await spotUsdt(first.token), await spotUsdt(second.token)]).toEqual(['10', '0']);
  });

  it('a code expires at its expiry instant, by the server clock', async () => {
    t.clock.set(T0);
    const code = await createCode({ expiresAt: new Date(T0 + 60_000).toISOString() });
    const early = await registerUser(t.app);
    const late = await registerUser(t.app);
    expect((await redeem(early.token, code)).body.code).toBe(0);
    t.clock.set(T0 + 60_000);
    expect((await redeem(late.token, code)).body.code).toBe(3202);
    expect(await spotUsdt(late.token)).toBe('0');
    t.clock.set(T0);
  });

  it('50 concurrent redemptions of a code with a total limit of 10: exactly 10 credits, the ledger holds', async () => {
    t.clock.set(T0);
    const code = await createCode({ maxRedemptions: 10, amount: '3' });
    const users = [];
    for (let i = 0; i < 50; i++) users.push(await registerUser(t.app));
    const houseBefore = BigInt((await rewardsHouse()) ?? '0');
    const replies = await Promise.all(users.map((user) => redeem(user.token, code)));
    const codes = replies.map((r) => r.body.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(10);
    expect(codes.filter((c) => c === 3203)).toHaveLength(40);
    const balances = await Promise.all(users.map((user) => spotUsdt(user.token)));
    expect(balances.filter((b) => b === '3')).toHaveLength(10);
    expect(balances.filter((b) => b === '0')).toHaveLength(40);
    // The winners are exactly the ones told so.
    users.forEach((_, i) => expect(balances[i]).toBe(codes[i] === 0 ? '3' : '0'));
    expect(BigInt((await rewardsHouse()) ?? '0')).toBe(houseBefore - 30_000_000n);
    const row = await codeRow(code);
    expect(row?.redeemed_count).toBe(10);
    expect(
      await count(
        sql`select count(*) as n from bonus_redemptions where code_id = ${Number(row?.id)}`,
      ),
    ).toBe(10);
    expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
  });

  it('one user racing 10 redemptions of a code allowed twice per user gets exactly 2', async () => {
    t.clock.set(T0);
    const code = await createCode({ perUserLimit: 2, maxRedemptions: 100 });
    const user = await registerUser(t.app);
    const replies = await Promise.all(Array.from({ length: 10 }, () => redeem(user.token, code)));
    const codes = replies.map((r) => r.body.code).sort();
    expect(codes.filter((c) => c === 0)).toHaveLength(2);
    expect(codes.filter((c) => c === 3204)).toHaveLength(8);
    expect(await spotUsdt(user.token)).toBe('20');
    expect(
      await queryRows(
        t.database.db,
        sql`select n from bonus_redemptions where user_id = ${Number(user.uid)} order by n`,
      ),
    ).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await checkLedger(t.database.db, t.app.services.obligations)).toEqual([]);
  });

  it('the database refuses a redemption past the per-user limit and any change to a redemption', async () => {
    const code = await createCode({ perUserLimit: 1 });
    const user = await registerUser(t.app);
    expect((await redeem(user.token, code)).body.code).toBe(0);
    const row = await codeRow(code);
    const entry = (
      await queryRows<{ entry_id: string }>(
        t.database.db,
        sql`select entry_id::text from bonus_redemptions where code_id = ${Number(row?.id)}`,
      )
    )[0];
    await expect(
      t.database.db.execute(
        sql`insert into bonus_redemptions (code_id, user_id, n, entry_id, created_at) values (${Number(row?.id)}, ${Number(user.uid)}, 2, ${Number(entry?.entry_id)}, now())`,
      ),
    ).rejects.toThrow();
    await expect(
      t.database.db.execute(sql`delete from bonus_redemptions where code_id = ${Number(row?.id)}`),
    ).rejects.toThrow();
    await expect(
      t.database.db.execute(sql`update bonus_codes set redeemed_count = 0 where code = ${code}`),
    ).rejects.toThrow();
    await expect(
      t.database.db.execute(sql`update bonus_codes set amount_minor = 1 where code = ${code}`),
    ).rejects.toThrow();
    await expect(
      t.database.db.execute(sql`update bonus_codes set max_redemptions = 0 where code = ${code}`),
    ).rejects.toThrow();
  });
});

describe('operators create bonus codes', () => {
  it('a catalog operator creates a code, audit-logged; a duplicate is refused; a reviewer may not', async () => {
    const admin = await operatorToken(t, 'admin');
    const code = `AUDIT-${Date.now().toString(36).toUpperCase()}`;
    const body = {
      code,
      asset: 'USDT',
      amount: '5',
      maxRedemptions: 3,
      perUserLimit: 1,
      expiresAt: new Date(T0 + DAY_MS).toISOString(),
      verifiedOnly: true,
      reason: 'launch week',
    };
    const created = await call<{ id: string; code: string; redeemedCount: number }>(
      t.app,
      'POST',
      '/api/admin/v1/bonus-codes',
      { token: catalog, body },
    );
    expect(created.body.data).toMatchObject({
      code,
      amount: '5',
      maxRedemptions: 3,
      perUserLimit: 1,
      redeemedCount: 0,
      verifiedOnly: true,
    });
    const auditReply = await call<{
      items: { action: string; targetId: string; reason: string; after: string }[];
    }>(
      t.app,
      'GET',
      `/api/admin/v1/audit?action=bonus_code.create&targetId=${created.body.data.id}`,
      { token: admin.token },
    );
    expect(auditReply.body.data.items).toHaveLength(1);
    expect(auditReply.body.data.items[0]).toMatchObject({
      action: 'bonus_code.create',
      reason: 'launch week',
    });
    expect(JSON.parse(auditReply.body.data.items[0]?.after ?? '{}')).toMatchObject({
      code,
      amount: '5',
      maxRedemptions: 3,
    });

    const duplicate = await call(t.app, 'POST', '/api/admin/v1/bonus-codes', {
      token: catalog,
      body,
    });
    expect(duplicate.body.code).toBe(3206);
    const reviewer = await operatorToken(t, 'reviewer');
    const forbidden = await call(t.app, 'POST', '/api/admin/v1/bonus-codes', {
      token: reviewer.token,
      body: { ...body, code: `${code}-R` },
    });
    expect(forbidden.status).toBe(403);
    const users = await registerUser(t.app);
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/bonus-codes', {
          token: users.token,
          body: { ...body, code: `${code}-U` },
        })
      ).status,
    ).toBe(401);
    const list = await call<{ items: { code: string }[] }>(
      t.app,
      'GET',
      '/api/admin/v1/bonus-codes',
      { token: catalog },
    );
    expect(list.body.data.items.map((c) => c.code)).toContain(code);
    expect(list.body.data.items.map((c) => c.code)).not.toContain(`${code}-R`);
  });

  it('npm run ops -- bonus-code:create creates a code and audit-logs it as the named operator, via cli', async () => {
    const { OPS_COMMANDS } = await import('../src/ops-commands.ts');
    const { findOperator } = await import('../src/modules/operator/service.ts');
    const admin = await operatorToken(t, 'admin');
    const operator = await findOperator(t.database.db, admin.username);
    const command = OPS_COMMANDS.get('bonus-code:create');
    if (!command || !operator) throw new Error('bonus-code:create or the operator is missing');
    const context = { ...t.app.services, db: t.database.db, operator, args: [] };
    const output = await command.run(context, {
      code: 'cli-code-1',
      asset: 'USDT',
      amount: '2.5',
      'max-redemptions': '5',
      'per-user': '2',
      'expires-at': new Date(T0 + DAY_MS).toISOString(),
      'verified-only': 'true',
      reason: 'from the shell',
    });
    expect(output).toContain('bonus code CLI-CODE-1');
    expect(
      await queryRows(
        t.database.db,
        sql`select a.action, a.via, a.reason, o.username from audit_log a join operators o on o.id = a.operator_id where a.target_type = 'bonus_code' and a.after like '%CLI-CODE-1%'`,
      ),
    ).toEqual([
      {
        action: 'bonus_code.create',
        via: 'cli',
        reason: 'from the shell',
        username: admin.username,
      },
    ]);
    expect(
      await queryRows(
        t.database.db,
        sql`select amount_minor::text as amount, max_redemptions, per_user_limit, verified_only from bonus_codes where code = 'CLI-CODE-1'`,
      ),
    ).toEqual([{ amount: '2500000', max_redemptions: 5, per_user_limit: 2, verified_only: true }]);
    await expect(
      command.run(context, {
        code: 'x',
        asset: 'USDT',
        amount: '1',
        'max-redemptions': '1',
        'expires-at': 'soon',
      }),
    ).rejects.toThrow(/--code|--expiresAt/);
    const list = await OPS_COMMANDS.get('bonus-code:list')?.run(context, {});
    expect(list).toContain('CLI-CODE-1 2.5 USDT redeemed 0/5');
  });

  it('an amount finer than the asset allows is refused as a form error', async () => {
    const reply = await call(t.app, 'POST', '/api/admin/v1/bonus-codes', {
      token: catalog,
      body: {
        code: 'TOO-FINE',
        asset: 'USDT',
        amount: '0.0000001',
        maxRedemptions: 1,
        expiresAt: new Date(T0 + DAY_MS).toISOString(),
      },
    });
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors).toHaveProperty('amount');
  });
});

/** Both register tabs prove the address: the invitation one also sends a code (decision 0026). */
async function sendRegisterCode(channel: 'email' | 'phone', account: string): Promise<string> {
  const sent = await call(t.app, 'POST', '/api/v1/auth/codes', {
    body: { channel, account, purpose: 'register' },
  });
  if (sent.body.code !== 0) throw new Error(`send code failed: ${JSON.stringify(sent.body)}`);
  return lastCode(t.app, account.toLowerCase());
}

async function registerInvited(inviteCode: string, account = uniqueEmail('friend')) {
  const code = await sendRegisterCode('email', account);
  const reply = await call<{ token: string; uid: string }>(t.app, 'POST', '/api/v1/auth/register', {
    body: {
      mode: 'invite',
      channel: 'email',
      account,
      code,
      inviteCode,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    },
  });
  if (reply.body.code !== 0) throw new Error(`register failed: ${JSON.stringify(reply.body)}`);
  return { account, ...reply.body.data };
}

interface Invitees {
  items: { contact: string; joinedAt: string; verified: boolean }[];
  nextCursor: string | null;
}

describe('invitations', () => {
  it('the invite list shows only the people who registered with your own code, contacts masked, newest first', async () => {
    t.clock.set(T0);
    const inviter = await registerUser(t.app);
    const other = await registerUser(t.app);
    const mine = (
      await call<{ inviteCode: string; invitedCount: number }>(t.app, 'GET', '/api/v1/invite', {
        token: inviter.token,
      })
    ).body.data;
    const theirs = (
      await call<{ inviteCode: string }>(t.app, 'GET', '/api/v1/invite', { token: other.token })
    ).body.data;
    expect(mine.inviteCode).toMatch(/^[A-Z0-9]{8}$/);
    expect(mine.invitedCount).toBe(0);

    const alice = await registerInvited(mine.inviteCode, 'alice.inv@example.com');
    t.clock.advance(60_000);
    const bob = await registerInvited(mine.inviteCode.toLowerCase(), 'bo@example.org');
    await registerInvited(theirs.inviteCode, 'carol.inv@example.com');
    await t.database.db.execute(
      sql`update users set verified = true where id = ${Number(alice.uid)}`,
    );

    const list = await call<Invitees>(t.app, 'GET', '/api/v1/invite/invitees', {
      token: inviter.token,
    });
    expect(list.body.data.items).toEqual([
      {
        contact: 'bo***@example.org',
        joinedAt: new Date(T0 + 60_000).toISOString(),
        verified: false,
      },
      { contact: 'al***@example.com', joinedAt: new Date(T0).toISOString(), verified: true },
    ]);
    expect(list.body.data.nextCursor).toBeNull();
    expect(JSON.stringify(list.body.data)).not.toContain('carol');
    expect(
      (await call(t.app, 'GET', '/api/v1/invite', { token: inviter.token })).body.data,
    ).toMatchObject({ invitedCount: 2, verifiedCount: 1 });
    const otherList = await call<Invitees>(t.app, 'GET', '/api/v1/invite/invitees', {
      token: other.token,
    });
    expect(otherList.body.data.items.map((i) => i.contact)).toEqual(['ca***@example.com']);
    // The invitees' own lists are empty: invitation is not transitive.
    expect(
      (await call<Invitees>(t.app, 'GET', '/api/v1/invite/invitees', { token: bob.token })).body
        .data.items,
    ).toEqual([]);

    // Pages: one at a time, the cursor continues where the last page ended.
    const first = await call<Invitees>(t.app, 'GET', '/api/v1/invite/invitees?limit=1', {
      token: inviter.token,
    });
    expect(first.body.data.items.map((i) => i.contact)).toEqual(['bo***@example.org']);
    const second = await call<Invitees>(
      t.app,
      'GET',
      `/api/v1/invite/invitees?limit=1&cursor=${first.body.data.nextCursor}`,
      { token: inviter.token },
    );
    expect(second.body.data.items.map((i) => i.contact)).toEqual(['al***@example.com']);
  });

  it('a phone invitee is shown masked', async () => {
    const inviter = await registerUser(t.app);
    const { inviteCode } = (
      await call<{ inviteCode: string }>(t.app, 'GET', '/api/v1/invite', { token: inviter.token })
    ).body.data;
    const reply = await call(t.app, 'POST', '/api/v1/auth/register', {
      body: {
        mode: 'invite',
        channel: 'phone',
        account: '+14155550177',
        code: await sendRegisterCode('phone', '+14155550177'),
        inviteCode,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      },
    });
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
    const list = await call<Invitees>(t.app, 'GET', '/api/v1/invite/invitees', {
      token: inviter.token,
    });
    expect(list.body.data.items.map((i) => i.contact)).toEqual(['+1415***0177']);
  });

  it('needs a session', async () => {
    expect((await call(t.app, 'GET', '/api/v1/invite')).body.code).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/invite/invitees')).body.code).toBe(401);
    expect(
      (await call(t.app, 'POST', '/api/v1/bonus-codes/redeem', { body: { code: 'WELCOME10' } }))
        .body.code,
    ).toBe(401);
  });
});

describe('demo data', () => {
  it('seeds one demo bonus code, once', async () => {
    const { seedDemo } = await import('../src/modules/demo/seed.ts');
    const deps = { db: t.database.db, clock: t.clock, ledger: t.app.services.ledger };
    await seedDemo(deps);
    await seedDemo(deps);
    expect(
      await queryRows(
        t.database.db,
        sql`select code, amount_minor::text as amount, per_user_limit from bonus_codes where code = 'WELCOME10'`,
      ),
    ).toEqual([{ code: 'WELCOME10', amount: '10000000', per_user_limit: 1 }]);
    const user = await registerUser(t.app);
    expect((await redeem(user.token, 'welcome10')).body.code).toBe(0);
    expect(await spotUsdt(user.token)).toBe('10');
  });
});
