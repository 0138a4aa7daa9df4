import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/platform/db.ts';
import { type TestApp, call, createTestApp, registerUser, verifyUser } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Card {
  id: string;
  bankName: string;
  accountMasked: string;
  branchName: string;
  branchCode: string;
  holderName: string;
}

const CARD = {
  bankName: 'Bank of Tradewind',
  accountNumber: '6222 0212-3456 7890',
  branchName: 'Harbour Road',
  branchCode: 'twb-001',
  holderName: 'Mei Lin',
};

const add = (token: string, body: Record<string, unknown>, lang?: string) =>
  call<Card>(t.app, 'POST', '/api/v1/bank-cards', { token, body, lang });
const list = async (token: string) =>
  (await call<{ items: Card[]; max: number }>(t.app, 'GET', '/api/v1/bank-cards', { token })).body
    .data;
const remove = (token: string, id: string) =>
  call(t.app, 'POST', '/api/v1/bank-cards/delete', { token, body: { id } });
/** A user verified as Mei Lin, the name on CARD (a card must be in the verified name). */
async function cardUser(name = { firstName: 'Mei', lastName: 'Lin' }) {
  const user = await registerUser(t.app);
  await verifyUser(t, Number(user.uid), name);
  return user;
}

const accountNumber = (n: number) => `62220212${String(n).padStart(8, '0')}`;

describe('linking bank cards', () => {
  it('links a card: the number is stored without spaces or hyphens and shown masked', async () => {
    const { token, uid } = await cardUser();
    const reply = await add(token, CARD);
    expect(reply.body.code).toBe(0);
    expect(reply.body.data).toMatchObject({
      bankName: 'Bank of Tradewind',
      accountMasked: '•••• 7890',
      branchName: 'Harbour Road',
      branchCode: 'TWB-001',
      holderName: 'Mei Lin',
    });
    expect(JSON.stringify(reply.body.data)).not.toContain('6222021234567890');
    const rows = await queryRows<{ account_number: string }>(
      t.database.db,
      sql`select account_number from bank_cards where user_id = ${Number(uid)}`,
    );
    expect(rows).toEqual([{ account_number: '6222021234567890' }]);
    expect((await list(token)).items.map((c) => c.id)).toEqual([reply.body.data.id]);
  });

  it.each([
    [{ bankName: '' }, 'bankName', 'This field is required.'],
    [{ bankName: 'B'.repeat(81) }, 'bankName', 'Enter at most 80 characters.'],
    [{ bankName: '<script>' }, 'bankName', 'This value is not in the right format.'],
    [
      { accountNumber: '12345' },
      'accountNumber',
      'Enter the account number: 6 to 34 letters or digits.',
    ],
    [
      { accountNumber: 'ABCDEFGH' },
      'accountNumber',
      'Enter the account number: 6 to 34 letters or digits.',
    ],
    [
      { accountNumber: '6222#0212' },
      'accountNumber',
      'Enter the account number: 6 to 34 letters or digits.',
    ],
    [{ accountNumber: undefined }, 'accountNumber', 'This field is required.'],
    [{ branchName: '   ' }, 'branchName', 'This field is required.'],
    [{ branchCode: 'X' }, 'branchCode', 'Enter the branch code: 2 to 20 letters or digits.'],
    [{ branchCode: 'TWB 001' }, 'branchCode', 'Enter the branch code: 2 to 20 letters or digits.'],
    [
      { holderName: 'Mei Lin 2' },
      'holderName',
      'Enter the name as on the account: letters, spaces, dots, apostrophes and hyphens.',
    ],
    [{ holderName: '' }, 'holderName', 'This field is required.'],
    [{ extra: 'x' }, 'extra', 'This field is not accepted.'],
  ])(
    'refuses %j with a message under the field and links nothing',
    async (change, field, message) => {
      const { token } = await cardUser();
      const reply = await add(token, { ...CARD, ...change });
      expect(reply.body.code).toBe(422);
      expect(reply.body.errors?.[field]).toEqual([message]);
      expect((await list(token)).items).toEqual([]);
    },
  );

  it('accepts names in any script and IBAN-style numbers', async () => {
    const { token } = await cardUser({ firstName: '美', lastName: '林' });
    expect(
      (
        await add(token, {
          ...CARD,
          holderName: '林美',
          accountNumber: 'DE89 3704 0044 0532 0130 00',
        })
      ).body.code,
    ).toBe(0);
    const other = await cardUser({ firstName: 'Anne-Marie', lastName: "O'Neil Jr." });
    expect(
      (
        await add(other.token, {
          ...CARD,
          holderName: "Anne-Marie O'Neil Jr.",
          accountNumber: '12345678',
        })
      ).body.code,
    ).toBe(0);
  });

  it('at most 5 cards per user; unlinking one makes room', async () => {
    const { token } = await cardUser();
    for (let i = 1; i <= 5; i++)
      expect((await add(token, { ...CARD, accountNumber: accountNumber(i) })).body.code).toBe(0);
    const sixth = await add(token, { ...CARD, accountNumber: accountNumber(6) });
    expect(sixth.body.code).toBe(2321);
    expect(sixth.body.message).toBe('You can link at most 5 bank cards.');
    expect(
      (await add(token, { ...CARD, accountNumber: accountNumber(6) }, 'zh_TW')).body.message,
    ).toBe('最多可綁定 5 張銀行卡。');
    const cards = await list(token);
    expect(cards.items).toHaveLength(5);
    expect(cards.max).toBe(5);
    expect((await remove(token, cards.items[0]?.id ?? '')).body.code).toBe(0);
    expect((await add(token, { ...CARD, accountNumber: accountNumber(6) })).body.code).toBe(0);
  });

  it('concurrent adds cannot pass the limit', async () => {
    const { token } = await cardUser();
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        add(token, { ...CARD, accountNumber: accountNumber(100 + i) }),
      ),
    );
    expect(replies.filter((r) => r.body.code === 0)).toHaveLength(5);
    expect(replies.filter((r) => r.body.code === 2321)).toHaveLength(5);
    expect((await list(token)).items).toHaveLength(5);
  });

  it('the same account twice is refused; after unlinking it can be linked again', async () => {
    const { token } = await cardUser();
    const first = await add(token, CARD);
    const again = await add(token, { ...CARD, accountNumber: '6222021234567890' });
    expect(again.body.code).toBe(422);
    expect(again.body.errors?.accountNumber).toEqual(['This account is already linked.']);
    await remove(token, first.body.data.id);
    expect((await add(token, CARD)).body.code).toBe(0);
  });

  it('another user may link the same account (a joint account)', async () => {
    const a = await cardUser();
    const b = await cardUser();
    expect((await add(a.token, CARD)).body.code).toBe(0);
    expect((await add(b.token, CARD)).body.code).toBe(0);
  });
});

describe('unlinking', () => {
  it('removes one of your own cards; another user’s id or an unknown id is NOT_FOUND and changes nothing', async () => {
    const owner = await cardUser();
    const other = await cardUser();
    const card = (await add(owner.token, CARD)).body.data;
    const denied = await remove(other.token, card.id);
    expect(denied.status).toBe(404);
    expect(denied.body.code).toBe(404);
    expect((await remove(owner.token, '999999999')).body.code).toBe(404);
    expect((await list(owner.token)).items.map((c) => c.id)).toEqual([card.id]);
    expect((await remove(owner.token, card.id)).body.code).toBe(0);
    expect((await list(owner.token)).items).toEqual([]);
    expect((await remove(owner.token, card.id)).body.code).toBe(404);
  });
});
