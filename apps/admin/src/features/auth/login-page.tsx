import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { errorText } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { LanguageSelect } from '@/ui/language-select.tsx';
import { type SignInForm, signIn } from './api/sign-in.ts';

const useT = defineStrings({
  en: {
    title: 'Tradewind Console',
    subtitle: 'Operators only. Every action is recorded.',
    username: 'Operator name',
    password: 'Password',
    code: 'Authenticator code',
    codeHelp: 'The 6-digit code from your authenticator app.',
    submit: 'Sign in',
    required: 'Required',
    codeFormat: 'The code has 6 digits.',
    expired: 'Your session ended after 30 minutes without use. Please sign in again.',
  },
  'zh-CN': {
    title: 'Tradewind 管理后台',
    subtitle: '仅限操作员。所有操作都会被记录。',
    username: '操作员用户名',
    password: '密码',
    code: '身份验证器代码',
    codeHelp: '身份验证器应用中的 6 位数字代码。',
    submit: '登录',
    required: '必填',
    codeFormat: '代码为 6 位数字。',
    expired: '会话在 30 分钟无操作后已结束，请重新登录。',
  },
});

/** Name, password and an authenticator code: every operator signs in with TOTP. */
export function LoginPage() {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(values: SignInForm) {
    setBusy(true);
    setError(undefined);
    try {
      await signIn(values);
      queryClient.clear();
      navigate('/', { replace: true });
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        background: '#f5f7fa',
        padding: 16,
      }}
    >
      <Card style={{ width: 380, maxWidth: '100%' }}>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('subtitle')}</Typography.Paragraph>
        {params.get('expired') && (
          <Alert type="info" showIcon title={t('expired')} style={{ marginBottom: 16 }} />
        )}
        {error && (
          <Alert
            type="error"
            showIcon
            title={error}
            style={{ marginBottom: 16 }}
            data-testid="login-error"
          />
        )}
        <Form<SignInForm> layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item
            name="username"
            label={t('username')}
            rules={[{ required: true, whitespace: true, message: t('required') }]}
          >
            <Input autoComplete="username" data-testid="login-username" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('password')}
            rules={[{ required: true, message: t('required') }]}
          >
            <Input.Password autoComplete="current-password" data-testid="login-password" />
          </Form.Item>
          <Form.Item
            name="code"
            label={t('code')}
            extra={t('codeHelp')}
            rules={[{ required: true, pattern: /^\d{6}$/, message: t('codeFormat') }]}
          >
            <Input
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              data-testid="login-code"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
            {t('submit')}
          </Button>
        </Form>
        <LanguageSelect style={{ width: 120, marginTop: 16 }} />
      </Card>
    </div>
  );
}
