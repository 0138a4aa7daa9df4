import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/platform/db.ts';
import { totp } from '../src/modules/security/totp.ts';
import {
  PASSWORD,
  type TestApp,
  call,
  createTestApp,
  lastCode,
  registerUser,
  uniqueEmail,
  uniquePhone,
} from './harness.ts';

/**
 * Issue 29: an account belongs to whoever proves its address. Registering by invitation code
 * used to claim any address without proof; the owner then heard "already exists".
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sendCode = (account: string, purpose = 'register', channel = 'email') =>
  call(t.app, 'POST', '/api/v1/auth/codes', { body: { channel, account, purpose } });

const registerBody = (fields: Record<string, unknown>) => ({
  channel: 'email',
  password: PASSWORD,
  confirmPassword: PASSWORD,
  ...fields,
});

const register = (fields: Record<string, unknown>) =>
  call<{ token: string; uid: string }>(t.app, 'POST', '/api/v1/auth/register', {
    body: registerBody(fields),
  });

const signIn = (account: string, password = PASSWORD, channel = 'email') =>
  call<{ token: string }>(t.app, 'POST', '/api/v1/auth/login', {
    body: { channel, account, password },
  });

const profile = (token: string) =>
  call<{ email: string | null; emailVerified: boolean; inviteCode: string }>(
    t.app,
    'GET',
    '/api/v1/user/profile',
    { token },
  );

async function inviteCodeOf(token: string): Promise<string> {
  return (await profile(token)).body.data.inviteCode;
}

const usersWithEmail = (email: string) =>
  queryRows<{ id: string; email_verified: boolean }>(
    t.database.db,
    sql`select id::text, email_verified from users where email = ${email}`,
  );

/** An account as the old invitation registration left it: its address never proved. */
async function legacyUnproved(account = uniqueEmail('squatted')) {
  const user = await registerUser(t.app, account);
  await t.database.db.execute(
    sql`update users set email_verified = false where id = ${Number(user.uid)}`,
  );
  // Past the resend wait of the code registerUser asked for.
  t.clock.advance(61_000);
  return user;
}

