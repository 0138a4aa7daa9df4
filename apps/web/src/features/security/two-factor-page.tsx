import { useQueryClient } from '@tanstack/react-query';
import {
  type TwoFactorSetup,
  twoFactorDisableRequestSchema,
  twoFactorEnableRequestSchema,
} from '@tradewind/contract/security';
import { Button, Form, Input, Skeleton } from 'antd-mobile';
import { CheckShieldFill, ExclamationCircleOutline, FileOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { useFormSubmit } from '@/lib/forms.ts';
import { Page } from '@/ui/page.tsx';
import { QrCode } from '@/ui/qr-code.tsx';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { showToast } from '@/ui/toast.ts';
import { securityQueryKey, useSecurity } from './api/get-security.ts';
import { disableTwoFactor, enableTwoFactor, setupTwoFactor } from './api/two-factor.ts';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' } as const;

/** The secret in groups of four, as authenticator apps show it when typed by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

function copy(text: string, done: string) {
  void navigator.clipboard?.writeText(text).then(
    () => showToast({ content: done, duration: 2000 }),
    () => undefined,
  );
}

/** Step 2 and 3: scan (or type) the secret, confirm with a code; then the recovery codes, once. */
function Enrol({
  setup,
  onEnabled,
}: {
  setup: TwoFactorSetup;
  onEnabled: (codes: string[]) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const send = async (request: { code: string }) => {
    const result = await enableTwoFactor(request);
    await queryClient.invalidateQueries({ queryKey: securityQueryKey });
    return result;
  };
  const { form, submitting, submit, clearEdited } = useFormSubmit(
    twoFactorEnableRequestSchema,
    send,
    (result) => onEnabled(result.recoveryCodes),
  );
  return (
    <>
      <section className="tw-card">
        <p className="tw-step" style={{ marginTop: 0 }}>
          {t('security.enrol_scan')}
        </p>
        <div style={{ display: 'flex', justifyContent: 'center', padding: '8px 0' }}>
          <QrCode value={setup.uri} label={t('security.enrol_qr_label')} testId="totp-qr" />
        </div>
        <p className="tw-muted" style={{ fontSize: 13, margin: '8px 0 4px' }}>
          {t('security.enrol_manual')}
        </p>
        <button
          type="button"
          className="tw-link"
          onClick={() => copy(setup.secret, t('security.copied'))}
          aria-label={t('security.copy_secret')}
          style={{ display: 'flex', gap: 6, alignItems: 'center', width: '100%' }}
        >
          <span
            data-testid="totp-secret"
            data-secret={setup.secret}
            style={{
              ...mono,
              fontSize: 15,
              letterSpacing: 1,
              overflowWrap: 'anywhere',
              textAlign: 'left',
              color: 'var(--tw-text)',
            }}
          >
            {grouped(setup.secret)}
          </span>
          <FileOutline style={{ flex: 'none' }} aria-hidden />
        </button>
      </section>
      <section className="tw-card">
        <Form
          form={form}
          layout="vertical"
          className="tw-flat-form"
          onValuesChange={clearEdited}
          onFinish={(values: { code?: string }) => submit({ code: (values.code ?? '').trim() })}
          footer={<SubmitButton label={t('security.enable')} loading={submitting} />}
        >
          <Form.Item name="code" label={t('security.enrol_code')}>
            <Input
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder="000000"
              clearable
            />
          </Form.Item>
        </Form>
      </section>
    </>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <section className="tw-card" data-testid="recovery-codes">
      <p
        style={{
          display: 'flex',
          gap: 8,
          alignItems: 'center',
          margin: '0 0 8px',
          fontWeight: 600,
        }}
      >
        <CheckShieldFill color="var(--adm-color-success)" aria-hidden />{' '}
        {t('security.enabled_title')}
      </p>
      <p
        style={{
          display: 'flex',
          gap: 6,
          fontSize: 14,
          color: 'var(--tw-warning-text)',
          background: 'var(--tw-warning-bg)',
          borderRadius: 8,
          padding: 8,
          margin: '0 0 12px',
          lineHeight: 1.5,
        }}
      >
        <ExclamationCircleOutline style={{ flex: 'none', marginTop: 3 }} aria-hidden />
        {t('security.recovery_save')}
      </p>
      <ol
        style={{
          ...mono,
          display: 'grid',
          gridTemplateColumns: '1fr 1fr',
          gap: '6px 16px',
          margin: 0,
          padding: '0 0 0 24px',
          fontSize: 15,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div style={{ display: 'flex', gap: 8, marginTop: 16 }}>
        <Button block onClick={() => copy(codes.join('\n'), t('security.copied'))}>
          {t('security.copy_codes')}
        </Button>
        <Button block color="primary" onClick={() => navigate('/Security', { replace: true })}>
          {t('security.saved_them')}
        </Button>
      </div>
    </section>
  );
}

function Disable() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const send = async (request: { code: string }) => {
    await disableTwoFactor(request);
    await queryClient.invalidateQueries({ queryKey: securityQueryKey });
  };
  const { form, submitting, submit, clearEdited } = useFormSubmit(
    twoFactorDisableRequestSchema,
    send,
    () => {
      showToast({ content: t('security.disabled_toast'), duration: 2000 });
      navigate('/Security', { replace: true });
    },
  );
  return (
    <section className="tw-card">
      <Form
        form={form}
        layout="vertical"
        className="tw-flat-form"
        onValuesChange={clearEdited}
        onFinish={(values: { code?: string }) => submit({ code: values.code ?? '' })}
        footer={
          <Button block color="danger" type="submit" loading={submitting}>
            {t('security.disable')}
          </Button>
        }
      >
        <Form.Item
          name="code"
          label={t('auth.two_factor_code')}
          description={t('security.disable_help')}
        >
          <Input autoComplete="one-time-code" maxLength={11} placeholder="000000" clearable />
        </Form.Item>
      </Form>
    </section>
  );
}

/** /TwoFactor: switch authenticator-app codes on (scan, confirm, keep the recovery codes) or off. */
export function TwoFactorPage() {
  const { t } = useTranslation();
  const security = useSecurity();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [starting, setStarting] = useState(false);
  const data = security.data;

  const start = async () => {
    setStarting(true);
    try {
      setSetup(await setupTwoFactor());
    } finally {
      setStarting(false);
    }
  };

  let body;
  if (recoveryCodes) body = <RecoveryCodes codes={recoveryCodes} />;
  else if (!data)
    body = (
      <div className="tw-card">
        <Skeleton.Paragraph lineCount={5} animated />
      </div>
    );
  else if (data.twoFactorEnabled)
    body = (
      <>
        <section className="tw-card" style={{ lineHeight: 1.5 }}>
          <p style={{ display: 'flex', gap: 8, alignItems: 'center', margin: 0, fontWeight: 600 }}>
            <CheckShieldFill color="var(--adm-color-success)" aria-hidden />{' '}
            {t('security.enabled_title')}
          </p>
          <p className="tw-muted" style={{ margin: '6px 0 0' }}>
            {t('security.recovery_left', { count: data.recoveryCodesLeft })}
          </p>
        </section>
        <Disable />
      </>
    );
  else if (setup) body = <Enrol setup={setup} onEnabled={setRecoveryCodes} />;
  else
    body = (
      <section className="tw-card" style={{ lineHeight: 1.6 }}>
        <p style={{ marginTop: 0 }}>{t('security.intro')}</p>
        <p className="tw-muted" style={{ fontSize: 13 }}>
          {t('security.intro_lock')}
        </p>
        <Button block color="primary" size="large" loading={starting} onClick={start}>
          {t('security.start')}
        </Button>
      </section>
    );

  return (
    <Page title={t('routes.TwoFactor')} backTo="/Security">
      {body}
    </Page>
  );
}
