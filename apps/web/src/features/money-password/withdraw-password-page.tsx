import { MoneyPasswordScreen } from './money-password-form.tsx';

/** /WithdrawPassword: the password every withdrawal asks for. */
export function WithdrawPasswordPage() {
  return <MoneyPasswordScreen kind="withdraw" />;
}
