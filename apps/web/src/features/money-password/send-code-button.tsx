import type { Channel } from '@tradewind/contract/auth';
import type { MoneyPasswordKind } from '@tradewind/contract/money-password';
import { useTranslation } from '@/lib/i18n.ts';
import { CodeCountdownButton } from '@/ui/code-countdown-button.tsx';
import { sendMoneyPasswordCode } from './api/send-money-password-code.ts';

/** Sends a code to the account's own address and counts down until another may be asked for. */
export function SendCodeButton({
  kind,
  channel,
}: {
  kind: MoneyPasswordKind;
  channel: Channel | undefined;
}) {
  const { t } = useTranslation();
  return (
    <CodeCountdownButton
      disabled={!channel}
      send={async () => {
        if (!channel) return null;
        const reply = await sendMoneyPasswordCode({ kind, channel });
        return {
          resendAfterS: reply.resendAfterS,
          message: t('money_password.code_sent_to', { to: reply.sentTo }),
        };
      }}
    />
  );
}
