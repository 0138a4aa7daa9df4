import { Form, Input } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';

/** New password and its confirmation, entered twice (spec §5). */
export function NewPasswordFields({ labelKey = 'auth.password' }: { labelKey?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="password" label={t(labelKey)} help={t('auth.password_rule')}>
        <Input
          type="password"
          autoComplete="new-password"
          placeholder={t('auth.password_placeholder')}
          clearable
        />
      </Form.Item>
      <Form.Item name="confirmPassword" label={t('auth.confirm_password')}>
        <Input
          type="password"
          autoComplete="new-password"
          placeholder={t('auth.confirm_password_placeholder')}
          clearable
        />
      </Form.Item>
    </>
  );
}
