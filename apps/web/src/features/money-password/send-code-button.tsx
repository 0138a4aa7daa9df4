import type { Channel } from '@tradewind/contract/auth';
import type { MoneyPasswordKind } from '@tradewind/contract/money-password';
import { Button, Toast } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sendMoneyPasswordCode } from './api/send-money-password-code.ts';

/** Sends a code to the account's own address and counts down until another may be asked for. */
export function SendCodeButton({ kind, channel }: { kind: MoneyPasswordKind; channel: Channel | undefined }) {
  const { t } = useTranslation();
  const [secondsLeft, setSecondsLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const onClick = async () => {
    if (!channel) return;
    setSending(true);
    try {
      const reply = await sendMoneyPasswordCode({ kind, channel });
      setSecondsLeft(reply.resendAfterS);
      Toast.show({ content: t('money_password.code_sent_to', { to: reply.sentTo }), duration: 2000 });
    } catch {
      // The client already showed the reason.
    } finally {
      setSending(false);
    }
  };

  return (
    <Button size="small" color="primary" fill="none" disabled={!channel || secondsLeft > 0} loading={sending} onClick={onClick}>
      {secondsLeft > 0 ? t('auth.resend_in', { seconds: secondsLeft }) : t('auth.send_code')}
    </Button>
  );
}
