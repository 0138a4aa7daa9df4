import { describe, expect, it } from 'vitest';
import { normalizeEmail, normalizePhone, registerRequestSchema } from '../src/auth.ts';

describe('account normalisation', () => {
  it.each([
    ['  Alice@Example.COM ', 'alice@example.com'],
    ['a.b+tag@sub.example.io', 'a.b+tag@sub.example.io'],
    ['no-at-sign', undefined],
    ['a@b', undefined],
    ['a b@example.com', undefined],
    ['"quoted"@example.com', undefined],
    [`${'a'.repeat(250)}@example.com`, undefined],
  ])('email %s → %s', (input, expected) => {
    expect(normalizeEmail(input)).toBe(expected);
  });

  it.each([
    ['+8613800138000', '+8613800138000'],
    ['+1 (415) 555-0123', '+14155550123'],
    ['+4915112345678', '+4915112345678'],
    ['13800138000', undefined],
    ['+1555', undefined],
    ['+99912345678', undefined],
  ])('phone %s → %s', (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
  });

  it('the register schema needs the code in code mode and the invitation code in invite mode', () => {
    const base = {
      channel: 'email',
      account: 'a@example.com',
      password: 'password1',
      confirmPassword: 'password1',
    };
    const codeMode = registerRequestSchema.safeParse({ ...base, mode: 'code' });
    expect(codeMode.error?.issues.map((i) => i.path.join('.'))).toEqual(['code']);
    // Both tabs prove the address (decision 0026): the invitation tab needs the code too.
    const inviteMode = registerRequestSchema.safeParse({ ...base, mode: 'invite' });
    expect(inviteMode.error?.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'code',
      'inviteCode',
    ]);
    const unproved = registerRequestSchema.safeParse({
      ...base,
      mode: 'invite',
      inviteCode: 'abcd2345',
    });
    expect(unproved.error?.issues.map((i) => i.path.join('.'))).toEqual(['code']);
    expect(
      registerRequestSchema.safeParse({
        ...base,
        mode: 'invite',
        inviteCode: 'abcd2345',
        code: '123456',
      }).data?.inviteCode,
    ).toBe('ABCD2345');
  });
});
