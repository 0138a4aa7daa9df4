import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../src/modules/kyc/ops.ts';
import type { OpsContext } from '../src/modules/operator/ops-commands.ts';
import { OPS_COMMANDS } from '../src/ops-commands.ts';
import { findOperator } from '../src/modules/operator/service.ts';
import { queryRows } from '../src/platform/db.ts';
import { type TestApp, call, createTestApp, operatorToken, registerUser } from './harness.ts';
import { pngImage, tempDataDir, upload } from './uploads.ts';

let t: TestApp;
let reviewer: { token: string; username: string };
let admin: { token: string; username: string };
const data = tempDataDir();
beforeAll(async () => {
  t = await createTestApp({ env: { DATA_DIR: data.dir } });
  reviewer = await operatorToken(t, 'reviewer');
  admin = await operatorToken(t, 'admin');
});
afterAll(async () => {
  await t.close();
  data.remove();
});

interface Submission {
  id: string;
  status: string;
  reason: string | null;
  frontFileId: string;
  backFileId: string | null;
  faceFileId: string;
  lastName: string;
  documentNumber: string;
}
interface Overview {
  verified: boolean;
  state: string;
  submission: Submission | null;
}
type User = { token: string; uid: string };

async function photo(user: User, purpose = 'kyc'): Promise<string> {
  const reply = await upload(t.app, user.token, { purpose, data: await pngImage(120, 80) });
  if (reply.body.code !== 0) throw new Error(`upload failed: ${JSON.stringify(reply.body)}`);
  return reply.body.data.id;
}

async function photos(user: User) {
  return {
    frontFileId: await photo(user),
    backFileId: await photo(user),
    faceFileId: await photo(user),
  };
}

const form = (
  files: Record<string, string | undefined>,
  overrides: Record<string, unknown> = {},
) => ({
  country: 'DE',
  lastName: 'Müller-Lüdenscheidt',
  firstName: 'Anna Maria',
  documentType: 'id_card',
  documentNumber: 'l01x00t47',
  ...files,
  ...overrides,
});

const submit = (user: User, body: unknown, lang?: string) =>
  call<Overview>(t.app, 'POST', '/api/v1/kyc', { token: user.token, body, lang });
const overview = async (user: User) =>
  (await call<Overview>(t.app, 'GET', '/api/v1/kyc', { token: user.token })).body.data;
const profileVerified = async (user: User) =>
  (await call<{ verified: boolean }>(t.app, 'GET', '/api/v1/user/profile', { token: user.token }))
    .body.data.verified;
const decide = (token: string, body: Record<string, unknown>) =>
  call<Submission & { uid: string }>(t.app, 'POST', '/api/admin/v1/kyc/decide', { token, body });
const rowsOf = (user: User) =>
  queryRows<{ id: string; status: string; reason: string | null }>(
    t.database.db,
    sql`select id::text, status, reason from kyc_submissions where user_id = ${Number(user.uid)} order by id`,
  );
const auditFor = async (id: string) =>
  (
    await call<{
      items: {
        operator: string;
        action: string;
        before: string;
        after: string;
        reason: string | null;
      }[];
    }>(t.app, 'GET', `/api/admin/v1/audit?targetType=kyc_submission&targetId=${id}`, {
      token: admin.token,
    })
  ).body.data.items;

async function pendingUser(): Promise<{ user: User; id: string }> {
  const user = await registerUser(t.app);
  const reply = await submit(user, form(await photos(user)));
  if (reply.body.code !== 0) throw new Error(`submit failed: ${JSON.stringify(reply.body)}`);
  return { user, id: reply.body.data.submission?.id ?? '' };
}

