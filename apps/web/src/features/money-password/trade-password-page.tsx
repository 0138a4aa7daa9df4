import { MoneyPasswordScreen } from './money-password-form.tsx';

/** /TradePassword: the password orders ask for. */
export function TradePasswordPage() {
  return <MoneyPasswordScreen kind="trade" />;
}
