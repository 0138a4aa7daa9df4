import { type SQL, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/platform/db.ts';
import { recordCreditEvent } from '../src/modules/credit/service.ts';
import {
  PASSWORD,
  type TestApp,
  call,
  createTestApp,
  lastCode,
  operatorToken,
  registerUser,
  uniqueEmail,
  uniquePhone,
} from './harness.ts';
import { jpegWithExif, pngImage, tempDataDir, upload } from './uploads.ts';

let t: TestApp;
const data = tempDataDir();
beforeAll(async () => {
  t = await createTestApp({ env: { DATA_DIR: data.dir } });
});
afterAll(async () => {
  await t.close();
  data.remove();
});

type User = Awaited<ReturnType<typeof registerUser>>;
interface Profile {
  uid: string;
  nickname: string;
  avatar: string | null;
  email: string | null;
  phone: string | null;
  emailVerified: boolean;
  phoneVerified: boolean;
  creditScore: number;
  points: number;
}

const profile = async (user: User) =>
  (await call<Profile>(t.app, 'GET', '/api/v1/user/profile', { token: user.token })).body.data;
const update = (user: User, body: unknown, lang?: string) =>
  call<Profile>(t.app, 'POST', '/api/v1/user/profile', { token: user.token, body, lang });
const userRow = async (user: User) =>
  (
    await queryRows<{
      nickname: string;
      avatar: string | null;
      email: string | null;
      phone: string | null;
      email_verified: boolean;
      phone_verified: boolean;
    }>(
      t.database.db,
      sql`select nickname, avatar, email, phone, email_verified, phone_verified from users where id = ${Number(user.uid)}`,
    )
  )[0];
const outbox = async (to: string) =>
  (
    await call<{ items: { subject: string; body: string }[] }>(
      t.app,
      'GET',
      `/api/v1/dev/outbox?to=${encodeURIComponent(to)}`,
    )
  ).body.data.items;

async function avatarUpload(user: User, image: Buffer): Promise<string> {
  const reply = await upload(t.app, user.token, { purpose: 'avatar', data: image });
  if (reply.body.code !== 0) throw new Error(`upload failed: ${JSON.stringify(reply.body)}`);
  return reply.body.data.id;
}

describe('avatar (spec §2 /SetInfo)', () => {
  it('an uploaded avatar is cropped square, resized, re-encoded, set on the profile and served publicly', async () => {
    const user = await registerUser(t.app);
    const reply = await upload(t.app, user.token, {
      purpose: 'avatar',
      data: await pngImage(900, 300),
    });
    expect(reply.body.code).toBe(0);
    expect(reply.body.data).toMatchObject({
      purpose: 'avatar',
      mime: 'image/jpeg',
      width: 256,
      height: 256,
    });
    // Uploading alone changes nothing on the profile.
    expect((await userRow(user))?.avatar).toBeNull();

    const updated = await update(user, { avatarFileId: reply.body.data.id });
    expect(updated.body.code).toBe(0);
    const row = await userRow(user);
    expect(row?.avatar).toMatch(/^[0-9a-f]{48}\.jpg$/);
    expect(updated.body.data.avatar).toBe(row?.avatar);

    const [file] = await queryRows<{ visibility: string }>(
      t.database.db,
      sql`select visibility from files where id = ${Number(reply.body.data.id)}`,
    );
    expect(file?.visibility).toBe('public');

    // Served from the image host without a session, as a 256×256 JPEG.
    const served = await t.app.inject({ method: 'GET', url: `/files/${row?.avatar}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toContain('public');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 256, height: 256 });
  });

  it('metadata is stripped from an avatar', async () => {
    const user = await registerUser(t.app);
    const id = await avatarUpload(user, await jpegWithExif());
    await update(user, { avatarFileId: id });
    const served = await t.app.inject({
      method: 'GET',
      url: `/files/${(await userRow(user))?.avatar}`,
    });
    expect(served.statusCode).toBe(200);
    expect((await sharp(served.rawPayload).metadata()).exif).toBeUndefined();
  });

  it('a non-image is refused with a localized message and the avatar is unchanged', async () => {
    const user = await registerUser(t.app);
    const first = await avatarUpload(user, await pngImage(64, 64));
    await update(user, { avatarFileId: first });
    const before = (await userRow(user))?.avatar;
    const reply = await upload(t.app, user.token, {
      purpose: 'avatar',
      data: Buffer.from('%PDF-1.7 not an image'),
      filename: 'a.pdf',
      contentType: 'application/pdf',
      lang: 'de',
    });
    expect(reply.status).toBe(415);
    expect(reply.body.code).toBe(2201);
    expect(reply.body.message).not.toMatch(/Only JPEG/);
    expect((await userRow(user))?.avatar).toBe(before);
  });

  it('a file uploaded for another purpose cannot become the avatar', async () => {
    const user = await registerUser(t.app);
    const kyc = await upload(t.app, user.token, { purpose: 'kyc', data: await pngImage(64, 64) });
    const reply = await update(user, { avatarFileId: kyc.body.data.id });
    expect(reply.status).toBe(422);
    expect(reply.body.errors?.avatarFileId).toHaveLength(1);
    expect((await userRow(user))?.avatar).toBeNull();
  });

  it("another user's avatar file cannot be taken", async () => {
    const owner = await registerUser(t.app);
    const intruder = await registerUser(t.app);
    const id = await avatarUpload(owner, await pngImage(64, 64));
    const reply = await update(intruder, { avatarFileId: id });
    expect(reply.status).toBe(422);
    expect(reply.body.errors?.avatarFileId).toHaveLength(1);
    expect((await userRow(intruder))?.avatar).toBeNull();
  });

  it('private files are never served from the image host', async () => {
    const user = await registerUser(t.app);
    const kyc = await upload(t.app, user.token, { purpose: 'kyc', data: await pngImage(64, 64) });
    const [row] = await queryRows<{ storage_key: string }>(
      t.database.db,
      sql`select storage_key from files where id = ${Number(kyc.body.data.id)}`,
    );
    for (const url of [
      `/files/${row?.storage_key}.jpg`,
      `/files/${row?.storage_key}`,
      '/files/..%2f..%2fetc%2fpasswd',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
  });
});

describe('nickname rules', () => {
  const cases: {
    name: string;
    nickname: string;
    ok: boolean;
    stored?: string;
    message?: string;
  }[] = [
    { name: 'letters and digits', nickname: 'Trader42', ok: true, stored: 'Trader42' },
    {
      name: 'trimmed, single spaces and _-. inside',
      nickname: '  Anna_M. de-Vries ',
      ok: true,
      stored: 'Anna_M. de-Vries',
    },
    { name: 'Chinese characters', nickname: '小明交易员', ok: true, stored: '小明交易员' },
    { name: 'accents', nickname: 'Zoë Müller', ok: true, stored: 'Zoë Müller' },
    { name: 'exactly 20 characters', nickname: 'a'.repeat(20), ok: true, stored: 'a'.repeat(20) },
    {
      name: 'one character',
      nickname: 'a',
      ok: false,
      message: 'The nickname needs at least 2 characters.',
    },
    { name: 'only spaces', nickname: '    ', ok: false, message: 'This field is required.' },
    {
      name: '21 characters',
      nickname: 'a'.repeat(21),
      ok: false,
      message: 'The nickname can have at most 20 characters.',
    },
    {
      name: 'markup',
      nickname: '<script>x',
      ok: false,
      message: 'Use letters, digits, single spaces, "_", "-" or "."; start with a letter or digit.',
    },
    {
      name: 'two spaces in a row',
      nickname: 'a  b',
      ok: false,
      message: 'Use letters, digits, single spaces, "_", "-" or "."; start with a letter or digit.',
    },
    {
      name: 'an invisible character',
      nickname: 'ad\u200bmin',
      ok: false,
      message: 'Use letters, digits, single spaces, "_", "-" or "."; start with a letter or digit.',
    },
    {
      name: 'a leading dot',
      nickname: '.admin',
      ok: false,
      message: 'Use letters, digits, single spaces, "_", "-" or "."; start with a letter or digit.',
    },
    {
      name: 'an emoji',
      nickname: 'moon🚀',
      ok: false,
      message: 'Use letters, digits, single spaces, "_", "-" or "."; start with a letter or digit.',
    },
  ];

  it.each(cases)('$name', async ({ nickname, ok, stored, message }) => {
    const user = await registerUser(t.app);
    const before = (await userRow(user))?.nickname;
    const reply = await update(user, { nickname });
    if (ok) {
      expect(reply.body.code).toBe(0);
      expect(reply.body.data.nickname).toBe(stored);
      expect((await userRow(user))?.nickname).toBe(stored);
    } else {
      expect(reply.status).toBe(422);
      expect(reply.body.errors?.nickname).toEqual([message]);
      expect((await userRow(user))?.nickname).toBe(before);
    }
  });

  it('the message is in the request language', async () => {
    const user = await registerUser(t.app);
    const reply = await update(user, { nickname: 'x' }, 'zh_CN');
    expect(reply.body.errors?.nickname).toEqual(['昵称至少需要 2 个字符。']);
  });

  it('nickname and avatar change together', async () => {
    const user = await registerUser(t.app);
    const id = await avatarUpload(user, await pngImage(64, 64));
    const reply = await update(user, { nickname: 'Both At Once', avatarFileId: id });
    expect(reply.body.code).toBe(0);
    expect(await userRow(user)).toMatchObject({
      nickname: 'Both At Once',
      avatar: expect.stringMatching(/\.jpg$/),
    });
  });

  it('an empty request is refused', async () => {
    const user = await registerUser(t.app);
    expect((await update(user, {})).status).toBe(422);
  });
});

describe('bind or change email and phone (spec §2 /SetEmail, /SetPhone)', () => {
  const sendCode = (user: User, channel: 'email' | 'phone', account: string, lang?: string) =>
    call(t.app, 'POST', '/api/v1/user/contact/codes', {
      token: user.token,
      body: { channel, account },
      lang,
    });
  const change = (user: User, body: Record<string, unknown>, lang?: string) =>
    call<Profile>(t.app, 'POST', '/api/v1/user/contact', { token: user.token, body, lang });

  it('changes the email with the code sent to the new address and the password; the old address is told', async () => {
    const user = await registerUser(t.app);
    const old = user.account.toLowerCase();
    const next = uniqueEmail('moved');
    expect((await sendCode(user, 'email', next.toUpperCase())).body.code).toBe(0);
    const code = await lastCode(t.app, next);
    const reply = await change(user, { channel: 'email', account: next, code, password: PASSWORD });
    expect(reply.body.code).toBe(0);
    expect(reply.body.data.email).toBe(next);
    expect(await userRow(user)).toMatchObject({ email: next, email_verified: true });

    const notices = await outbox(old);
    expect(notices[0]?.subject).toBe('Your Tradewind email address was changed');
    expect(notices[0]?.body).toContain(`UID ${user.uid}`);
    expect(notices[0]?.body).toContain(`mo***@example.com`);
    expect(notices[0]?.body).not.toContain(next);

    // The new address signs in; the old one no longer does.
    expect(
      (
        await call(t.app, 'POST', '/api/v1/auth/login', {
          body: { channel: 'email', account: next, password: PASSWORD },
        })
      ).body.code,
    ).toBe(0);
    expect(
      (
        await call(t.app, 'POST', '/api/v1/auth/login', {
          body: { channel: 'email', account: old, password: PASSWORD },
        })
      ).body.code,
    ).not.toBe(0);
  });

  it('binds a phone to an email account (nobody to tell), and then changes it (the old phone is told, in German)', async () => {
    const user = await registerUser(t.app);
    const phone = uniquePhone();
    await sendCode(user, 'phone', phone);
    const bound = await change(user, {
      channel: 'phone',
      account: phone,
      code: await lastCode(t.app, phone),
      password: PASSWORD,
    });
    expect(bound.body.code).toBe(0);
    expect(await userRow(user)).toMatchObject({
      phone,
      phone_verified: true,
      email: user.account.toLowerCase(),
    });

    const next = uniquePhone();
    await sendCode(user, 'phone', next);
    const changed = await change(
      user,
      { channel: 'phone', account: next, code: await lastCode(t.app, next), password: PASSWORD },
      'de',
    );
    expect(changed.body.code).toBe(0);
    expect((await userRow(user))?.phone).toBe(next);
    const notices = await outbox(phone);
    expect(notices[0]?.subject).toBe('Ihre Tradewind-Telefonnummer wurde geändert');
    expect(notices[0]?.body).toContain(`***${next.slice(-4)}`);
  });

  it('a wrong code is refused on the code field and nothing changes', async () => {
    const user = await registerUser(t.app);
    const next = uniqueEmail();
    await sendCode(user, 'email', next);
    const code = await lastCode(t.app, next);
    const wrong = code === '000000' ? '111111' : '000000';
    const reply = await change(user, {
      channel: 'email',
      account: next,
      code: wrong,
      password: PASSWORD,
    });
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.code).toEqual(['The verification code is incorrect.']);
    expect((await userRow(user))?.email).toBe(user.account.toLowerCase());
    // The right code still works after one wrong try.
    expect(
      (await change(user, { channel: 'email', account: next, code, password: PASSWORD })).body.code,
    ).toBe(0);
  });

  it('a wrong password is refused on the password field, the code is not spent, nothing changes', async () => {
    const user = await registerUser(t.app);
    const next = uniqueEmail();
    await sendCode(user, 'email', next);
    const code = await lastCode(t.app, next);
    const reply = await change(
      user,
      { channel: 'email', account: next, code, password: 'not-my-password' },
      'fr',
    );
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors?.password).toEqual(['Le mot de passe actuel est incorrect.']);
    expect((await userRow(user))?.email).toBe(user.account.toLowerCase());
    expect(await outbox(user.account.toLowerCase())).toHaveLength(1); // only the registration code
    expect(
      (await change(user, { channel: 'email', account: next, code, password: PASSWORD })).body.code,
    ).toBe(0);
  });

  it('an address another account uses is refused at the code step and at the change step', async () => {
    const owner = await registerUser(t.app);
    const user = await registerUser(t.app);
    const taken = owner.account.toLowerCase();
    const sent = await sendCode(user, 'email', taken, 'es');
    expect(sent.body.code).toBe(422);
    expect(sent.body.errors?.account).toEqual(['Esta dirección ya la usa otra cuenta.']);
    const reply = await change(user, {
      channel: 'email',
      account: taken,
      code: '123456',
      password: PASSWORD,
    });
    expect(reply.body.errors?.account).toEqual([
      'This address is already used by another account.',
    ]);
    expect((await userRow(user))?.email).toBe(user.account.toLowerCase());
    expect((await userRow(owner))?.email).toBe(taken);
  });

  it('two accounts racing for one address: the unique index lets exactly one have it', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const phone = uniquePhone();
    await sendCode(a, 'phone', phone);
    const codeA = await lastCode(t.app, phone);
    // Both hold a valid code: a's is consumed in a's change, b asks for a new one after the cooldown.
    t.clock.advance(61_000);
    await sendCode(b, 'phone', phone);
    const codeB = await lastCode(t.app, phone);
    // b's code superseded a's: a is refused (the newest code only), b binds the phone.
    const [ra, rb] = await Promise.all([
      change(a, { channel: 'phone', account: phone, code: codeA, password: PASSWORD }),
      change(b, { channel: 'phone', account: phone, code: codeB, password: PASSWORD }),
    ]);
    expect([ra.body.code, rb.body.code].filter((c) => c === 0)).toHaveLength(1);
    const owners = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id::text from users where phone = ${phone}`,
    );
    expect(owners).toHaveLength(1);
  });

  it('the unique index is the last word: a change that loses the race gets CONTACT_IN_USE', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const next = uniqueEmail('race');
    await sendCode(b, 'email', next);
    const code = await lastCode(t.app, next);
    // a takes the address directly after b's code went out (as if a's change committed first).
    await t.database.db.execute(sql`update users set email = ${next} where id = ${Number(a.uid)}`);
    const reply = await change(
      b,
      { channel: 'email', account: next, code, password: PASSWORD },
      'it',
    );
    expect(reply.body.errors?.account).toEqual([
      'Questo indirizzo è già usato da un altro account.',
    ]);
    expect((await userRow(b))?.email).toBe(b.account.toLowerCase());
  });

  it('the current address is refused', async () => {
    const user = await registerUser(t.app);
    const reply = await sendCode(user, 'email', user.account);
    expect(reply.body.errors?.account).toEqual(['This is already your current address.']);
    expect(await outbox(user.account.toLowerCase())).toHaveLength(1);
  });

  it('a malformed address is a field error', async () => {
    const user = await registerUser(t.app);
    const reply = await sendCode(user, 'phone', '12345');
    expect(reply.status).toBe(422);
    expect(reply.body.errors?.account).toEqual(['Please enter a valid phone number.']);
  });

  it('a code sent for another purpose does not bind an address', async () => {
    const user = await registerUser(t.app);
    const next = uniqueEmail();
    await call(t.app, 'POST', '/api/v1/auth/codes', {
      body: { channel: 'email', account: next, purpose: 'register' },
    });
    const reply = await change(user, {
      channel: 'email',
      account: next,
      code: await lastCode(t.app, next),
      password: PASSWORD,
    });
    expect(reply.body.errors?.code).toEqual(['The verification code is incorrect.']);
    expect((await userRow(user))?.email).toBe(user.account.toLowerCase());
  });
});

describe('credit score (recomputed from append-only events)', () => {
  interface Credit {
    score: number;
    base: number;
    rules: { kind: string; points: number; active: boolean }[];
    events: { kind: string; points: number }[];
  }
  const credit = async (user: User) =>
    (await call<Credit>(t.app, 'GET', '/api/v1/credit', { token: user.token })).body.data;
  const creditRows = (user: User) =>
    queryRows<{ kind: string; points: number; ref: string }>(
      t.database.db,
      sql`select kind, points, ref from credit_events where user_id = ${Number(user.uid)} order by id`,
    );

  it('a new user has the base score, no events, and sees the rule table', async () => {
    const user = await registerUser(t.app);
    expect(await credit(user)).toMatchObject({ score: 100, base: 100, events: [] });
    expect((await credit(user)).rules).toEqual([
      { kind: 'kyc_approved', points: 20, oncePerUser: true, active: true },
      { kind: 'loan_repaid_on_time', points: 5, oncePerUser: false, active: true },
      { kind: 'loan_overdue', points: -20, oncePerUser: false, active: true },
    ]);
    expect((await profile(user)).creditScore).toBe(100);
  });

  it('KYC approval records one event in the same transaction and raises the score to 120', async () => {
    const user = await registerUser(t.app);
    const reviewer = await operatorToken(t, 'reviewer');
    const photo = async () =>
      (await upload(t.app, user.token, { purpose: 'kyc', data: await pngImage(120, 80) })).body.data
        .id;
    const submitted = await call<{ submission: { id: string } }>(t.app, 'POST', '/api/v1/kyc', {
      token: user.token,
      body: {
        country: 'DE',
        lastName: 'Muster',
        firstName: 'Eva',
        documentType: 'passport',
        documentNumber: 'C01X00T47',
        frontFileId: await photo(),
        faceFileId: await photo(),
      },
    });
    expect(submitted.body.code).toBe(0);
    const id = submitted.body.data.submission.id;
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/kyc/decide', {
          token: reviewer.token,
          body: { id, decision: 'approve' },
        })
      ).body.code,
    ).toBe(0);
    expect(await creditRows(user)).toEqual([
      { kind: 'kyc_approved', points: 20, ref: `kyc_submission:${id}` },
    ]);
    expect((await credit(user)).score).toBe(120);
    expect((await profile(user)).creditScore).toBe(120);
  });

  it('a rejected KYC records nothing', async () => {
    const user = await registerUser(t.app);
    const reviewer = await operatorToken(t, 'reviewer');
    const photo = async () =>
      (await upload(t.app, user.token, { purpose: 'kyc', data: await pngImage(120, 80) })).body.data
        .id;
    const submitted = await call<{ submission: { id: string } }>(t.app, 'POST', '/api/v1/kyc', {
      token: user.token,
      body: {
        country: 'DE',
        lastName: 'Muster',
        firstName: 'Eva',
        documentType: 'passport',
        documentNumber: 'C01X00T48',
        frontFileId: await photo(),
        faceFileId: await photo(),
      },
    });
    await call(t.app, 'POST', '/api/admin/v1/kyc/decide', {
      token: reviewer.token,
      body: { id: submitted.body.data.submission.id, decision: 'reject', reason: 'Blurry photo.' },
    });
    expect(await creditRows(user)).toEqual([]);
    expect((await credit(user)).score).toBe(100);
  });

  it('the score is the base plus the recorded events, bounded to 0..200; a second KYC event counts once', async () => {
    const user = await registerUser(t.app);
    const uid = Number(user.uid);
    await t.database.db.transaction(async (tx) => {
      expect(
        await recordCreditEvent(tx, t.clock.now(), {
          userId: uid,
          kind: 'kyc_approved',
          ref: 'kyc_submission:x1',
        }),
      ).toBe(true);
      expect(
        await recordCreditEvent(tx, t.clock.now(), {
          userId: uid,
          kind: 'kyc_approved',
          ref: 'kyc_submission:x2',
        }),
      ).toBe(false);
      for (let i = 0; i < 3; i++)
        await recordCreditEvent(tx, t.clock.now(), {
          userId: uid,
          kind: 'loan_overdue',
          ref: `loan:${i}`,
        });
    });
    // 100 + 20 − 3 × 20 = 60
    expect((await credit(user)).score).toBe(60);
    expect((await credit(user)).events.map((e) => e.kind)).toEqual([
      'loan_overdue',
      'loan_overdue',
      'loan_overdue',
      'kyc_approved',
    ]);
    await t.database.db.transaction(async (tx) => {
      for (let i = 3; i < 10; i++)
        await recordCreditEvent(tx, t.clock.now(), {
          userId: uid,
          kind: 'loan_overdue',
          ref: `loan:${i}`,
        });
    });
    expect((await credit(user)).score).toBe(0);
  });

  it('credit events cannot be edited, deleted or truncated, by anyone', async () => {
    const user = await registerUser(t.app);
    await recordCreditEvent(t.database.db, t.clock.now(), {
      userId: Number(user.uid),
      kind: 'kyc_approved',
      ref: 'kyc_submission:y',
    });
    const attempts: SQL[] = [
      sql`update credit_events set points = 1000 where user_id = ${Number(user.uid)}`,
      sql`delete from credit_events where user_id = ${Number(user.uid)}`,
      sql`truncate credit_events`,
    ];
    for (const attempt of attempts) await expect(t.database.db.execute(attempt)).rejects.toThrow();
    expect(await creditRows(user)).toEqual([
      { kind: 'kyc_approved', points: 20, ref: 'kyc_submission:y' },
    ]);
  });

  it('each user sees only their own score and events', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    await recordCreditEvent(t.database.db, t.clock.now(), {
      userId: Number(a.uid),
      kind: 'kyc_approved',
      ref: 'kyc_submission:z',
    });
    expect((await credit(a)).score).toBe(120);
    expect(await credit(b)).toMatchObject({ score: 100, events: [] });
    expect((await call(t.app, 'GET', '/api/v1/credit')).status).toBe(401);
  });
});
