import { type Channel, type AuthCodePurpose, normalizeAccount } from '@tradewind/contract/auth';
import { Button, Toast } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sendCode } from '../api/auth-api.ts';

interface SendCodeButtonProps {
  channel: Channel;
  purpose: AuthCodePurpose;
  /** Reads the account field at click time. */
  getAccount: () => string | undefined;
  /** Called with the message when the address is not valid yet. */
  onInvalidAccount: (message: string) => void;
}

/** Sends a code and counts down until another may be asked for. */
export function SendCodeButton({ channel, purpose, getAccount, onInvalidAccount }: SendCodeButtonProps) {
  const { t } = useTranslation();
  const [secondsLeft, setSecondsLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const onClick = async () => {
    const account = getAccount() ?? '';
    if (normalizeAccount(channel, account) === undefined) {
      onInvalidAccount(t(channel === 'email' ? 'validation.email_invalid' : 'validation.phone_invalid'));
      return;
    }
    setSending(true);
    try {
      const reply = await sendCode({ channel, account, purpose });
      setSecondsLeft(reply.resendAfterS);
      Toast.show({ content: t('success.code_sent'), duration: 2000 });
    } catch {
      // The client already showed the reason.
    } finally {
      setSending(false);
    }
  };

  return (
    <Button size="small" color="primary" fill="none" disabled={secondsLeft > 0} loading={sending} onClick={onClick}>
      {secondsLeft > 0 ? t('auth.resend_in', { seconds: secondsLeft }) : t('auth.send_code')}
    </Button>
  );
}
