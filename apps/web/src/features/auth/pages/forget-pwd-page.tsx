import { type Channel, resetPasswordRequestSchema } from '@tradewind/contract/auth';
import { Form } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useNavigate } from '@/lib/router.tsx';
import { useFormSubmit } from '@/lib/forms.ts';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { showToast } from '@/ui/toast.ts';
import { resetPassword } from '../api/auth-api.ts';
import { AccountInput } from '../components/account-input.tsx';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ChannelTabs } from '../components/channel-tabs.tsx';
import { CodeField } from '../components/code-field.tsx';
import { NewPasswordFields } from '../components/new-password-fields.tsx';

interface ResetValues {
  account?: string;
  code?: string;
  password?: string;
  confirmPassword?: string;
}

export function ForgetPwdPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [channel, setChannel] = useState<Channel>('email');
  const { form, submitting, submit, clearEdited } = useFormSubmit(
    resetPasswordRequestSchema,
    resetPassword,
    () => {
      showToast({ content: t('success.change'), duration: 2000 });
      navigate('/Login', { replace: true });
    },
  );

  const onFinish = (values: ResetValues) =>
    submit({
      channel,
      account: values.account ?? '',
      code: values.code ?? '',
      password: values.password ?? '',
      confirmPassword: values.confirmPassword ?? '',
    });

  return (
    <AuthLayout title={t('auth.reset_title')} subtitle={t('auth.reset_subtitle')}>
      <ChannelTabs value={channel} onChange={setChannel} form={form} />
      <Form
        form={form}
        layout="vertical"
        onValuesChange={(changed: Record<string, unknown>) =>
          clearEdited('password' in changed ? { ...changed, confirmPassword: undefined } : changed)
        }
        onFinish={onFinish}
        footer={<SubmitButton label={t('auth.reset_submit')} loading={submitting} />}
      >
        <Form.Item name="account" label={t(`auth.channel_${channel}`)}>
          <AccountInput channel={channel} />
        </Form.Item>
        <CodeField form={form} channel={channel} purpose="reset_password" />
        <NewPasswordFields labelKey="auth.new_password" />
      </Form>
      <div className="tw-links">
        <Link to="/Login">{t('auth.back_to_login')}</Link>
      </div>
    </AuthLayout>
  );
}
