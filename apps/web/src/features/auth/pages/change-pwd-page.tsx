import { changePasswordRequestSchema } from '@tradewind/contract/auth';
import { Form, Input } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { useFormSubmit } from '@/lib/forms.ts';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { Page } from '@/ui/page.tsx';
import { showToast } from '@/ui/toast.ts';
import { changePassword } from '../api/auth-api.ts';
import { NewPasswordFields } from '../components/new-password-fields.tsx';

interface ChangeValues {
  oldPassword?: string;
  password?: string;
  confirmPassword?: string;
}

/** Needs the current password; the other devices are signed out. */
export function ChangePwdPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { form, submitting, submit, clearEdited } = useFormSubmit(
    changePasswordRequestSchema,
    changePassword,
    () => {
      showToast({ content: t('success.change'), duration: 2000 });
      navigate('/My', { replace: true });
    },
  );

  const onFinish = (values: ChangeValues) =>
    submit({
      oldPassword: values.oldPassword ?? '',
      password: values.password ?? '',
      confirmPassword: values.confirmPassword ?? '',
    });

  return (
    <Page title={t('routes.ChangePwd')} backTo="/My">
      <div className="tw-card">
        <p className="tw-muted" style={{ marginTop: 0 }}>
          {t('auth.change_note')}
        </p>
        <Form
          form={form}
          layout="vertical"
          onValuesChange={(changed: Record<string, unknown>) =>
            clearEdited(
              'password' in changed ? { ...changed, confirmPassword: undefined } : changed,
            )
          }
          onFinish={onFinish}
          footer={<SubmitButton label={t('common.confirm')} loading={submitting} />}
        >
          <Form.Item name="oldPassword" label={t('auth.old_password')}>
            <Input
              type="password"
              autoComplete="current-password"
              placeholder={t('auth.old_password_placeholder')}
              clearable
            />
          </Form.Item>
          <NewPasswordFields labelKey="auth.new_password" />
        </Form>
      </div>
    </Page>
  );
}
