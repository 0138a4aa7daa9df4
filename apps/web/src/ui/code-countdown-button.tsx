import { Button } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { showToast } from '@/ui/toast.ts';

interface CodeCountdownButtonProps {
  /**
   * Sends the code. Returns the seconds until another may be asked for and the toast to
   * show, or null when nothing was sent (e.g. the address is not valid yet). A failed
   * request rejects; the HTTP client already told the user why.
   */
  send: () => Promise<{ resendAfterS: number; message: string } | null>;
  disabled?: boolean;
}

/** "Send code", then a countdown until another code may be requested. */
export function CodeCountdownButton({ send, disabled = false }: CodeCountdownButtonProps) {
  const { t } = useTranslation();
  const [secondsLeft, setSecondsLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const onClick = async () => {
    setSending(true);
    try {
      const sent = await send();
      if (sent) {
        setSecondsLeft(sent.resendAfterS);
        showToast({ content: sent.message, duration: 2000 });
      }
    } catch {
      // The client already showed the reason.
    } finally {
      setSending(false);
    }
  };

  return (
    <Button
      size="small"
      color="primary"
      fill="none"
      disabled={disabled || secondsLeft > 0}
      loading={sending}
      onClick={onClick}
    >
      {secondsLeft > 0 ? t('auth.resend_in', { seconds: secondsLeft }) : t('auth.send_code')}
    </Button>
  );
}
