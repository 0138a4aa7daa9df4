import { type Channel, type RegisterMode, registerRequestSchema } from '@tradewind/contract/auth';
import { Form, Input, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useNavigate, useSearchParams } from '@/lib/router.tsx';
import { useFormSubmit } from '@/lib/forms.ts';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { saveSession } from '@/lib/storage.ts';
import { showToast } from '@/ui/toast.ts';
import { register } from '../api/auth-api.ts';
import { AccountInput } from '../components/account-input.tsx';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ChannelTabs } from '../components/channel-tabs.tsx';
import { CodeField } from '../components/code-field.tsx';
import { NewPasswordFields } from '../components/new-password-fields.tsx';

interface RegisterValues {
  account?: string;
  code?: string;
  inviteCode?: string;
  password?: string;
  confirmPassword?: string;
}

/**
 * Register by verification code or by invitation code, each with email and phone sub-tabs
 * (spec §2). Both tabs prove the address with the code sent to it (decision 0026); the
 * invitation tab also needs the invitation code.
 */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [mode, setMode] = useState<RegisterMode>('code');
  const [channel, setChannel] = useState<Channel>('email');
  const { form, submitting, submit, clearEdited } = useFormSubmit(
    registerRequestSchema,
    register,
    (session) => {
      saveSession(session.token, session.uid);
      showToast({ content: t('success.registration'), duration: 2000 });
      navigate('/', { replace: true });
    },
  );

  // An old message goes once its field is edited; "passwords do not match" also once the first one is.
  const onValuesChange = (changed: Record<string, unknown>) => {
    clearEdited('password' in changed ? { ...changed, confirmPassword: undefined } : changed);
  };

  const onFinish = (values: RegisterValues) =>
    submit({
      mode,
      channel,
      account: values.account ?? '',
      code: values.code ?? '',
      ...(values.inviteCode ? { inviteCode: values.inviteCode } : {}),
      password: values.password ?? '',
      confirmPassword: values.confirmPassword ?? '',
    });

  return (
    <AuthLayout title={t('auth.register_title')} subtitle={t('auth.register_subtitle')}>
      <Tabs
        activeKey={mode}
        onChange={(key) => {
          setMode(key as RegisterMode);
          // What the other tab said about the invitation code no longer applies.
          form.setFields([{ name: 'inviteCode', errors: [] }]);
        }}
      >
        <Tabs.Tab key="code" title={t('auth.mode_code')} />
        <Tabs.Tab key="invite" title={t('auth.mode_invite')} />
      </Tabs>
      <ChannelTabs value={channel} onChange={setChannel} form={form} />
      <p className="tw-muted" style={{ margin: '12px 16px 0' }}>
        {t('auth.code_proves_address')}
      </p>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ inviteCode: params.get('invite') ?? undefined }}
        onValuesChange={onValuesChange}
        onFinish={onFinish}
        footer={<SubmitButton label={t('auth.register')} loading={submitting} />}
      >
        <Form.Item name="account" label={t(`auth.channel_${channel}`)}>
          <AccountInput channel={channel} />
        </Form.Item>
        <CodeField form={form} channel={channel} purpose="register" />
        <Form.Item
          name="inviteCode"
          label={mode === 'invite' ? t('auth.invite_code') : t('auth.invite_code_optional')}
        >
          <Input maxLength={8} placeholder={t('auth.invite_code_placeholder')} clearable />
        </Form.Item>
        <NewPasswordFields />
      </Form>
      <div className="tw-links">
        <span className="tw-muted">{t('auth.have_account')}</span>
        <Link to="/Login">{t('auth.login')}</Link>
      </div>
    </AuthLayout>
  );
}
