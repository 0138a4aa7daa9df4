import type { Channel, AuthCodePurpose } from '@tradewind/contract/auth';
import { Form, Input } from 'antd-mobile';
import type { FormInstance } from 'antd-mobile/es/components/form';
import { useTranslation } from '@/lib/i18n.ts';
import { SendCodeButton } from './send-code-button.tsx';

/** The 6-digit code field with its send button, which reads the form's account field. */
export function CodeField({
  form,
  channel,
  purpose,
}: {
  form: FormInstance;
  channel: Channel;
  purpose: AuthCodePurpose;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="code"
      label={t('auth.code')}
      extra={
        <SendCodeButton
          channel={channel}
          purpose={purpose}
          getAccount={() => form.getFieldValue('account')}
          onInvalidAccount={(message) => form.setFields([{ name: 'account', errors: [message] }])}
        />
      }
    >
      <Input
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        placeholder={t('auth.code_placeholder')}
      />
    </Form.Item>
  );
}
