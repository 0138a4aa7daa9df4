import { changePasswordRequestSchema } from '@tradewind/contract/auth';
import { Button, Form, Input, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { clearFieldErrors, handleSubmitError, showFieldErrors, validateWith } from '@/lib/forms.ts';
import { Page } from '@/ui/page.tsx';
import { changePassword } from '../api/auth-api.ts';

interface ChangeValues {
  oldPassword?: string;
  password?: string;
  confirmPassword?: string;
}

/** Needs the current password; the other devices are signed out. */
export function ChangePwdPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: ChangeValues) => {
    clearFieldErrors(form);
    const checked = validateWith(
      changePasswordRequestSchema,
      { oldPassword: values.oldPassword ?? '', password: values.password ?? '', confirmPassword: values.confirmPassword ?? '' },
      t,
    );
    if (checked.errors) return showFieldErrors(form, checked.errors);
    setSubmitting(true);
    try {
      await changePassword(checked.data);
      Toast.show({ content: t('success.change'), duration: 2000 });
      navigate('/My', { replace: true });
    } catch (error) {
      handleSubmitError(form, error);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Page title={t('routes.ChangePwd')} backTo="/My">
      <div className="tw-card">
        <p className="tw-muted" style={{ marginTop: 0 }}>{t('auth.change_note')}</p>
        <Form
          form={form}
          layout="vertical"
          onFinish={onFinish}
          footer={
            <Button block type="submit" color="primary" size="large" loading={submitting}>
              {t('common.confirm')}
            </Button>
          }
        >
          <Form.Item name="oldPassword" label={t('auth.old_password')}>
            <Input type="password" autoComplete="current-password" placeholder={t('auth.old_password_placeholder')} clearable />
          </Form.Item>
          <Form.Item name="password" label={t('auth.new_password')} help={t('auth.password_rule')}>
            <Input type="password" autoComplete="new-password" placeholder={t('auth.password_placeholder')} clearable />
          </Form.Item>
          <Form.Item name="confirmPassword" label={t('auth.confirm_password')}>
            <Input type="password" autoComplete="new-password" placeholder={t('auth.confirm_password_placeholder')} clearable />
          </Form.Item>
        </Form>
      </div>
    </Page>
  );
}
