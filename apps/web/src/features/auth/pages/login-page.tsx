import { type Channel, loginRequestSchema } from '@tradewind/contract/auth';
import { Button, Form, Input, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { clearFieldErrors, handleSubmitError, showFieldErrors, validateWith } from '@/lib/forms.ts';
import { saveSession } from '@/lib/storage.ts';
import { login } from '../api/auth-api.ts';
import { AccountInput } from '../components/account-input.tsx';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ChannelTabs } from '../components/channel-tabs.tsx';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const [channel, setChannel] = useState<Channel>('email');
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: { account?: string; password?: string }) => {
    clearFieldErrors(form);
    const checked = validateWith(loginRequestSchema, { channel, account: values.account ?? '', password: values.password ?? '' }, t);
    if (checked.errors) return showFieldErrors(form, checked.errors);
    setSubmitting(true);
    try {
      const session = await login(checked.data);
      saveSession(session.token, session.uid);
      Toast.show({ content: t('success.signed_in'), duration: 2000 });
      navigate('/', { replace: true });
    } catch (error) {
      handleSubmitError(form, error);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout title={t('auth.login_title')} subtitle={t('auth.login_subtitle')}>
      <ChannelTabs
        value={channel}
        onChange={(next) => {
          setChannel(next);
          form.resetFields(['account']);
        }}
      />
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        footer={
          <Button block type="submit" color="primary" size="large" loading={submitting}>
            {t('auth.login')}
          </Button>
        }
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
