import { useQueryClient } from '@tanstack/react-query';
import {
  type AntiPhishingRequest,
  type SecuritySession,
  type SignInEvent,
  antiPhishingRequestSchema,
} from '@tradewind/contract/security';
import { Button, Form, Input, List, Skeleton, Tag } from 'antd-mobile';
import {
  CheckShieldOutline,
  KeyOutline,
  LockOutline,
  MailOutline,
  PhonebookOutline,
} from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useFormSubmit } from '@/lib/forms.ts';
import { moneyPasswordPath } from '@/lib/money-password.ts';
import { confirm } from '@/ui/confirm.ts';
import { Page } from '@/ui/page.tsx';
import { showToast } from '@/ui/toast.ts';
import { WithdrawalLockBanner } from '@/ui/withdrawal-lock-banner.tsx';
import { setAntiPhishingCode } from './api/anti-phishing.ts';
import { securityQueryKey, useSecurity } from './api/get-security.ts';
import { revokeOtherSessions, revokeSession } from './api/sessions.ts';
import { deviceLabel } from './device-label.ts';

const HERE = '/Security';

function useNetworkText() {
  const { t } = useTranslation();
  return (network: SecuritySession['network']) =>
    network.kind === 'unknown'
      ? t('security.network.unknown')
      : t(`security.network.${network.kind}`, { prefix: network.prefix });
}

function SessionRow({
  session,
  onRevoke,
}: {
  session: SecuritySession;
  onRevoke: (session: SecuritySession) => void;
}) {
  const { t, i18n } = useTranslation();
  const networkText = useNetworkText();
  return (
    <List.Item
      data-testid="session-row"
      prefix={<PhonebookOutline fontSize={20} aria-hidden />}
      description={
        <>
          <div>{networkText(session.network)}</div>
          <div>
            {t('security.last_used', { time: formatDateTime(session.lastUsedAt, i18n.language) })}
          </div>
        </>
      }
      extra={
        session.current ? (
          <Tag color="primary" fill="outline">
            {t('security.this_device')}
          </Tag>
        ) : (
          <Button size="mini" color="danger" fill="outline" onClick={() => onRevoke(session)}>
            {t('security.sign_out')}
          </Button>
        )
      }
    >
      <span style={{ overflowWrap: 'anywhere' }}>{deviceLabel(session.device)}</span>
    </List.Item>
  );
}

const RESULT_COLOR: Record<SignInEvent['result'], 'success' | 'danger' | 'warning'> = {
  success: 'success',
  wrong_password: 'danger',
  wrong_code: 'danger',
  frozen: 'danger',
  awaiting_code: 'warning',
};

function SignInRow({ event }: { event: SignInEvent }) {
  const { t, i18n } = useTranslation();
  const networkText = useNetworkText();
  return (
    <List.Item
      data-testid="sign-in-row"
      description={
        <>
          <div>{networkText(event.network)}</div>
          <div>
            {formatDateTime(event.at, i18n.language)}
            {event.method !== 'password' && ` · ${t(`security.method.${event.method}`)}`}
          </div>
        </>
      }
      extra={
        <Tag color={RESULT_COLOR[event.result]} fill="outline">
          {t(`security.result.${event.result}`)}
        </Tag>
      }
    >
      <span style={{ fontSize: 15 }}>{deviceLabel(event.device)}</span>
    </List.Item>
  );
}

