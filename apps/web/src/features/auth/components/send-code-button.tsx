import { type Channel, type AuthCodePurpose, normalizeAccount } from '@tradewind/contract/auth';
import { useTranslation } from '@/lib/i18n.ts';
import { CodeCountdownButton } from '@/ui/code-countdown-button.tsx';
import { sendCode } from '../api/auth-api.ts';

interface SendCodeButtonProps {
  channel: Channel;
  purpose: AuthCodePurpose;
  /** Reads the account field at click time. */
  getAccount: () => string | undefined;
  /** Called with the message when the address is not valid yet. */
  onInvalidAccount: (message: string) => void;
}

/** Sends a code to the address in the form and counts down until another may be asked for. */
export function SendCodeButton({
  channel,
  purpose,
  getAccount,
  onInvalidAccount,
}: SendCodeButtonProps) {
  const { t } = useTranslation();
  return (
    <CodeCountdownButton
      send={async () => {
        const account = getAccount() ?? '';
        if (normalizeAccount(channel, account) === undefined) {
          onInvalidAccount(
            t(channel === 'email' ? 'validation.email_invalid' : 'validation.phone_invalid'),
          );
          return null;
        }
        const reply = await sendCode({ channel, account, purpose });
        return { resendAfterS: reply.resendAfterS, message: t('success.code_sent') };
      }}
    />
  );
}
