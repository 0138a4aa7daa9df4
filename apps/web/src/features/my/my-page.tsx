import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Badge, Button, Dialog, List, Skeleton, Tag, Toast } from 'antd-mobile';
import {
  BankcardOutline,
  BellOutline,
  CheckShieldOutline,
  FileOutline,
  GlobalOutline,
  HistogramOutline,
  InformationCircleOutline,
  KeyOutline,
  LockOutline,
  PayCircleOutline,
  SetOutline,
  UnorderedListOutline,
  UserAddOutline,
  UserContactOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUnreadCount } from '@/api/messages.ts';
import { clearSession, STORAGE_KEYS } from '@/lib/storage.ts';
import { useProfile } from './api/get-profile.ts';
import { logout } from './api/logout.ts';

const MENU: { path: string; key: string; icon: ReactNode }[] = [
  { path: '/Wallet', key: 'Wallet', icon: <PayCircleOutline /> },
  { path: '/WalletDetail', key: 'WalletDetail', icon: <UnorderedListOutline /> },
  { path: '/RealName', key: 'RealName', icon: <UserContactOutline /> },
  { path: '/Card', key: 'Card', icon: <BankcardOutline /> },
  { path: '/Invite', key: 'Invite', icon: <UserAddOutline /> },
  { path: '/Msg', key: 'Msg', icon: <BellOutline /> },
  { path: '/Vote', key: 'Vote', icon: <HistogramOutline /> },
  { path: '/Security', key: 'Security', icon: <SetOutline /> },
  { path: '/ChangePwd', key: 'ChangePwd', icon: <LockOutline /> },
  { path: '/WithdrawPassword', key: 'WithdrawPassword', icon: <KeyOutline /> },
  { path: '/TradePassword', key: 'TradePassword', icon: <CheckShieldOutline /> },
  { path: '/Language', key: 'Language', icon: <GlobalOutline /> },
  { path: '/Agree', key: 'Agree', icon: <FileOutline /> },
  { path: '/About', key: 'About', icon: <InformationCircleOutline /> },
];

export function MyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useProfile();
  const unread = useUnreadCount().data?.unread ?? 0;
  const user = profile.data;
  const imgBaseUrl = localStorage.getItem(STORAGE_KEYS.imgBaseUrl) ?? '';

  const copyUid = async () => {
    if (!user) return;
    await navigator.clipboard?.writeText(user.uid).catch(() => undefined);
    Toast.show({ content: t('success.copied'), duration: 2000 });
  };

  const signOut = async () => {
    const confirmed = await Dialog.confirm({ content: t('my.sign_out_confirm'), confirmText: t('my.sign_out'), cancelText: t('common.cancel') });
    if (!confirmed) return;
    await logout().catch(() => undefined);
    clearSession();
    queryClient.clear();
    navigate('/Login', { replace: true });
  };

  return (
    <div style={{ padding: '16px 16px 24px' }}>
      <section className="tw-card" aria-label={t('my.profile')}>
        {user ? (
          <div style={{ display: 'flex', gap: 14, alignItems: 'center' }}>
            <Avatar src={user.avatar ? `${imgBaseUrl}/${user.avatar}` : ''} style={{ '--size': '56px', '--border-radius': '50%' }} aria-hidden />
            <div style={{ minWidth: 0, flex: 1 }}>
              <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
                <strong style={{ fontSize: 18, overflowWrap: 'anywhere' }}>{user.nickname}</strong>
                <Tag color={user.verified ? 'success' : 'default'} fill="outline">
                  {user.verified ? t('my.verified') : t('my.not_verified')}
                </Tag>
              </div>
              <button type="button" className="tw-link tw-muted" onClick={copyUid} aria-label={t('my.copy_uid')} style={{ marginTop: 4, display: 'flex', alignItems: 'center', gap: 4, color: 'var(--tw-muted)' }}>
                UID {user.uid} <FileOutline />
              </button>
            </div>
          </div>
        ) : (
          <Skeleton.Paragraph lineCount={2} animated />
        )}
        {user && (
          <div style={{ display: 'flex', marginTop: 16, textAlign: 'center' }}>
            <div style={{ flex: 1 }}>
              <div style={{ fontSize: 20, fontWeight: 600 }}>{user.creditScore}</div>
              <div className="tw-muted">{t('my.credit_score')}</div>
            </div>
            <div style={{ flex: 1 }}>
              <div style={{ fontSize: 20, fontWeight: 600 }} data-testid="my-points">
                {user.points}
              </div>
              <div className="tw-muted">{t('my.points')}</div>
            </div>
          </div>
        )}
      </section>
      <List style={{ borderRadius: 12, overflow: 'hidden', '--border-top': 'none', '--border-bottom': 'none' }}>
        {MENU.map((item) => (
          <List.Item
            key={item.path}
            prefix={item.icon}
            onClick={() => navigate(item.path)}
            extra={item.path === '/Msg' && unread > 0 ? <Badge content={unread > 99 ? '99+' : String(unread)} aria-label={t('messages.badge_label', { count: unread })} data-testid="my-msg-badge" /> : undefined}
          >
            {t(`routes.${item.key}`)}
          </List.Item>
        ))}
      </List>
      <Button block size="large" style={{ marginTop: 16 }} onClick={signOut}>
        {t('my.sign_out')}
      </Button>
    </div>
  );
}
