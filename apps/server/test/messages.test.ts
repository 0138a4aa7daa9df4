import type { AddressInfo } from 'node:net';
import { MESSAGE_KINDS, type Message, type MessageList } from '@tradewind/contract/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import '../src/modules/messages/ops.ts';
import { SIM_BLOCK_MS, SimulatedChain } from '../src/modules/deposit/simulated-chain.ts';
import { runDepositWatcher } from '../src/modules/deposit/watcher.ts';
import { createMessages } from '../src/modules/messages/service.ts';
import type { OpsContext } from '../src/modules/operator/ops-commands.ts';
import { OPS_COMMANDS } from '../src/ops-commands.ts';
import { findOperator } from '../src/modules/operator/service.ts';
import { queryRows } from '../src/platform/db.ts';
import { hasMessage } from '../src/platform/i18n.ts';
import { placed, recordAt, settlement, trader } from './contracts.ts';
import {
  PASSWORD,
  type TestApp,
  call,
  createTestApp,
  fund,
  idempotencyKey,
  operatorToken,
  registerUser,
} from './harness.ts';
import { pngImage, tempDataDir, upload } from './uploads.ts';

/**
 * In-site messages (spec /Msg, /MsgDetail): each event writes exactly one message, in the
 * owner's stored language, at the moment it happens; unread count, mark read, only one's own.
 */

type User = Awaited<ReturnType<typeof registerUser>>;
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

async function userIn(language: string): Promise<User> {
  const user = await registerUser(t.app);
  await t.database.db.execute(
    sql`update users set language = ${language} where id = ${Number(user.uid)}`,
  );
  return user;
}
const list = async (user: User) =>
  (await call<MessageList>(t.app, 'GET', '/api/v1/messages', { token: user.token })).body.data;
const unread = async (user: User) =>
  (await call<{ unread: number }>(t.app, 'GET', '/api/v1/messages/unread', { token: user.token }))
    .body.data.unread;
const rows = (user: User) =>
  queryRows<{
    kind: string;
    ref: string;
    language: string;
    title: string;
    body: string;
    read_at: string | null;
  }>(
    t.database.db,
    sql`select kind, ref, language, title, body, read_at::text from user_messages where user_id = ${Number(user.uid)} order by id`,
  );

async function photo(user: User, purpose: 'kyc' | 'card_deposit'): Promise<string> {
  const reply = await upload(t.app, user.token, { purpose, data: await pngImage(120, 80) });
  if (reply.body.code !== 0) throw new Error(`upload failed: ${JSON.stringify(reply.body)}`);
  return reply.body.data.id;
}