function AntiPhishingForm({ current, onDone }: { current: string | null; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const save = async (request: AntiPhishingRequest) => {
    await setAntiPhishingCode(request);
    await queryClient.invalidateQueries({ queryKey: securityQueryKey });
  };
  const { form, submitting, submit, clearEdited } = useFormSubmit(
    antiPhishingRequestSchema,
    save,
    () => {
      showToast({ content: t('security.saved'), duration: 2000 });
      onDone();
    },
  );
  return (
    <Form
      form={form}
      layout="vertical"
      className="tw-flat-form"
      initialValues={{ code: current ?? '' }}
      onValuesChange={clearEdited}
      onFinish={(values: { code?: string }) => submit({ code: values.code ?? '' })}
      footer={
        <div style={{ display: 'flex', gap: 8 }}>
          <Button block onClick={onDone}>
            {t('security.cancel')}
          </Button>
          <Button block color="primary" type="submit" loading={submitting}>
            {t('security.save')}
          </Button>
        </div>
      }
    >
      <Form.Item
        name="code"
        label={t('security.anti_phishing')}
        description={t('security.anti_phishing_placeholder')}
      >
        <Input maxLength={20} clearable autoComplete="off" autoFocus />
      </Form.Item>
    </Form>
  );
}

/** /Security: two-factor, anti-phishing code, passwords, signed-in devices and sign-in history. */
export function SecurityPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const security = useSecurity();
  const [editingCode, setEditingCode] = useState(false);
  const data = security.data;
  const refresh = () => queryClient.invalidateQueries({ queryKey: securityQueryKey });

  const revoke = async (session: SecuritySession) => {
    const confirmed = await confirm({
      content: t('security.sign_out_confirm', { device: deviceLabel(session.device) }),
      confirmText: t('security.sign_out'),
      cancelText: t('security.cancel'),
    });
    if (!confirmed) return;
    await revokeSession(session.id);
    showToast({ content: t('security.signed_out_one'), duration: 2000 });
    await refresh();
  };
  const revokeOthers = async () => {
    const confirmed = await confirm({
      content: t('security.sign_out_others_confirm'),
      confirmText: t('security.sign_out'),
      cancelText: t('security.cancel'),
    });
    if (!confirmed) return;
    const { revoked } = await revokeOtherSessions();
    showToast({ content: t('security.signed_out_others', { count: revoked }), duration: 2000 });
    await refresh();
  };

  const status = (on: boolean, onText: string, offText: string) => (
    <Tag color={on ? 'success' : 'default'} fill="outline">
      {on ? onText : offText}
    </Tag>
  );

  return (
    <Page title={t('routes.Security')} backTo="/My">
      {!data ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={8} animated />
        </div>
      ) : (
        <>
          <WithdrawalLockBanner lock={data.withdrawalLock} />
          <List
            header={t('security.protection')}
            style={{ borderRadius: 12, overflow: 'hidden', marginBottom: 12 }}
          >
            <List.Item
              prefix={<CheckShieldOutline fontSize={20} aria-hidden />}
              description={t('security.two_factor_help')}
              extra={status(data.twoFactorEnabled, t('security.on'), t('security.off'))}
              onClick={() => navigate('/TwoFactor')}
            >
              {t('security.two_factor')}
            </List.Item>
            <List.Item
              prefix={<MailOutline fontSize={20} aria-hidden />}
              description={
                data.antiPhishingCode
                  ? t('security.anti_phishing_shown')
                  : t('security.anti_phishing_help')
              }
              extra={
                data.antiPhishingCode ? (
                  <span
                    data-testid="anti-phishing-code"
                    style={{ fontFamily: 'ui-monospace, monospace' }}
                  >
                    {data.antiPhishingCode}
                  </span>
                ) : (
                  status(false, '', t('security.not_set'))
                )
              }
              onClick={() => setEditingCode(true)}
            >
              {t('security.anti_phishing')}
            </List.Item>
            <List.Item
              prefix={<LockOutline fontSize={20} aria-hidden />}
              onClick={() => navigate('/ChangePwd')}
            >
              {t('security.login_password')}
            </List.Item>
            <List.Item
              prefix={<KeyOutline fontSize={20} aria-hidden />}
              extra={status(data.withdrawPasswordSet, t('security.set'), t('security.not_set'))}
              onClick={() => navigate(moneyPasswordPath('withdraw', HERE))}
            >
              {t('security.withdraw_password')}
            </List.Item>
            <List.Item
              prefix={<KeyOutline fontSize={20} aria-hidden />}
              extra={status(data.tradePasswordSet, t('security.set'), t('security.not_set'))}
              onClick={() => navigate(moneyPasswordPath('trade', HERE))}
            >
              {t('security.trade_password')}
            </List.Item>
          </List>
          {editingCode && (
            <section className="tw-card">
              <AntiPhishingForm
                current={data.antiPhishingCode}
                onDone={() => setEditingCode(false)}
              />
            </section>
          )}
          <p className="tw-muted" style={{ fontSize: 12, margin: '0 4px 12px', lineHeight: 1.5 }}>
            {t('security.lock_note')}
          </p>

          <List
            header={t('security.devices')}
            style={{ borderRadius: 12, overflow: 'hidden', marginBottom: 8 }}
          >
            {data.sessions.map((session) => (
              <SessionRow key={session.id} session={session} onRevoke={revoke} />
            ))}
          </List>
          {data.sessions.length > 1 && (
            <Button
              block
              color="danger"
              fill="outline"
              onClick={revokeOthers}
              style={{ marginBottom: 8 }}
            >
              {t('security.sign_out_others')}
            </Button>
          )}
          <p className="tw-muted" style={{ fontSize: 12, margin: '0 4px 12px', lineHeight: 1.5 }}>
            {t('security.location_note')}
          </p>

          <List header={t('security.history')} style={{ borderRadius: 12, overflow: 'hidden' }}>
            {data.signIns.length === 0 ? (
              <List.Item>
                <span className="tw-muted">{t('security.history_empty')}</span>
              </List.Item>
            ) : (
              data.signIns.map((event) => <SignInRow key={event.id} event={event} />)
            )}
          </List>
        </>
      )}
    </Page>
  );
}
