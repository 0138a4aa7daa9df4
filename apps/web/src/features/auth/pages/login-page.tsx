import { type Channel, loginRequestSchema } from '@tradewind/contract/auth';
import { Form, Input, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useFormSubmit } from '@/lib/forms.ts';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { saveSession } from '@/lib/storage.ts';
import { login } from '../api/auth-api.ts';
import { AccountInput } from '../components/account-input.tsx';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ChannelTabs } from '../components/channel-tabs.tsx';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [channel, setChannel] = useState<Channel>('email');
  const { form, submitting, submit } = useFormSubmit(loginRequestSchema, login, (session) => {
    saveSession(session.token, session.uid);
    Toast.show({ content: t('success.signed_in'), duration: 2000 });
    navigate('/', { replace: true });
  });

  return (
    <AuthLayout title={t('auth.login_title')} subtitle={t('auth.login_subtitle')}>
      <ChannelTabs value={channel} onChange={setChannel} form={form} />
      <Form
        form={form}
        layout="vertical"
        onFinish={(values: { account?: string; password?: string }) => submit({ channel, account: values.account ?? '', password: values.password ?? '' })}
        footer={<SubmitButton label={t('auth.login')} loading={submitting} />}
      >
        <Form.Item name="account" label={t(`auth.channel_${channel}`)}>
          <AccountInput channel={channel} />
        </Form.Item>
        <Form.Item name="password" label={t('auth.password')}>
          <Input type="password" autoComplete="current-password" placeholder={t('auth.password_placeholder')} clearable />
        </Form.Item>
      </Form>
      <div className="tw-links">
        <Link to="/ForgetPwd">{t('auth.forgot_password')}</Link>
        <Link to="/Register">{t('auth.create_account')}</Link>
      </div>
    </AuthLayout>
  );
}
