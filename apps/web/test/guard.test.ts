import { describe, expect, it } from 'vitest';
import { isOpenPath } from '@/app/guard.ts';

describe('navigation guard (spec §4)', () => {
  it.each(['/Login', '/Register', '/ForgetPwd', '/Agree', '/Register?invite=ABCD2345'])(
    '%s is open to anyone',
    (path) => {
      expect(isOpenPath(path)).toBe(true);
    },
  );

  it.each(['/', '/My', '/Wallet', '/ChangePwd', '/Transaction', '/login'])(
    '%s needs a stored token',
    (path) => {
      expect(isOpenPath(path)).toBe(false);
    },
  );
});
