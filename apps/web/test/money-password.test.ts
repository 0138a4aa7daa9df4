import { ERROR_CODES } from '@tradewind/contract/errors';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@tradewind/http-client/api-error';
import { goSetMissingMoneyPassword, moneyPasswordPath } from '@/lib/money-password.ts';

describe('a missing money password takes the user to set it', () => {
  it.each([
    [ERROR_CODES.WITHDRAW_PASSWORD_NOT_SET, '/WithdrawPassword?back=%2FWithdrawal'],
    [ERROR_CODES.TRADE_PASSWORD_NOT_SET, '/TradePassword?back=%2FWithdrawal'],
  ])('code %s → %s', (code, path) => {
    const navigate = vi.fn();
    expect(goSetMissingMoneyPassword(new ApiError(code, 'not set'), navigate, '/Withdrawal')).toBe(
      true,
    );
    expect(navigate).toHaveBeenCalledWith(path);
  });

  it('other errors are left alone', () => {
    const navigate = vi.fn();
    expect(
      goSetMissingMoneyPassword(
        new ApiError(ERROR_CODES.INSUFFICIENT_BALANCE, 'no'),
        navigate,
        '/Withdrawal',
      ),
    ).toBe(false);
    expect(goSetMissingMoneyPassword(new TypeError('network'), navigate, '/Withdrawal')).toBe(
      false,
    );
    expect(navigate).not.toHaveBeenCalled();
  });

  it('the path without a way back', () => {
    expect(moneyPasswordPath('trade')).toBe('/TradePassword');
  });
});
