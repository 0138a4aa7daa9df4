import { ERROR_CODES } from '@tradewind/contract/errors';
import type { NavigateFunction } from '@/lib/router.tsx';
import { ApiError } from '@tradewind/http-client/api-error';

/**
 * Withdrawals need the withdrawal password, orders the trading password (spec §5). When
 * the server answers that one is not set, the client has already shown its message; this
 * takes the user to set it, with a way back.
 */
export const MONEY_PASSWORD_PATHS = {
  withdraw: '/WithdrawPassword',
  trade: '/TradePassword',
} as const;

export function moneyPasswordPath(kind: keyof typeof MONEY_PASSWORD_PATHS, back?: string): string {
  return back
    ? `${MONEY_PASSWORD_PATHS[kind]}?back=${encodeURIComponent(back)}`
    : MONEY_PASSWORD_PATHS[kind];
}

/** True (and navigates) when the error says a money password is missing. */
export function goSetMissingMoneyPassword(
  error: unknown,
  navigate: NavigateFunction,
  back: string,
): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.code === ERROR_CODES.WITHDRAW_PASSWORD_NOT_SET)
    navigate(moneyPasswordPath('withdraw', back));
  else if (error.code === ERROR_CODES.TRADE_PASSWORD_NOT_SET)
    navigate(moneyPasswordPath('trade', back));
  else return false;
  return true;
}