describe("messages written by events, in the owner's language", () => {
  it('every kind of message has a title and a body template (the locale files are checked for the same keys)', () => {
    // A broadcast's title and body are the operator's own text, per language.
    const templated = MESSAGE_KINDS.filter((kind) => kind !== 'broadcast');
    const missing = templated
      .flatMap((kind) =>
        ['title', 'body'].map((part) => `messages.templates.${kind.replace('.', '_')}.${part}`),
      )
      .filter((key) => !hasMessage(key));
    expect(missing).toEqual([]);
  });

  it('a crypto deposit credited writes one "deposit credited" message (German), and a second watcher run writes none', async () => {
    const user = await userIn('de');
    const sim = new SimulatedChain(t.database.db, t.clock);
    const address = (
      await call<{ address: string }>(t.app, 'GET', '/api/v1/deposit/address', {
        token: user.token,
      })
    ).body.data.address;
    expect(
      (
        await call(t.app, 'POST', '/api/v1/dev/chain/transfer', {
          body: { address, amount: '25.5' },
        })
      ).body.code,
    ).toBe(0);
    const deps = {
      db: t.database.db,
      clock: t.clock,
      config: t.app.services.config,
      ledger: t.app.services.ledger,
      chain: sim,
      hub: t.app.services.hub,
    };
    await runDepositWatcher(deps);
    expect(await rows(user)).toEqual([]);
    t.clock.advance(19 * SIM_BLOCK_MS);
    await runDepositWatcher(deps);
    await runDepositWatcher(deps);
    expect(await rows(user)).toEqual([
      expect.objectContaining({
        kind: 'deposit.credited',
        language: 'de',
        title: 'Einzahlung gutgeschrieben',
        body: '25.5 USDT wurden Ihrem Spot-Konto gutgeschrieben.',
        read_at: null,
      }),
    ]);
  });

  it('a bank-card deposit confirmed writes "deposit credited" (French, the actual amount); a rejected one "deposit rejected" with the reason', async () => {
    const user = await userIn('fr');
    const report = async (amount: string) => {
      const reply = await call<{ id: string }>(t.app, 'POST', '/api/v1/card-deposits', {
        token: user.token,
        body: { amount, screenshotFileId: await photo(user, 'card_deposit') },
        headers: { 'idempotency-key': idempotencyKey() },
      });
      expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
      return reply.body.data.id;
    };
    const decide = (body: Record<string, unknown>) =>
      call(t.app, 'POST', '/api/admin/v1/card-deposits/decide', { token: reviewer.token, body });
    expect((await decide({ id: await report('100'), decision: 'approve' })).body.code).toBe(0);
    expect(
      (await decide({ id: await report('50'), decision: 'reject', reason: 'Reçu illisible' })).body
        .code,
    ).toBe(0);
    const messages = await rows(user);
    expect(messages.map((m) => [m.kind, m.language, m.title])).toEqual([
      ['deposit.credited', 'fr', 'Dépôt crédité'],
      ['deposit.rejected', 'fr', 'Dépôt refusé'],
    ]);
    expect(messages[0]?.body).toMatch(
      /^\d+(\.\d+)? USDT ont été crédités sur votre compte spot\.$/,
    );
    expect(messages[1]?.body).toBe(
      'Votre dépôt par carte bancaire de 50 USDT a été refusé. Motif\u00a0: Reçu illisible',
    );
  });

  it('a withdrawal rejected in review writes one "withdrawal rejected" message (Spanish) with the reason', async () => {
    const user = await userIn('es');
    await t.database.db.execute(
      sql`update users set verified = true where id = ${Number(user.uid)}`,
    );
    await call(t.app, 'POST', '/api/v1/money-passwords', {
      token: user.token,
      body: {
        kind: 'withdraw',
        proof: 'login_password',
        loginPassword: PASSWORD,
        password: '480316',
        confirmPassword: '480316',
      },
    });
    await fund(t, Number(user.uid), 100_000_000n);
    const request = await call<{ id: string }>(t.app, 'POST', '/api/v1/withdrawals', {
      token: user.token,
      headers: { 'idempotency-key': idempotencyKey() },
      body: {
        asset: 'USDT',
        network: 'TRC20',
        address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        amount: '20',
        password: '480316',
      },
    });
    expect(request.body.code, JSON.stringify(request.body)).toBe(0);
    expect(await rows(user)).toEqual([]);
    const review = await call(t.app, 'POST', '/api/admin/v1/withdrawals/review', {
      token: reviewer.token,
      body: { id: request.body.data.id, decision: 'reject', reason: 'Dirección bloqueada' },
    });
    expect(review.body.code, JSON.stringify(review.body)).toBe(0);
    expect(await rows(user)).toEqual([
      expect.objectContaining({
        kind: 'withdrawal.review_failed',
        language: 'es',
        title: 'Retiro rechazado',
        body: 'Tu retiro de 20 USDT fue rechazado y los fondos han vuelto a tu cuenta. Motivo: Dirección bloqueada',
      }),
    ]);
  });

  it('a KYC result writes one message (simplified Chinese); an approval and a rejection each their own', async () => {
    const submitFor = async (user: User) => {
      const body = {
        country: 'CN',
        lastName: '王',
        firstName: '小明',
        documentType: 'id_card',
        documentNumber: 'l01x00t47',
        frontFileId: await photo(user, 'kyc'),
        backFileId: await photo(user, 'kyc'),
        faceFileId: await photo(user, 'kyc'),
      };
      const reply = await call<{ submission: { id: string } }>(t.app, 'POST', '/api/v1/kyc', {
        token: user.token,
        body,
      });
      expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
      return reply.body.data.submission.id;
    };
    const passed = await userIn('zh_CN');
    const failed = await userIn('zh_CN');
    const decide = (body: Record<string, unknown>) =>
      call(t.app, 'POST', '/api/admin/v1/kyc/decide', { token: reviewer.token, body });
    expect((await decide({ id: await submitFor(passed), decision: 'approve' })).body.code).toBe(0);
    expect(
      (await decide({ id: await submitFor(failed), decision: 'reject', reason: '照片模糊' })).body
        .code,
    ).toBe(0);
    expect((await rows(passed)).map((m) => [m.kind, m.title])).toEqual([
      ['kyc.approved', '身份认证已通过'],
    ]);
    expect(await rows(failed)).toEqual([
      expect.objectContaining({
        kind: 'kyc.rejected',
        title: '身份认证未通过',
        body: '您的身份认证未通过。原因：照片模糊 您可以重新提交。',
      }),
    ]);
  });

  it('a settlement batch writes one "contract settled" message per order, each in its owner\'s language, in the batch\'s transaction', async () => {
    const italian = await trader(t, '1000');
    const english = await trader(t, '1000');
    await t.database.db.execute(sql`update users set language = 'it' where id = ${italian.id}`);
    const start = Math.floor(t.clock.now().getTime() / 1000) * 1000 + 1000;
    await recordAt(t, start, { BTCUSDT: '95000.00' });
    const orders = [
      await placed(t, italian.token, { direction: 'up', amount: '100' }),
      await placed(t, italian.token, { direction: 'down', amount: '50' }),
      await placed(t, english.token, { direction: 'up', amount: '10' }),
    ];
    await recordAt(t, start + 29_000, { BTCUSDT: '95000.00' });
    await recordAt(t, start + 30_000, { BTCUSDT: '95100.00' });
    expect(await settlement(t).settleDue()).toBe(3);
    const it_ = await rows(italian);
    expect(it_.map((m) => [m.kind, m.ref, m.language, m.title])).toEqual([
      ['contract.settled', `contract:${orders[0]?.id}`, 'it', 'Contratto regolato'],
      ['contract.settled', `contract:${orders[1]?.id}`, 'it', 'Contratto regolato'],
    ]);
    expect(it_[0]?.body).toBe(
      'Il tuo ordine al rialzo su BTC/USDT è stato regolato alla scadenza: vinto. Pagamento 180 USDT.',
    );
    expect(it_[1]?.body).toBe(
      'Il tuo ordine al ribasso su BTC/USDT è stato regolato alla scadenza: perso. Pagamento 0 USDT.',
    );
    expect((await rows(english)).map((m) => m.body)).toEqual([
      'Your buy-up order on BTC/USDT settled at expiry: won. Payout 18 USDT.',
    ]);
    const [first] = (await list(italian)).items;
    expect(first?.link).toBe(`/ContractDetail?id=${orders[1]?.id}`);
  });

  it('the language the user chose in the app is the one later messages are written in; an unknown one is refused', async () => {
    const user = await userIn('en');
    const chosen = await call(t.app, 'POST', '/api/v1/user/language', {
      token: user.token,
      body: { language: 'zh_TW' },
    });
    expect(chosen.body.code).toBe(0);
    expect(
      (
        await call(t.app, 'POST', '/api/v1/user/language', {
          token: user.token,
          body: { language: 'xx' },
        })
      ).body.code,
    ).toBe(422);
    await createMessages(t.database.db, t.clock.now(), [
      { userId: Number(user.uid), kind: 'kyc.approved', ref: 'chosen' },
    ]);
    expect(await rows(user)).toEqual([
      expect.objectContaining({ language: 'zh_TW', title: '身分認證已通過' }),
    ]);
  });

  it('an unknown stored language falls back to English', async () => {
    const user = await userIn('xx');
    await createMessages(t.database.db, t.clock.now(), [
      { userId: Number(user.uid), kind: 'kyc.approved', ref: 'fallback' },
    ]);
    expect(await rows(user)).toEqual([
      expect.objectContaining({ language: 'en', title: 'Identity verified' }),
    ]);
  });

  it("a message belongs to its event's transaction: an event rolled back leaves no message", async () => {
    const user = await userIn('en');
    await expect(
      t.database.db.transaction(async (tx) => {
        expect(
          await createMessages(tx, t.clock.now(), [
            { userId: Number(user.uid), kind: 'kyc.approved', ref: 'kyc:rolled-back' },
          ]),
        ).toHaveLength(1);
        throw new Error('the event failed after writing its message');
      }),
    ).rejects.toThrow('the event failed');
    expect(await rows(user)).toEqual([]);
  });
});