describe('identity verification (spec §3 KYC, §4 statuses)', () => {
  it('a new user has nothing to show and is not verified', async () => {
    const user = await registerUser(t.app);
    expect(await overview(user)).toEqual({ verified: false, state: 'none', submission: null });
  });

  it('submit → under review → operator approves → verified in the profile → audit entry', async () => {
    const user = await registerUser(t.app);
    const files = await photos(user);
    const submitted = await submit(user, form(files));
    expect(submitted.body.code).toBe(0);
    expect(submitted.body.data).toMatchObject({
      verified: false,
      state: 'pending',
      submission: {
        status: 'pending',
        reason: null,
        ...files,
        lastName: 'Müller-Lüdenscheidt',
        documentNumber: 'L01X00T47',
      },
    });
    const id = submitted.body.data.submission?.id ?? '';
    expect(await profileVerified(user)).toBe(false);

    const queue = await call<{ items: (Submission & { uid: string })[] }>(
      t.app,
      'GET',
      '/api/admin/v1/kyc/queue',
      { token: reviewer.token },
    );
    expect(queue.body.data.items.find((i) => i.id === id)).toMatchObject({
      uid: user.uid,
      status: 'pending',
      frontFileId: files.frontFileId,
    });

    const approved = await decide(reviewer.token, { id, decision: 'approve' });
    expect(approved.body.code).toBe(0);
    expect(approved.body.data).toMatchObject({
      id,
      uid: user.uid,
      status: 'approved',
      reason: null,
    });
    expect(await overview(user)).toMatchObject({
      verified: true,
      state: 'approved',
      submission: { id, status: 'approved' },
    });
    expect(await profileVerified(user)).toBe(true);

    const entries = await auditFor(id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operator: reviewer.username,
      action: 'kyc.approve',
      reason: null,
    });
    expect(JSON.parse(entries[0]?.before ?? '{}')).toEqual({
      status: 'pending',
      userId: Number(user.uid),
    });
    expect(JSON.parse(entries[0]?.after ?? '{}')).toEqual({ status: 'approved', verified: true });
    // Approved items leave the queue.
    const after = await call<{ items: { id: string }[] }>(t.app, 'GET', '/api/admin/v1/kyc/queue', {
      token: reviewer.token,
    });
    expect(after.body.data.items.some((i) => i.id === id)).toBe(false);
  });

  it('reject with a reason → the user sees the reason → submits again with new photos', async () => {
    const { user, id } = await pendingUser();
    const rejected = await decide(reviewer.token, {
      id,
      decision: 'reject',
      reason: 'The photo of the front is blurry.',
    });
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      reason: 'The photo of the front is blurry.',
    });
    expect(await overview(user)).toMatchObject({
      verified: false,
      state: 'rejected',
      submission: { id, status: 'rejected', reason: 'The photo of the front is blurry.' },
    });
    expect(await profileVerified(user)).toBe(false);
    expect((await auditFor(id))[0]).toMatchObject({
      action: 'kyc.reject',
      reason: 'The photo of the front is blurry.',
    });

    const again = await submit(user, form(await photos(user)));
    expect(again.body.code).toBe(0);
    expect(again.body.data.state).toBe('pending');
    expect(again.body.data.submission?.id).not.toBe(id);
    expect(again.body.data.submission?.reason).toBeNull();
    // The rejected submission stays as it was, with its reason.
    expect(await rowsOf(user)).toEqual([
      { id, status: 'rejected', reason: 'The photo of the front is blurry.' },
      { id: again.body.data.submission?.id, status: 'pending', reason: null },
    ]);
  });

  it.each([
    [{}, 'no reason'],
    [{ reason: '' }, 'an empty reason'],
    [{ reason: '    ' }, 'a blank reason'],
  ])('reject with %j (%s) → 422, nothing changes', async (extra, _label) => {
    const { user, id } = await pendingUser();
    const reply = await decide(reviewer.token, { id, decision: 'reject', ...extra });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ reason: ['A reason is required.'] });
    expect(await overview(user)).toMatchObject({
      state: 'pending',
      submission: { status: 'pending' },
    });
    expect(await auditFor(id)).toEqual([]);
  });

  it('deciding twice → INVALID_STATE, and the first decision stands', async () => {
    const { user, id } = await pendingUser();
    expect((await decide(reviewer.token, { id, decision: 'approve' })).body.code).toBe(0);
    for (const body of [
      { id, decision: 'approve' },
      { id, decision: 'reject', reason: 'second thoughts' },
    ]) {
      const again = await decide(admin.token, body);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        code: 2501,
        message: 'This item was already processed or cannot take this action now.',
      });
    }
    expect(await overview(user)).toMatchObject({ verified: true, state: 'approved' });
    expect(await auditFor(id)).toHaveLength(1);
  });

  it('two operators deciding at once: exactly one decision, one audit entry', async () => {
    const { user, id } = await pendingUser();
    const [a, b] = await Promise.all([
      decide(reviewer.token, { id, decision: 'approve' }),
      decide(admin.token, { id, decision: 'reject', reason: 'mismatch' }),
    ]);
    const codes = [a.body.code, b.body.code].sort();
    expect(codes).toEqual([0, 2501]);
    const winner = a.body.code === 0 ? a.body.data : b.body.data;
    const state = await overview(user);
    expect(state.submission?.status).toBe(winner.status);
    expect(state.verified).toBe(winner.status === 'approved');
    expect(await auditFor(id)).toHaveLength(1);
  });

  it('an unknown id → NOT_FOUND; a malformed one → 422', async () => {
    expect((await decide(reviewer.token, { id: '987654321', decision: 'approve' })).body.code).toBe(
      404,
    );
    expect((await decide(reviewer.token, { id: 'abc', decision: 'approve' })).status).toBe(422);
    expect(
      (await decide(reviewer.token, { id: '1', decision: 'maybe' })).body.errors?.decision,
    ).toEqual(['This value is not allowed.']);
  });

  it('only reviewers and admins decide; users and the catalog role cannot', async () => {
    const { user, id } = await pendingUser();
    const catalog = await operatorToken(t, 'catalog');
    expect((await decide(catalog.token, { id, decision: 'approve' })).status).toBe(403);
    expect(
      (await call(t.app, 'GET', '/api/admin/v1/kyc/queue', { token: catalog.token })).status,
    ).toBe(403);
    expect((await decide(user.token, { id, decision: 'approve' })).body.code).toBe(401);
    expect(
      (await call(t.app, 'GET', '/api/admin/v1/kyc/queue', { token: user.token })).body.code,
    ).toBe(401);
    expect(await overview(user)).toMatchObject({ verified: false, state: 'pending' });
  });
});

