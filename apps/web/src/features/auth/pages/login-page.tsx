import type { Channel } from '@tradewind/contract/auth';
import type { SessionResponse } from '@tradewind/contract/auth-basics';
import {
  type LoginChallenge,
  type LoginResponse,
  loginSecondStepRequestSchema,
} from '@tradewind/contract/security';
import { Button, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useNavigate } from '@/lib/router.tsx';
import { useSubmit } from '@/lib/submit.ts';
import { LightField, LightFormView, useLightForm } from '@/ui/light-form.tsx';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { saveSession } from '@/lib/storage.ts';
import { showToast } from '@/ui/toast.ts';
import { login, loginSecondStep } from '../api/auth-api.ts';
import { AccountInput } from '../components/account-input.tsx';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ChannelTabs } from '../components/channel-tabs.tsx';

/**
 * The sign-in rules check phone numbers with libphonenumber's metadata (about 30 KB gzipped,
 * more than the rest of the page): loaded once the user starts typing, so it is there by the
 * time they submit, and not part of the first screen.
 */
const loadLoginSchema = () =>
  import('@tradewind/contract/auth').then((auth) => auth.loginRequestSchema);

function useSignedIn() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (session: SessionResponse) => {
    saveSession(session.token, session.uid);
    showToast({ content: t('success.signed_in'), duration: 2000 });
    navigate('/', { replace: true });
  };
}

/** Step 2 when two-factor is on: the app's 6-digit code, or a recovery code. */
function SecondStep({ challenge, onCancel }: { challenge: LoginChallenge; onCancel: () => void }) {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const form = useLightForm(['code']);
  const { submitting, submit } = useSubmit(
    form,
    loginSecondStepRequestSchema,
    loginSecondStep,
    signedIn,
  );
  return (
    <AuthLayout title={t('auth.two_factor_title')} subtitle={t('auth.two_factor_subtitle')}>
      <LightFormView
        form={form}
        onFinish={() => submit({ challenge: challenge.challenge, code: form.value('code') })}
        footer={<SubmitButton label={t('auth.two_factor_verify')} loading={submitting} />}
      >
        <LightField
          form={form}
          name="code"
          label={t('auth.two_factor_code')}
          description={t('auth.two_factor_recovery_hint')}
        >
          <Input
            autoComplete="one-time-code"
            inputMode="text"
            maxLength={11}
            placeholder="000000"
            clearable
            autoFocus
          />
        </LightField>
      </LightFormView>
      <Button block fill="none" color="primary" onClick={onCancel}>
        {t('auth.two_factor_back')}
      </Button>
    </AuthLayout>
  );
}

export function LoginPage() {
  const { t } = useTranslation();
  const [channel, setChannel] = useState<Channel>('email');
  const [challenge, setChallenge] = useState<LoginChallenge | null>(null);
  const signedIn = useSignedIn();
  // A failed download is tried again on submit.
  const form = useLightForm(
    ['account', 'password'],
    () => void loadLoginSchema().catch(() => undefined),
  );
  const { submitting, submit } = useSubmit(
    form,
    loadLoginSchema,
    login,
    (result: LoginResponse) => {
      if ('challenge' in result) setChallenge(result);
      else signedIn(result);
    },
  );

  if (challenge) return <SecondStep challenge={challenge} onCancel={() => setChallenge(null)} />;

  return (
    <AuthLayout title={t('auth.login_title')} subtitle={t('auth.login_subtitle')}>
      <ChannelTabs value={channel} onChange={setChannel} form={form} />
      <LightFormView
        form={form}
        onFinish={() =>
          submit({ channel, account: form.value('account'), password: form.value('password') })
        }
        footer={<SubmitButton label={t('auth.login')} loading={submitting} />}
      >
        <LightField form={form} name="account" label={t(`auth.channel_${channel}`)}>
          <AccountInput channel={channel} />
        </LightField>
        <LightField form={form} name="password" label={t('auth.password')}>
          <Input
            type="password"
            autoComplete="current-password"
            placeholder={t('auth.password_placeholder')}
            clearable
          />
        </LightField>
      </LightFormView>
      <div className="tw-links">
        <Link to="/ForgetPwd">{t('auth.forgot_password')}</Link>
        <Link to="/Register">{t('auth.create_account')}</Link>
      </div>
    </AuthLayout>
  );
}