describe('reading: list, unread count, mark read', () => {
  async function withMessages(n: number): Promise<User> {
    const user = await userIn('en');
    await createMessages(
      t.database.db,
      t.clock.now(),
      Array.from({ length: n }, (_, i) => ({
        userId: Number(user.uid),
        kind: 'welcome' as const,
        ref: `r${i}`,
      })),
    );
    return user;
  }

  it('lists newest first with the unread count; pages with a cursor', async () => {
    const user = await withMessages(25);
    const first = await list(user);
    expect(first.items).toHaveLength(20);
    expect(first.unread).toBe(25);
    expect(first.items[0]).toMatchObject({
      kind: 'welcome',
      title: 'Welcome to Tradewind',
      read: false,
      link: null,
    });
    expect(Number(first.items[0]?.id)).toBeGreaterThan(Number(first.items[19]?.id));
    const second = (
      await call<MessageList>(t.app, 'GET', `/api/v1/messages?cursor=${first.nextCursor}`, {
        token: user.token,
      })
    ).body.data;
    expect(second.items).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
  });

  it('marking one read lowers the count by one; marking it again changes nothing; its read time stays the first', async () => {
    const user = await withMessages(3);
    const [message] = (await list(user)).items as [Message];
    const first = await call<{ unread: number }>(t.app, 'POST', '/api/v1/messages/read', {
      token: user.token,
      body: { id: message.id },
    });
    expect(first.body.data.unread).toBe(2);
    const readAt = (await rows(user)).find((r) => r.read_at !== null)?.read_at;
    t.clock.advance(60_000);
    const again = await call<{ unread: number }>(t.app, 'POST', '/api/v1/messages/read', {
      token: user.token,
      body: { id: message.id },
    });
    expect(again.body.data.unread).toBe(2);
    expect((await rows(user)).filter((r) => r.read_at !== null).map((r) => r.read_at)).toEqual([
      readAt,
    ]);
    const detail = await call<Message>(t.app, 'GET', `/api/v1/messages/detail?id=${message.id}`, {
      token: user.token,
    });
    expect(detail.body.data).toMatchObject({ id: message.id, read: true });
  });

  it("mark all read leaves none unread, and only the caller's", async () => {
    const user = await withMessages(4);
    const other = await withMessages(2);
    const reply = await call<{ unread: number }>(t.app, 'POST', '/api/v1/messages/read-all', {
      token: user.token,
    });
    expect(reply.body.data.unread).toBe(0);
    expect(await unread(user)).toBe(0);
    expect((await rows(user)).every((r) => r.read_at !== null)).toBe(true);
    expect(await unread(other)).toBe(2);
  });

  it('another user\'s message is "not found" to read or mark, and stays unread', async () => {
    const owner = await withMessages(1);
    const intruder = await userIn('de');
    const [message] = (await list(owner)).items as [Message];
    const read = await call(t.app, 'POST', '/api/v1/messages/read', {
      token: intruder.token,
      body: { id: message.id },
      lang: 'de',
    });
    expect(read.body).toMatchObject({
      code: 3250,
      message: 'Diese Nachricht existiert nicht.',
      data: null,
    });
    expect(
      (
        await call(t.app, 'GET', `/api/v1/messages/detail?id=${message.id}`, {
          token: intruder.token,
        })
      ).body.code,
    ).toBe(3250);
    expect((await list(intruder)).items).toEqual([]);
    expect(await unread(owner)).toBe(1);
  });

  it('requires a signed-in user', async () => {
    expect((await call(t.app, 'GET', '/api/v1/messages')).body.code).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/messages/unread')).body.code).toBe(401);
  });
});

