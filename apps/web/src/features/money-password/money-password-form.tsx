import { useQueryClient } from '@tanstack/react-query';
import type { Channel } from '@tradewind/contract/auth';
import {
  type MoneyPasswordKind,
  type MoneyPasswordProof,
  setMoneyPasswordRequestSchema,
} from '@tradewind/contract/money-password';
import { Form, Input, Selector, Skeleton, Tag } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { clearErrorsOnChange, useFormSubmit } from '@/lib/forms.ts';
import { useBackTarget } from '@/lib/navigation.ts';
import { Page } from '@/ui/page.tsx';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { showToast } from '@/ui/toast.ts';
import { moneyPasswordsQueryKey, useMoneyPasswords } from './api/get-money-passwords.ts';
import { setMoneyPassword } from './api/set-money-password.ts';
import { SendCodeButton } from './send-code-button.tsx';

interface Values {
  loginPassword?: string;
  code?: string;
  password?: string;
  confirmPassword?: string;
}

const TITLES: Record<MoneyPasswordKind, string> = {
  withdraw: 'routes.WithdrawPassword',
  trade: 'routes.TradePassword',
};

/** Sets or changes one money password, proven by the login password or a code sent to the user's own address. */
export function MoneyPasswordScreen({ kind }: { kind: MoneyPasswordKind }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const back = useBackTarget('/My');
  const status = useMoneyPasswords();
  const [proof, setProof] = useState<MoneyPasswordProof>('login_password');
  const [chosenChannel, setChannel] = useState<Channel | undefined>();
  const contacts = status.data?.contacts ?? [];
  const channel = chosenChannel ?? contacts[0]?.channel;
  const state = status.data?.[kind];

  const { form, submitting, submit } = useFormSubmit(
    setMoneyPasswordRequestSchema,
    setMoneyPassword,
    (result) => {
      queryClient.setQueryData(moneyPasswordsQueryKey, result);
      showToast({
        content: t(state?.set ? 'success.change' : 'money_password.set_done'),
        duration: 2000,
      });
      navigate(back, { replace: true });
    },
  );

  const onFinish = (values: Values) =>
    submit({
      kind,
      proof,
      ...(proof === 'login_password'
        ? { loginPassword: values.loginPassword ?? '' }
        : { channel, code: values.code ?? '' }),
      password: values.password ?? '',
      confirmPassword: values.confirmPassword ?? '',
    });

  const lockedUntil = state?.lockedUntil
    ? formatDateTime(state.lockedUntil, i18n.language, { timeStyle: 'short' })
    : null;

  return (
    <Page title={t(TITLES[kind])} backTo={back}>
      <section className="tw-card" aria-label={t('money_password.status')}>
        {state ? (
          <>
            <div
              style={{
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'space-between',
                gap: 8,
              }}
            >
              <strong>{t(`money_password.${kind}_name`)}</strong>
              <Tag color={state.set ? 'success' : 'warning'} fill="outline">
                {state.set ? t('money_password.is_set') : t('money_password.not_set')}
              </Tag>
            </div>
            <p className="tw-muted" style={{ margin: '8px 0 0' }}>
              {t(`money_password.${kind}_explain`)}
            </p>
            {lockedUntil && (
              <p style={{ margin: '8px 0 0', color: 'var(--tw-down)', fontSize: 13 }} role="alert">
                {t('money_password.locked_until', { time: lockedUntil })}
              </p>
            )}
          </>
        ) : (
          <Skeleton.Paragraph lineCount={2} animated />
        )}
      </section>
      <section className="tw-card">
        <Form
          form={form}
          layout="vertical"
          className="tw-flat-form"
          onValuesChange={clearErrorsOnChange(form)}
          onFinish={onFinish}
          footer={
            <SubmitButton
              label={state?.set ? t('money_password.change') : t('money_password.set')}
              loading={submitting}
            />
          }
        >
          <Form.Item label={t('money_password.prove_with')}>
            <Selector
              aria-label={t('money_password.prove_with')}
              columns={2}
              value={[proof]}
              onChange={(value) => value[0] && setProof(value[0])}
              options={[
                {
                  label: t('money_password.proof_login_password'),
                  value: 'login_password' as const,
                },
                {
                  label: t('money_password.proof_code'),
                  value: 'code' as const,
                  disabled: contacts.length === 0,
                },
              ]}
            />
          </Form.Item>
          {proof === 'login_password' ? (
            <Form.Item name="loginPassword" label={t('money_password.login_password')}>
              <Input
                type="password"
                autoComplete="current-password"
                placeholder={t('money_password.login_password_placeholder')}
                clearable
              />
            </Form.Item>
          ) : (
            <>
              {contacts.length > 1 && (
                <Form.Item label={t('money_password.send_to')}>
                  <Selector
                    columns={1}
                    value={channel ? [channel] : []}
                    onChange={(value) => value[0] && setChannel(value[0])}
                    options={contacts.map((c) => ({
                      label: `${t(`auth.channel_${c.channel}`)} · ${c.masked}`,
                      value: c.channel,
                    }))}
                  />
                </Form.Item>
              )}
              <Form.Item
                name="code"
                label={
                  contacts.length === 1
                    ? t('money_password.code_to', { to: contacts[0]?.masked ?? '' })
                    : t('auth.code')
                }
                extra={<SendCodeButton kind={kind} channel={channel} />}
              >
                <Input
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  placeholder={t('auth.code_placeholder')}
                />
              </Form.Item>
            </>
          )}
          <Form.Item
            name="password"
            label={t('money_password.new')}
            description={t('money_password.rule')}
          >
            <Input
              type="password"
              inputMode="numeric"
              autoComplete="new-password"
              maxLength={6}
              placeholder={t('money_password.new_placeholder')}
              clearable
            />
          </Form.Item>
          <Form.Item name="confirmPassword" label={t('money_password.confirm')}>
            <Input
              type="password"
              inputMode="numeric"
              autoComplete="new-password"
              maxLength={6}
              placeholder={t('money_password.confirm_placeholder')}
              clearable
            />
          </Form.Item>
        </Form>
      </section>
    </Page>
  );
}
