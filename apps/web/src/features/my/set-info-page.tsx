import { useQueryClient } from '@tanstack/react-query';
import { DEFAULT_UPLOAD_MAX_BYTES } from '@tradewind/contract/files';
import {
  NICKNAME_MAX_LENGTH,
  NICKNAME_MIN_LENGTH,
  type UserProfile,
  nicknameSchema,
} from '@tradewind/contract/user';
import { Avatar, Form, Input, List, Skeleton, SpinLoading } from 'antd-mobile';
import { CameraOutline } from 'antd-mobile-icons';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { z } from 'zod/mini';
import { ApiError } from '@tradewind/http-client/api-error';
import { uploadImage } from '@/api/upload.ts';
import { clearErrorsOnChange, useFormSubmit } from '@/lib/forms.ts';
import { shrinkImage } from '@/lib/shrink-image.ts';
import { Page } from '@/ui/page.tsx';
import { SubmitButton } from '@/ui/submit-button.tsx';
import { showToast } from '@/ui/toast.ts';
import { avatarUrl, maskContact } from './profile-display.ts';
import { profileQueryKey, useProfile } from './api/get-profile.ts';
import { updateProfile } from './api/update-profile.ts';

const nicknameFormSchema = z.object({ nickname: nicknameSchema });

/**
 * /SetInfo: the avatar (picked, uploaded, cropped square on the server, saved at once) and
 * the nickname (saved with the button), plus the way to the email and phone screens.
 */
export function SetInfoPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const user = profile.data;
  return (
    <Page title={t('routes.SetInfo')} backTo="/My">
      <section
        className="tw-card"
        style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 8 }}
      >
        {user ? (
          <AvatarPicker user={user} />
        ) : (
          <Skeleton animated style={{ width: 88, height: 88, borderRadius: '50%' }} />
        )}
        <span className="tw-muted" style={{ fontSize: 13 }}>
          {t('profile.avatar_hint')}
        </span>
      </section>
      <section className="tw-card">
        {user ? (
          <NicknameForm key={user.nickname} user={user} />
        ) : (
          <Skeleton.Paragraph lineCount={2} animated />
        )}
      </section>
      {user && <ContactLinks user={user} />}
    </Page>
  );
}

function AvatarPicker({ user }: { user: UserProfile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setPreview(URL.createObjectURL(file));
    setBusy(true);
    try {
      let fileId: string;
      try {
        fileId = (
          await uploadImage(await shrinkImage(file, DEFAULT_UPLOAD_MAX_BYTES), 'avatar', {
            filename: file.name,
          })
        ).id;
      } catch (failure) {
        // Uploads report their own failures (the shared client is not involved).
        showToast({
          content:
            failure instanceof ApiError && failure.message ? failure.message : t('upload.failed'),
          duration: 2000,
        });
        return;
      }
      try {
        queryClient.setQueryData(profileQueryKey, await updateProfile({ avatarFileId: fileId }));
        showToast({ content: t('profile.avatar_saved'), duration: 2000 });
      } catch (failure) {
        // A form error is not toasted by the client; anything else already was.
        if (failure instanceof ApiError && failure.isValidation)
          showToast({ content: failure.message || t('upload.failed'), duration: 2000 });
      }
    } finally {
      setPreview(undefined);
      setBusy(false);
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        onChange={onPick}
        aria-label={t('profile.change_avatar')}
        hidden
        data-testid="avatar-input"
      />
      <button
        type="button"
        className="tw-avatar-picker"
        onClick={() => input.current?.click()}
        disabled={busy}
        aria-label={t('profile.change_avatar')}
      >
        <Avatar
          src={preview ?? avatarUrl(user.avatar)}
          style={{ '--size': '88px', '--border-radius': '50%' }}
          data-testid="setinfo-avatar"
        />
        <span className="tw-avatar-picker-badge" aria-hidden>
          {busy ? (
            <SpinLoading style={{ '--size': '16px', '--color': '#fff' }} />
          ) : (
            <CameraOutline />
          )}
        </span>
      </button>
    </>
  );
}

function NicknameForm({ user }: { user: UserProfile }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { form, submitting, submit } = useFormSubmit(
    nicknameFormSchema,
    (data) => updateProfile({ nickname: data.nickname }),
    (updated) => {
      queryClient.setQueryData(profileQueryKey, updated);
      showToast({ content: t('success.change'), duration: 2000 });
      navigate('/My', { replace: true });
    },
  );
  return (
    <Form
      form={form}
      layout="vertical"
      className="tw-flat-form"
      initialValues={{ nickname: user.nickname }}
      onValuesChange={clearErrorsOnChange(form)}
      onFinish={(values: { nickname?: string }) => submit({ nickname: values.nickname ?? '' })}
      footer={<SubmitButton label={t('profile.save')} loading={submitting} />}
    >
      <Form.Item
        name="nickname"
        label={t('profile.nickname')}
        description={t('profile.nickname_rule', {
          min: NICKNAME_MIN_LENGTH,
          max: NICKNAME_MAX_LENGTH,
        })}
      >
        <Input
          placeholder={t('profile.nickname_placeholder')}
          maxLength={NICKNAME_MAX_LENGTH * 2}
          clearable
          autoComplete="nickname"
        />
      </Form.Item>
    </Form>
  );
}

function ContactLinks({ user }: { user: UserProfile }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <List
      style={{
        borderRadius: 12,
        overflow: 'hidden',
        '--border-top': 'none',
        '--border-bottom': 'none',
      }}
    >
      <List.Item extra={<span data-testid="setinfo-uid">{user.uid}</span>}>UID</List.Item>
      <List.Item
        onClick={() => navigate('/SetEmail')}
        extra={user.email ? maskContact('email', user.email) : t('profile.not_bound')}
      >
        {t('profile.email')}
      </List.Item>
      <List.Item
        onClick={() => navigate('/SetPhone')}
        extra={user.phone ? maskContact('phone', user.phone) : t('profile.not_bound')}
      >
        {t('profile.phone')}
      </List.Item>
    </List>
  );
}