describe('one pending submission at a time', () => {
  it('a second submission while one is under review is refused', async () => {
    const { user } = await pendingUser();
    const second = await submit(user, form(await photos(user)));
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      code: 2220,
      message: 'Your verification is already under review.',
    });
    expect(await rowsOf(user)).toHaveLength(1);
  });

  it('10 concurrent submissions: exactly one is pending, nine are refused', async () => {
    const user = await registerUser(t.app);
    const bodies = await Promise.all(
      Array.from({ length: 10 }, async () => form(await photos(user))),
    );
    const replies = await Promise.all(bodies.map((body) => submit(user, body)));
    const codes = replies.map((r) => r.body.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect(codes.filter((c) => c === 2220)).toHaveLength(9);
    expect(await rowsOf(user)).toHaveLength(1);
    expect((await rowsOf(user))[0]?.status).toBe('pending');
  });

  it('the database itself refuses a second pending row (partial unique index)', async () => {
    const { user } = await pendingUser();
    const [row] = await queryRows<{
      front_file_id: string;
      back_file_id: string;
      face_file_id: string;
    }>(
      t.database.db,
      sql`select front_file_id::text, back_file_id::text, face_file_id::text from kyc_submissions where user_id = ${Number(user.uid)}`,
    );
    const insert = t.database.db.execute(
      sql`insert into kyc_submissions (user_id, status, country, last_name, first_name, document_type, document_number, front_file_id, back_file_id, face_file_id, created_at)
          values (${Number(user.uid)}, 'pending', 'DE', 'X', 'Y', 'id_card', 'ABC', ${row?.front_file_id}, ${row?.back_file_id}, ${row?.face_file_id}, now())`,
    );
    await expect(insert).rejects.toThrow();
    expect(await rowsOf(user)).toHaveLength(1);
  });

  it('a verified user cannot submit again', async () => {
    const { user, id } = await pendingUser();
    await decide(reviewer.token, { id, decision: 'approve' });
    const again = await submit(user, form(await photos(user)));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 2221, message: 'Your identity is already verified.' });
    expect(await rowsOf(user)).toHaveLength(1);
  });
});

describe('the form', () => {
  it('a passport needs no back photo; an ID card and a driving licence do', async () => {
    const user = await registerUser(t.app);
    const { frontFileId, backFileId, faceFileId } = await photos(user);
    const noBack = await submit(
      user,
      form({ frontFileId, faceFileId }, { documentType: 'id_card' }),
    );
    expect(noBack.body.errors).toEqual({
      backFileId: ['Upload a photo of the back of the document.'],
    });
    const licence = await submit(
      user,
      form({ frontFileId, faceFileId }, { documentType: 'driving_licence' }),
    );
    expect(licence.body.errors).toEqual({
      backFileId: ['Upload a photo of the back of the document.'],
    });
    const passportWithBack = await submit(
      user,
      form({ frontFileId, backFileId, faceFileId }, { documentType: 'passport' }),
    );
    expect(passportWithBack.body.errors).toEqual({
      backFileId: ['A passport needs no back photo.'],
    });
    expect(await rowsOf(user)).toEqual([]);
    const passport = await submit(
      user,
      form({ frontFileId, faceFileId }, { documentType: 'passport' }),
    );
    expect(passport.body.code).toBe(0);
    expect(passport.body.data.submission).toMatchObject({ backFileId: null });
  });

  it.each([
    ['country', { country: 'XX' }, 'Choose your country or region.'],
    ['country', { country: undefined }, 'This field is required.'],
    ['lastName', { lastName: '' }, 'This field is required.'],
    [
      'lastName',
      { lastName: '<script>' },
      'Use letters only (spaces, hyphens and apostrophes are allowed).',
    ],
    ['firstName', { firstName: 'x'.repeat(65) }, 'Enter at most 64 characters.'],
    ['documentType', { documentType: 'library_card' }, 'Choose a document type.'],
    [
      'documentNumber',
      { documentNumber: '!!' },
      'Enter the document number: at least 3 letters or digits.',
    ],
    ['frontFileId', { frontFileId: 'abc' }, 'Upload the image first.'],
    ['faceFileId', { faceFileId: undefined }, 'This field is required.'],
  ])('%s %j → 422 with the field message; nothing is stored', async (field, override, message) => {
    const user = await registerUser(t.app);
    const reply = await submit(user, form(await photos(user), override));
    expect(reply.status).toBe(422);
    expect(reply.body.errors?.[field]).toEqual([message]);
    expect(await rowsOf(user)).toEqual([]);
  });

  it('the same image twice is refused', async () => {
    const user = await registerUser(t.app);
    const { frontFileId, backFileId } = await photos(user);
    const reply = await submit(user, form({ frontFileId, backFileId, faceFileId: frontFileId }));
    expect(reply.body.errors).toEqual({ faceFileId: ['Each photo must be a different image.'] });
  });

  it('an unknown field is refused', async () => {
    const user = await registerUser(t.app);
    const reply = await submit(user, form(await photos(user), { verified: true }));
    expect(reply.body.errors?.verified).toEqual(['This field is not accepted.']);
  });

  it('messages follow the language', async () => {
    const user = await registerUser(t.app);
    const reply = await submit(user, form(await photos(user), { country: 'XX' }), 'zh-CN');
    expect(reply.body.errors?.country).toEqual(['请选择国家或地区。']);
  });
});