describe('registering by invitation code proves the address', () => {
  it('squatting an address by invitation code is refused: no code, no account', async () => {
    const inviter = await registerUser(t.app);
    const victim = uniqueEmail('owner');
    const squat = await register({
      mode: 'invite',
      account: victim,
      inviteCode: await inviteCodeOf(inviter.token),
    });
    expect(squat.body.code).toBe(422);
    expect(squat.body.errors?.code).toEqual(['This field is required.']);
    expect(await usersWithEmail(victim)).toEqual([]);

    // A guessed code does not do either: the code went to the owner's mailbox, not the squatter's.
    const guessed = await register({
      mode: 'invite',
      account: victim,
      code: '000000',
      inviteCode: await inviteCodeOf(inviter.token),
    });
    expect(guessed.body.code).toBe(1003);
    expect(await usersWithEmail(victim)).toEqual([]);

    // The owner registers with their address and a code sent to it.
    expect((await sendCode(victim)).body.code).toBe(0);
    const owner = await register({
      mode: 'code',
      account: victim,
      code: await lastCode(t.app, victim),
    });
    expect(owner.body.code).toBe(0);
    expect((await profile(owner.body.data.token)).body.data).toMatchObject({
      email: victim,
      emailVerified: true,
    });
  });

  it('an invitation registration with the code sent to the address links the inviter and proves the address', async () => {
    const inviter = await registerUser(t.app);
    const email = uniqueEmail('friend');
    expect((await sendCode(email)).body.code).toBe(0);
    const reply = await register({
      mode: 'invite',
      account: email,
      code: await lastCode(t.app, email),
      inviteCode: (await inviteCodeOf(inviter.token)).toLowerCase(),
    });
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
    expect((await profile(reply.body.data.token)).body.data).toMatchObject({
      email,
      emailVerified: true,
    });
    const rows = await queryRows<{ inviter_id: string }>(
      t.database.db,
      sql`select inviter_id::text from users where email = ${email}`,
    );
    expect(rows[0]?.inviter_id).toBe(inviter.uid);
  });

  it('a phone invitation registration needs the SMS code too', async () => {
    const inviter = await registerUser(t.app);
    const phone = uniquePhone();
    const inviteCode = await inviteCodeOf(inviter.token);
    const without = await register({
      mode: 'invite',
      channel: 'phone',
      account: phone,
      inviteCode,
    });
    expect(without.body.errors?.code).toEqual(['This field is required.']);
    expect((await sendCode(phone, 'register', 'phone')).body.code).toBe(0);
    const reply = await register({
      mode: 'invite',
      channel: 'phone',
      account: phone,
      code: await lastCode(t.app, phone),
      inviteCode,
    });
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
  });

  it('ten unproved accounts cannot exist: every attempt without a code creates nothing', async () => {
    const inviter = await registerUser(t.app);
    const inviteCode = await inviteCodeOf(inviter.token);
    const before = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from users`,
    );
    for (let i = 0; i < 10; i++) {
      const reply = await call(t.app, 'POST', '/api/v1/auth/register', {
        body: registerBody({ mode: 'invite', account: uniqueEmail('farm'), inviteCode }),
        ip: `203.0.113.${i + 1}`,
      });
      expect(reply.body.code).toBe(422);
    }
    const after = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from users`,
    );
    expect(after[0]?.n).toBe(before[0]?.n);
    const invitees = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from users where inviter_id = ${Number(inviter.uid)}`,
    );
    expect(invitees[0]?.n).toBe(0);
  });
});

describe('an address nobody proved gives way to whoever proves it', () => {
  it('the owner registers an address a legacy account holds unproved; the squatter loses it', async () => {
    const squatter = await legacyUnproved();
    const sent = await sendCode(squatter.account);
    expect(sent.body.code, JSON.stringify(sent.body)).toBe(0);
    const owner = await register({
      mode: 'code',
      account: squatter.account,
      code: await lastCode(t.app, squatter.account),
    });
    expect(owner.body.code, JSON.stringify(owner.body)).toBe(0);

    const rows = await usersWithEmail(squatter.account);
    expect(rows).toEqual([{ id: owner.body.data.uid, email_verified: true }]);
    // The squatter's account has no address left: it is frozen, its sessions are gone.
    const [old] = await queryRows<{ email: string | null; frozen: boolean; claimed: boolean }>(
      t.database.db,
      sql`select email, frozen_at is not null as frozen, address_claimed_at is not null as claimed
          from users where id = ${Number(squatter.uid)}`,
    );
    expect(old).toEqual({ email: null, frozen: true, claimed: true });
    expect((await profile(squatter.token)).body.code).toBe(411);
    // Signing in with the address now reaches the owner's account, with the owner's password only.
    const signedIn = await signIn(squatter.account);
    expect(signedIn.body.code).toBe(0);
    expect((await profile(signedIn.body.data.token)).body.data.email).toBe(squatter.account);
  });

  it('even with two-factor on, the squatter keeps nothing of the address', async () => {
    const squatter = await legacyUnproved();
    const setup = await call<{ secret: string }>(t.app, 'POST', '/api/v1/security/2fa/setup', {
      token: squatter.token,
    });
    const enabled = await call(t.app, 'POST', '/api/v1/security/2fa/enable', {
      token: squatter.token,
      body: { code: totp(setup.body.data.secret, t.clock.now().getTime()) },
    });
    expect(enabled.body.code, JSON.stringify(enabled.body)).toBe(0);
    expect((await sendCode(squatter.account)).body.code).toBe(0);
    const owner = await register({
      mode: 'code',
      account: squatter.account,
      code: await lastCode(t.app, squatter.account),
    });
    expect(owner.body.code).toBe(0);
    // The owner's own account: no two-factor step the squatter set up.
    const signedIn = await signIn(squatter.account);
    expect(signedIn.body.data).toHaveProperty('token');
  });

  it('a password reset never hands an account over through an address it never proved', async () => {
    const squatter = await legacyUnproved();
    const sent = await sendCode(squatter.account, 'reset_password');
    expect(sent.body.code).toBe(0);
    const outbox = await call<{ items: unknown[] }>(
      t.app,
      'GET',
      `/api/v1/dev/outbox?to=${encodeURIComponent(squatter.account)}`,
    );
    // The register code is the only mail there: the reset code was not sent.
    expect(outbox.body.data.items).toHaveLength(1);
    const reset = await call(t.app, 'POST', '/api/v1/auth/password/reset', {
      body: {
        channel: 'email',
        account: squatter.account,
        code: await lastCode(t.app, squatter.account),
        password: 'another-pass-1',
        confirmPassword: 'another-pass-1',
      },
    });
    expect(reset.body.code).toBe(1003);
    expect((await signIn(squatter.account)).body.code).toBe(0);
  });

  it('a proved address still blocks: "already exists" for anyone else', async () => {
    const owner = await registerUser(t.app);
    expect((await sendCode(owner.account)).body.code).toBe(1002);
  });

  it('the holder of a legacy unproved address proves it with a code from /SetEmail', async () => {
    const user = await legacyUnproved();
    const sent = await call(t.app, 'POST', '/api/v1/user/contact/codes', {
      token: user.token,
      body: { channel: 'email', account: user.account },
    });
    expect(sent.body.code, JSON.stringify(sent.body)).toBe(0);
    const changed = await call<{ emailVerified: boolean }>(t.app, 'POST', '/api/v1/user/contact', {
      token: user.token,
      body: {
        channel: 'email',
        account: user.account,
        code: await lastCode(t.app, user.account),
        password: PASSWORD,
      },
    });
    expect(changed.body.code, JSON.stringify(changed.body)).toBe(0);
    expect(changed.body.data.emailVerified).toBe(true);
  });

  it('binding an address another account holds unproved takes it from that account', async () => {
    const squatter = await legacyUnproved();
    const other = await registerUser(t.app, uniquePhone(), 'phone');
    await call(t.app, 'POST', '/api/v1/user/contact/codes', {
      token: other.token,
      body: { channel: 'email', account: squatter.account },
    });
    const changed = await call<{ email: string }>(t.app, 'POST', '/api/v1/user/contact', {
      token: other.token,
      body: {
        channel: 'email',
        account: squatter.account,
        code: await lastCode(t.app, squatter.account),
        password: PASSWORD,
      },
    });
    expect(changed.body.code, JSON.stringify(changed.body)).toBe(0);
    expect(await usersWithEmail(squatter.account)).toEqual([
      { id: other.uid, email_verified: true },
    ]);
  });
});