describe('operator broadcast', () => {
  it('reaches every user in their language (English where none was given), is recorded and audited; reviewers may not send', async () => {
    const german = await userIn('de');
    const italian = await userIn('it');
    const body = {
      title: { en: 'Maintenance tonight', de: 'Wartung heute Nacht' },
      body: { en: 'We will be back soon.', de: 'Wir sind bald zurück.' },
    };
    expect(
      (
        await call(t.app, 'POST', '/api/admin/v1/messages/broadcast', {
          token: reviewer.token,
          body,
        })
      ).status,
    ).toBe(403);
    const users = Number(
      (await queryRows<{ n: string }>(t.database.db, sql`select count(*)::text as n from users`))[0]
        ?.n,
    );
    const reply = await call<{ broadcastId: string; recipients: number }>(
      t.app,
      'POST',
      '/api/admin/v1/messages/broadcast',
      { token: admin.token, body },
    );
    expect(reply.body.code, JSON.stringify(reply.body)).toBe(0);
    expect(reply.body.data.recipients).toBe(users);
    expect((await rows(german)).map((m) => [m.kind, m.title, m.body])).toEqual([
      ['broadcast', 'Wartung heute Nacht', 'Wir sind bald zurück.'],
    ]);
    expect((await rows(italian)).map((m) => [m.kind, m.title, m.body])).toEqual([
      ['broadcast', 'Maintenance tonight', 'We will be back soon.'],
    ]);
    const audit = await queryRows<{ action: string; after: string }>(
      t.database.db,
      sql`select action, after from audit_log where target_type = 'message_broadcast' and target_id = ${reply.body.data.broadcastId}`,
    );
    expect(audit).toEqual([
      {
        action: 'message.broadcast',
        after: JSON.stringify({ title: 'Maintenance tonight', recipients: users }),
      },
    ]);
  });

  it('refuses a broadcast without an English title, changing nothing', async () => {
    const before = await queryRows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from user_messages`,
    );
    const reply = await call(t.app, 'POST', '/api/admin/v1/messages/broadcast', {
      token: admin.token,
      body: { title: { de: 'Nur Deutsch' }, body: { en: 'x' } },
    });
    expect(reply.body.code).toBe(422);
    expect(
      await queryRows(t.database.db, sql`select count(*)::text as n from user_messages`),
    ).toEqual(before);
  });

  it('the ops command sends one too, as the named operator', async () => {
    const user = await userIn('en');
    const operator = await findOperator(t.database.db, admin.username);
    const context = { ...t.app.services, db: t.database.db, operator, args: [] } as OpsContext;
    const out = await OPS_COMMANDS.get('messages:broadcast')?.run(context, {
      title: 'From the console',
      body: 'Hello',
    });
    expect(out).toMatch(/^broadcast #\d+ sent to \d+ users$/);
    expect((await rows(user)).map((m) => m.title)).toEqual(['From the console']);
  });
});

describe('real time', () => {
  it("a new message arrives on the owner's WebSocket channel, and only theirs", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
    const owner = await userIn('de');
    const other = await userIn('en');
    const connect = async (token: string) => {
      const socket = new WebSocket(url);
      const received: Record<string, unknown>[] = [];
      socket.on('message', (raw) =>
        received.push(JSON.parse(raw.toString()) as Record<string, unknown>),
      );
      await new Promise((resolve) => socket.on('open', resolve));
      socket.send(JSON.stringify({ op: 'auth', token, id: 1 }));
      await waitFor(() => received.some((m) => m.op === 'auth'));
      return { socket, received };
    };
    const mine = await connect(owner.token);
    const theirs = await connect(other.token);
    const submission = {
      country: 'DE',
      lastName: 'Muster',
      firstName: 'Erika',
      documentType: 'passport',
      documentNumber: 'c01x00t47',
      frontFileId: await photo(owner, 'kyc'),
      faceFileId: await photo(owner, 'kyc'),
    };
    const submitted = await call<{ submission: { id: string } }>(t.app, 'POST', '/api/v1/kyc', {
      token: owner.token,
      body: submission,
    });
    expect(submitted.body.code, JSON.stringify(submitted.body)).toBe(0);
    await call(t.app, 'POST', '/api/admin/v1/kyc/decide', {
      token: reviewer.token,
      body: { id: submitted.body.data.submission.id, decision: 'approve' },
    });
    await waitFor(() =>
      mine.received.some((m) => (m.data as { type?: string } | undefined)?.type === 'message.new'),
    );
    const event = mine.received.find(
      (m) => (m.data as { type?: string } | undefined)?.type === 'message.new',
    );
    expect(event).toMatchObject({
      channel: `user.${owner.uid}`,
      data: {
        type: 'message.new',
        count: 1,
        message: { kind: 'kyc.approved', title: 'Identität verifiziert', read: false },
      },
    });
    expect(
      theirs.received.filter(
        (m) => (m.data as { type?: string } | undefined)?.type === 'message.new',
      ),
    ).toEqual([]);
    mine.socket.close();
    theirs.socket.close();
  });
});

async function waitFor(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