describe("another user's ids", () => {
  it("another user's photo is 'not found' on its field, and nothing is stored", async () => {
    const owner = await registerUser(t.app);
    const thief = await registerUser(t.app);
    const theirs = await photo(owner);
    const mine = await photos(thief);
    for (const field of ['frontFileId', 'backFileId', 'faceFileId'] as const) {
      const reply = await submit(thief, form({ ...mine, [field]: theirs }));
      expect(reply.status).toBe(422);
      expect(reply.body.errors).toEqual({
        [field]: ['This image was not found. Please upload it again.'],
      });
    }
    // Exactly the answer for an id that does not exist.
    const missing = await submit(thief, form({ ...mine, frontFileId: '888888888' }));
    expect(missing.body.errors).toEqual({
      frontFileId: ['This image was not found. Please upload it again.'],
    });
    expect(await rowsOf(thief)).toEqual([]);
  });

  it('a card-deposit screenshot is not a KYC photo', async () => {
    const user = await registerUser(t.app);
    const files = await photos(user);
    const screenshot = await photo(user, 'card_deposit');
    const reply = await submit(user, form({ ...files, faceFileId: screenshot }));
    expect(reply.body.errors).toEqual({
      faceFileId: ['This image was uploaded for something else. Please upload it again here.'],
    });
    expect(await rowsOf(user)).toEqual([]);
  });

  it('a user only ever sees their own submission', async () => {
    const { user } = await pendingUser();
    const other = await registerUser(t.app);
    expect(await overview(other)).toEqual({ verified: false, state: 'none', submission: null });
    const mine = await overview(user);
    // The photos of the submission are the owner's alone.
    const peek = await call(
      t.app,
      'GET',
      `/api/v1/files/content?id=${mine.submission?.frontFileId}`,
      { token: other.token },
    );
    expect(peek.body.code).toBe(404);
  });
});

describe('npm run ops: kyc:list and kyc:decide', () => {
  const run = async (name: string, options: Record<string, string | undefined>) => {
    const command = OPS_COMMANDS.get(name);
    if (!command) throw new Error(`${name} is not registered`);
    const operator = options.operator
      ? await findOperator(t.database.db, options.operator)
      : undefined;
    const context: OpsContext = { ...t.app.services, db: t.database.db, operator, args: [] };
    return command.run(context, options);
  };

  it('lists pending submissions and decides them, audit-logged as cli', async () => {
    const { user, id } = await pendingUser();
    expect(await run('kyc:list', {})).toContain(`#${id} uid ${user.uid}`);
    await expect(
      run('kyc:decide', { id, decision: 'reject', operator: reviewer.username }),
    ).rejects.toThrow('reason');
    expect(await run('kyc:decide', { id, decision: 'approve', operator: reviewer.username })).toBe(
      `verification #${id} (uid ${user.uid}) is now approved`,
    );
    expect(await profileVerified(user)).toBe(true);
    await expect(
      run('kyc:decide', { id, decision: 'approve', operator: reviewer.username }),
    ).rejects.toThrow('INVALID_STATE');
    const [entry] = await queryRows<{ via: string; action: string }>(
      t.database.db,
      sql`select via, action from audit_log where target_type = 'kyc_submission' and target_id = ${id}`,
    );
    expect(entry).toEqual({ via: 'cli', action: 'kyc.approve' });
  });

  it('kyc:decide needs a named operator', async () => {
    const { id } = await pendingUser();
    await expect(run('kyc:decide', { id, decision: 'approve' })).rejects.toThrow('--operator');
  });
});
