import { describe, expect, it } from 'vitest';
import {
  CREDIT_BASE_SCORE,
  CREDIT_EVENT_KINDS,
  CREDIT_RULES,
  creditScoreOf,
} from '../src/credit.ts';
import { nicknameSchema, updateProfileRequestSchema } from '../src/user.ts';

describe('nickname rules (shared by the form and the server)', () => {
  it.each(['Ab', 'Trader42', 'Anna_M. de-Vries', '小明', 'Zoë', 'Ōsaka-99', 'a'.repeat(20)])(
    '%j is accepted',
    (value) => {
      expect(nicknameSchema.safeParse(value).success).toBe(true);
    },
  );

  it.each([
    ['a', 'validation.nickname_too_short'],
    ['', 'validation.required'],
    ['   ', 'validation.required'],
    ['a'.repeat(21), 'validation.nickname_too_long'],
    ['a  b', 'validation.nickname_chars'],
    ['-ab', 'validation.nickname_chars'],
    ['ab\u202e', 'validation.nickname_chars'],
    ['<b>hi</b>', 'validation.nickname_chars'],
    ['moon🚀', 'validation.nickname_chars'],
  ])('%j is refused with %s', (value, message) => {
    const result = nicknameSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([message]);
  });

  it('is trimmed and NFC-normalised, so look-alike spellings store the same', () => {
    expect(nicknameSchema.parse('  Zoe\u0308  ')).toBe('Zoë');
  });

  it('a profile change names at least one thing', () => {
    expect(updateProfileRequestSchema.safeParse({}).success).toBe(false);
    expect(updateProfileRequestSchema.safeParse({ avatarFileId: '12' }).success).toBe(true);
    expect(updateProfileRequestSchema.safeParse({ avatarFileId: '../x' }).success).toBe(false);
  });
});

describe('credit score rules', () => {
  it('every event kind has exactly one rule', () => {
    expect(CREDIT_RULES.map((rule) => rule.kind).sort()).toEqual([...CREDIT_EVENT_KINDS].sort());
  });

  it('the score is the base plus the events, kept within 0..200', () => {
    expect(creditScoreOf(0)).toBe(CREDIT_BASE_SCORE);
    expect(creditScoreOf(20)).toBe(120);
    expect(creditScoreOf(-500)).toBe(0);
    expect(creditScoreOf(500)).toBe(200);
  });
});
