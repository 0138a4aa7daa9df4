import { useQueryClient } from '@tanstack/react-query';
import { type Channel, normalizeAccount } from '@tradewind/contract/auth';
import { changeContactRequestSchema } from '@tradewind/contract/contact';
import { Form, Input, Skeleton, Tag } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { ApiError } from '@tradewind/http-client/api-error';
import { clearErrorsOnChange, showFieldErrors, useFormSubmit } from '@/lib/forms.ts';
import { useBackTarget } from '@/lib/navigation.ts';
import { CodeCountdownButton } from '@/ui/code-countdown-button.tsx';
import { Page } from '@/ui/page.tsx';
import { PhoneInput } from '@/ui/phone-input.tsx';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { showToast } from '@/ui/toast.ts';
import { changeContact, sendContactCode } from './api/change-contact.ts';
import { profileQueryKey, useProfile } from './api/get-profile.ts';
import { maskContact } from './profile-display.ts';

interface Values {
  account?: string;
  code?: string;
  password?: string;
}

const TITLES: Record<Channel, string> = { email: 'routes.SetEmail', phone: 'routes.SetPhone' };

export const SetEmailPage = () => <SetContactScreen channel="email" />;
export const SetPhonePage = () => <SetContactScreen channel="phone" />;

/**
 * /SetEmail and /SetPhone: bind an address, or change it. A code goes to the new address;
 * the change needs that code and the current login password. The old address is told.
 */
function SetContactScreen({ channel }: { channel: Channel }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const back = useBackTarget('/SetInfo');
  const profile = useProfile();
  const current = profile.data
    ? channel === 'email'
      ? profile.data.email
      : profile.data.phone
    : undefined;
  const verified = profile.data
    ? channel === 'email'
      ? profile.data.emailVerified
      : profile.data.phoneVerified
    : false;

  const { form, submitting, submit } = useFormSubmit(
    changeContactRequestSchema,
    changeContact,
    (updated) => {
      queryClient.setQueryData(profileQueryKey, updated);
      showToast({ content: t(current ? 'success.change' : 'profile.bound'), duration: 2000 });
      navigate(back, { replace: true });
    },
  );

  const sendCode = async () => {
    const account = (form.getFieldValue('account') as string | undefined) ?? '';
    if (normalizeAccount(channel, account) === undefined) {
      form.setFields([
        {
          name: 'account',
          errors: [
            t(channel === 'email' ? 'validation.email_invalid' : 'validation.phone_invalid'),
          ],
        },
      ]);
      return null;
    }
    try {
      const sent = await sendContactCode({ channel, account });
      return { resendAfterS: sent.resendAfterS, message: t('success.code_sent') };
    } catch (error) {
      // A form error (address taken, or already yours) belongs under the address field.
      if (error instanceof ApiError && error.isValidation && error.errors)
        showFieldErrors(form, error.errors);
      throw error;
    }
  };

  const onFinish = (values: Values) =>
    submit({
      channel,
      account: values.account ?? '',
      code: values.code ?? '',
      password: values.password ?? '',
    });

  return (
    <Page title={t(TITLES[channel])} backTo={back}>
      <section className="tw-card" aria-label={t('profile.current')}>
        {profile.data ? (
          <div
            style={{
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              gap: 8,
            }}
          >
            <div style={{ minWidth: 0 }}>
              <div className="tw-muted" style={{ fontSize: 13 }}>
                {t(`profile.current_${channel}`)}
              </div>
              <strong style={{ overflowWrap: 'anywhere' }} data-testid="current-contact">
                {current ? maskContact(channel, current) : t('profile.not_bound')}
              </strong>
            </div>
            {current && (
              <Tag color={verified ? 'success' : 'warning'} fill="outline">
                {verified ? t('profile.verified_address') : t('profile.unverified_address')}
              </Tag>
            )}
          </div>
        ) : (
          <Skeleton.Paragraph lineCount={2} animated />
        )}
        <p className="tw-muted" style={{ margin: '10px 0 0', fontSize: 13, lineHeight: 1.5 }}>
          {t(current ? `profile.change_note_${channel}` : `profile.bind_note_${channel}`)}
        </p>
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
              label={current ? t('profile.change') : t('profile.bind')}
              loading={submitting}
            />
          }
        >
          <Form.Item name="account" label={t(`profile.new_${channel}`)}>
            {channel === 'email' ? (
              <Input
                type="email"
                inputMode="email"
                autoComplete="email"
                placeholder={t('profile.email_placeholder')}
                clearable
              />
            ) : (
              <PhoneInput
                placeholder={t('profile.phone_placeholder')}
                codeLabel={t('profile.country_code')}
              />
            )}
          </Form.Item>
          <Form.Item
            name="code"
            label={t('profile.code')}
            extra={<CodeCountdownButton send={sendCode} />}
          >
            <Input
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder={t('profile.code_placeholder')}
            />
          </Form.Item>
          <Form.Item name="password" label={t('profile.password')}>
            <Input
              type="password"
              autoComplete="current-password"
              placeholder={t('profile.password_placeholder')}
              clearable
            />
          </Form.Item>
        </Form>
      </section>
    </Page>
  );
}
