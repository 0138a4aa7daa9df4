import { type Channel, resetPasswordRequestSchema } from '@tradewind/contract/auth';
import { Button, Form, Input, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { clearFieldErrors, handleSubmitError, showFieldErrors, validateWith } from '@/lib/forms.ts';
import { resetPassword } from '../api/auth-api.ts';
import { AccountInput } from '../components/account-input.tsx';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ChannelTabs } from '../components/channel-tabs.tsx';
import { SendCodeButton } from '../components/send-code-button.tsx';

interface ResetValues {
  account?: string;
  code?: string;
  password?: string;
  confirmPassword?: string;
}

export function ForgetPwdPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const [channel, setChannel] = useState<Channel>('email');
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: ResetValues) => {
    clearFieldErrors(form);
    const checked = validateWith(
      resetPasswordRequestSchema,
      { channel, account: values.account ?? '', code: values.code ?? '', password: values.password ?? '', confirmPassword: values.confirmPassword ?? '' },
      t,
    );
    if (checked.errors) return showFieldErrors(form, checked.errors);
    setSubmitting(true);
    try {
      await resetPassword(checked.data);
      Toast.show({ content: t('success.change'), duration: 2000 });
      navigate('/Login', { replace: true });
    } catch (error) {
      handleSubmitError(form, error);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout title={t('auth.reset_title')} subtitle={t('auth.reset_subtitle')}>
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
            {t('auth.reset_submit')}
          </Button>
        }
      >
        <Form.Item name="account" label={t(`auth.channel_${channel}`)}>
          <AccountInput channel={channel} />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('auth.code')}
          extra={
            <SendCodeButton
              channel={channel}
              purpose="reset_password"
              getAccount={() => form.getFieldValue('account')}
              onInvalidAccount={(message) => form.setFields([{ name: 'account', errors: [message] }])}
            />
          }
        >
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} placeholder={t('auth.code_placeholder')} />
        </Form.Item>
        <Form.Item name="password" label={t('auth.new_password')} help={t('auth.password_rule')}>
          <Input type="password" autoComplete="new-password" placeholder={t('auth.password_placeholder')} clearable />
        </Form.Item>
        <Form.Item name="confirmPassword" label={t('auth.confirm_password')}>
          <Input type="password" autoComplete="new-password" placeholder={t('auth.confirm_password_placeholder')} clearable />
        </Form.Item>
      </Form>
      <div className="tw-links">
        <Link to="/Login">{t('auth.back_to_login')}</Link>
      </div>
    </AuthLayout>
  );
}
