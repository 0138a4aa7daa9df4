import { type Channel, type RegisterMode, registerRequestSchema } from '@tradewind/contract/auth';
import { Button, Form, Input, Tabs, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { clearFieldErrors, handleSubmitError, showFieldErrors, validateWith } from '@/lib/forms.ts';
import { saveSession } from '@/lib/storage.ts';
import { register } from '../api/auth-api.ts';
import { AccountInput } from '../components/account-input.tsx';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ChannelTabs } from '../components/channel-tabs.tsx';
import { SendCodeButton } from '../components/send-code-button.tsx';

interface RegisterValues {
  account?: string;
  code?: string;
  inviteCode?: string;
  password?: string;
  confirmPassword?: string;
}

/** Register by verification code or by invitation code, each with email and phone sub-tabs (spec §2). */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm();
  const [mode, setMode] = useState<RegisterMode>('code');
  const [channel, setChannel] = useState<Channel>('email');
  const [submitting, setSubmitting] = useState(false);
  const invitedBy = params.get('invite') ?? undefined;

  const onFinish = async (values: RegisterValues) => {
    clearFieldErrors(form);
    const request = {
      mode,
      channel,
      account: values.account ?? '',
      ...(mode === 'code' ? { code: values.code ?? '' } : {}),
      ...(values.inviteCode ? { inviteCode: values.inviteCode } : {}),
      password: values.password ?? '',
      confirmPassword: values.confirmPassword ?? '',
    };
    const checked = validateWith(registerRequestSchema, request, t);
    if (checked.errors) return showFieldErrors(form, checked.errors);
    setSubmitting(true);
    try {
      const session = await register(checked.data);
      saveSession(session.token, session.uid);
      Toast.show({ content: t('success.registration'), duration: 2000 });
      navigate('/', { replace: true });
    } catch (error) {
      handleSubmitError(form, error);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout title={t('auth.register_title')} subtitle={t('auth.register_subtitle')}>
      <Tabs activeKey={mode} onChange={(key) => setMode(key as RegisterMode)}>
        <Tabs.Tab key="code" title={t('auth.mode_code')} />
        <Tabs.Tab key="invite" title={t('auth.mode_invite')} />
      </Tabs>
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
        initialValues={{ inviteCode: invitedBy }}
        onFinish={onFinish}
        footer={
          <Button block type="submit" color="primary" size="large" loading={submitting}>
            {t('auth.register')}
          </Button>
        }
      >
        <Form.Item name="account" label={t(`auth.channel_${channel}`)}>
          <AccountInput channel={channel} />
        </Form.Item>
        {mode === 'code' && (
          <Form.Item
            name="code"
            label={t('auth.code')}
            extra={
              <SendCodeButton
                channel={channel}
                purpose="register"
                getAccount={() => form.getFieldValue('account')}
                onInvalidAccount={(message) => form.setFields([{ name: 'account', errors: [message] }])}
              />
            }
          >
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} placeholder={t('auth.code_placeholder')} />
          </Form.Item>
        )}
        <Form.Item name="inviteCode" label={mode === 'invite' ? t('auth.invite_code') : t('auth.invite_code_optional')}>
          <Input maxLength={8} placeholder={t('auth.invite_code_placeholder')} clearable />
        </Form.Item>
        <Form.Item name="password" label={t('auth.password')} help={t('auth.password_rule')}>
          <Input type="password" autoComplete="new-password" placeholder={t('auth.password_placeholder')} clearable />
        </Form.Item>
        <Form.Item name="confirmPassword" label={t('auth.confirm_password')}>
          <Input type="password" autoComplete="new-password" placeholder={t('auth.confirm_password_placeholder')} clearable />
        </Form.Item>
      </Form>
      <div className="tw-links">
        <span className="tw-muted">{t('auth.have_account')}</span>
        <Link to="/Login">{t('auth.login')}</Link>
      </div>
    </AuthLayout>
  );
}
