import type { enrolmentStartedSchema } from '@tradewind/contract/operator';
import { Alert, Button, Card, Form, Input, QRCode, Result, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { errorText } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { LanguageSelect } from '@/ui/language-select.tsx';
import { completeEnrolment } from './api/complete-enrolment.ts';
import { startEnrolment } from './api/start-enrolment.ts';

const useT = defineStrings({
  en: {
    title: 'Set up your operator account',
    intro:
      'You are enrolling as {name}. Choose your own password and add the key below to your authenticator app.',
    noCode: 'This page needs the enrolment link an administrator gave you.',
    secret: 'Authenticator key',
    scan: 'Scan the code with your authenticator app, or type the key.',
    password: 'Your password',
    passwordRule: 'At least 12 characters.',
    confirm: 'Password again',
    mismatch: 'The passwords do not match.',
    code: 'Code from your authenticator',
    codeFormat: 'The code has 6 digits.',
    submit: 'Finish setup',
    done: 'Your account is ready',
    doneHelp: 'Sign in with your name, your password and a code from your authenticator.',
    signIn: 'Go to sign-in',
  },
  'zh-CN': {
    title: '设置您的操作员账户',
    intro: '您正在以 {name} 的身份开通账户。请设置您自己的密码，并将下方密钥添加到身份验证器应用。',
    noCode: '此页面需要管理员提供给您的开通链接。',
    secret: '身份验证器密钥',
    scan: '用身份验证器应用扫描二维码，或手动输入密钥。',
    password: '您的密码',
    passwordRule: '至少 12 个字符。',
    confirm: '再次输入密码',
    mismatch: '两次输入的密码不一致。',
    code: '身份验证器中的代码',
    codeFormat: '代码为 6 位数字。',
    submit: '完成设置',
    done: '您的账户已就绪',
    doneHelp: '请使用您的用户名、密码和身份验证器代码登录。',
    signIn: '前往登录',
  },
});

type Started = z.infer<typeof enrolmentStartedSchema>;
interface EnrolForm {
  password: string;
  confirm: string;
  totpCode: string;
}

/**
 * The public page an enrolment link opens (`/admin/enrol#<code>`): the code rides in the
 * fragment, so no server or proxy logs it. The newcomer sets their own password and TOTP.
 */
export function EnrolPage() {
  const t = useT();
  const [code] = useState(() => window.location.hash.slice(1));
  const [started, setStarted] = useState<Started>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!code) return;
    startEnrolment(code).then(setStarted, (caught: unknown) => setError(errorText(caught)));
  }, [code]);

  async function submit(values: EnrolForm) {
    setBusy(true);
    setError(undefined);
    try {
      await completeEnrolment({ code, password: values.password, totpCode: values.totpCode });
      setDone(true);
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
      <Card style={{ width: 440, maxWidth: '100%' }} data-testid="enrol-page">
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('title')}
        </Typography.Title>
        {!code && <Alert type="warning" showIcon title={t('noCode')} />}
        {error && (
          <Alert
            type="error"
            showIcon
            title={error}
            style={{ marginBottom: 16 }}
            data-testid="enrol-error"
          />
        )}
        {done ? (
          <Result
            status="success"
            title={t('done')}
            subTitle={t('doneHelp')}
            extra={
              <Link to="/login" data-testid="enrol-sign-in">
                {t('signIn')}
              </Link>
            }
          />
        ) : (
          started && (
            <>
              <Typography.Paragraph>{t('intro', { name: started.username })}</Typography.Paragraph>
              <div style={{ display: 'flex', gap: 16, alignItems: 'center', marginBottom: 16 }}>
                <QRCode value={started.otpauthUri} size={140} />
                <div style={{ minWidth: 0 }}>
                  <Typography.Text type="secondary">{t('secret')}</Typography.Text>
                  <Typography.Paragraph copyable code data-testid="enrol-secret">
                    {started.totpSecret}
                  </Typography.Paragraph>
                  <Typography.Text type="secondary">{t('scan')}</Typography.Text>
                </div>
              </div>
              <Form<EnrolForm> layout="vertical" onFinish={submit} requiredMark={false}>
                <Form.Item
                  name="password"
                  label={t('password')}
                  extra={t('passwordRule')}
                  rules={[{ required: true, min: 12, message: t('passwordRule') }]}
                >
                  <Input.Password autoComplete="new-password" data-testid="enrol-password" />
                </Form.Item>
                <Form.Item
                  name="confirm"
                  label={t('confirm')}
                  dependencies={['password']}
                  rules={[
                    { required: true, message: t('mismatch') },
                    ({ getFieldValue }) => ({
                      validator: (_rule, value) =>
                        value === getFieldValue('password')
                          ? Promise.resolve()
                          : Promise.reject(new Error(t('mismatch'))),
                    }),
                  ]}
                >
                  <Input.Password autoComplete="new-password" data-testid="enrol-confirm" />
                </Form.Item>
                <Form.Item
                  name="totpCode"
                  label={t('code')}
                  rules={[{ required: true, pattern: /^\d{6}$/, message: t('codeFormat') }]}
                >
                  <Input
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    data-testid="enrol-code"
                  />
                </Form.Item>
                <Button
                  type="primary"
                  htmlType="submit"
                  block
                  loading={busy}
                  data-testid="enrol-submit"
                >
                  {t('submit')}
                </Button>
              </Form>
            </>
          )
        )}
        <LanguageSelect style={{ width: 120, marginTop: 16 }} />
      </Card>
    </div>
  );
}
