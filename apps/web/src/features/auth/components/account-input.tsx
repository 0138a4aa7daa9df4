import type { Channel } from '@tradewind/contract/auth';
import { Input } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { PhoneInput } from '@/ui/phone-input.tsx';

interface AccountInputProps {
  channel: Channel;
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
}

/** The email address or the phone number, by the chosen sub-tab. */
export function AccountInput({ channel, value, onChange, id }: AccountInputProps) {
  const { t } = useTranslation();
  if (channel === 'phone') {
    return (
      <PhoneInput
        id={id}
        value={value}
        onChange={onChange}
        placeholder={t('auth.phone_placeholder')}
        codeLabel={t('auth.country_code')}
      />
    );
  }
  return (
    <Input
      id={id}
      // Not type="email": the browser's own check would block the form with an unlocalized bubble.
      type="text"
      inputMode="email"
      autoComplete="email"
      placeholder={t('auth.email_placeholder')}
      value={value}
      onChange={onChange}
      clearable
    />
  );
}
