import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Badge, Button, List, Skeleton, Tag } from 'antd-mobile';
import {
  BankcardOutline,
  BellOutline,
  CheckShieldOutline,
  EyeOutline,
  FileOutline,
  GiftOutline,
  GlobalOutline,
  HistogramOutline,
  InformationCircleOutline,
  RightOutline,
  KeyOutline,
  LockOutline,
  PayCircleOutline,
  SetOutline,
  UnorderedListOutline,
  UserAddOutline,
  UserContactOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { LANGUAGE_NAMES, normalizeLanguage } from '@tradewind/contract/languages';
import { useUnreadCount } from '@/api/messages.ts';
import { clearSession } from '@/lib/storage.ts';
import { confirm } from '@/ui/confirm.ts';
import { showToast } from '@/ui/toast.ts';
import { useProfile } from './api/get-profile.ts';
import { logout } from './api/logout.ts';
import { avatarUrl } from './profile-display.ts';

interface MenuEntry {
  path: string;
  key: string;
  icon: ReactNode;
}

/** The user menu, in groups: money, account and security, rewards and messages, the app. */
const MENU: { title: string; items: MenuEntry[] }[] = [
  {
    title: 'my.group_assets',
    items: [
      { path: '/Wallet', key: 'Wallet', icon: <PayCircleOutline /> },
      { path: '/WalletDetail', key: 'WalletDetail', icon: <UnorderedListOutline /> },
      { path: '/Card', key: 'Card', icon: <BankcardOutline /> },
    ],
  },
  {
    title: 'my.group_account',
    items: [
      { path: '/RealName', key: 'RealName', icon: <UserContactOutline /> },
      { path: '/Security', key: 'Security', icon: <SetOutline /> },
      { path: '/ChangePwd', key: 'ChangePwd', icon: <LockOutline /> },
      { path: '/WithdrawPassword', key: 'WithdrawPassword', icon: <KeyOutline /> },
      { path: '/TradePassword', key: 'TradePassword', icon: <CheckShieldOutline /> },
    ],
  },
  {
    title: 'my.group_rewards',
    items: [
      { path: '/Rewards', key: 'Rewards', icon: <GiftOutline /> },
      { path: '/Invite', key: 'Invite', icon: <UserAddOutline /> },
      { path: '/Msg', key: 'Msg', icon: <BellOutline /> },
      { path: '/Vote', key: 'Vote', icon: <HistogramOutline /> },
    ],
  },
  {
    title: 'my.group_app',
    items: [
      { path: '/Language', key: 'Language', icon: <GlobalOutline /> },
      { path: '/Theme', key: 'Theme', icon: <EyeOutline /> },
      { path: '/Agree', key: 'Agree', icon: <FileOutline /> },
      { path: '/About', key: 'About', icon: <InformationCircleOutline /> },
    ],
  },
];

export function MyPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useProfile();
  const unread = useUnreadCount().data?.unread ?? 0;
  const user = profile.data;

  const copyUid = async () => {
    if (!user) return;
    await navigator.clipboard?.writeText(user.uid).catch(() => undefined);
    showToast({ content: t('success.copied'), duration: 2000 });
  };

  const signOut = async () => {
    const confirmed = await confirm({
      content: t('my.sign_out_confirm'),
      confirmText: t('my.sign_out'),
      cancelText: t('common.cancel'),
    });
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
            <button
              type="button"
              className="tw-link"
              onClick={() => navigate('/SetInfo')}
              aria-label={t('routes.SetInfo')}
              style={{ padding: 0, borderRadius: '50%' }}
            >
              <Avatar
                src={avatarUrl(user.avatar)}
                style={{ '--size': '60px', '--border-radius': '50%' }}
                data-testid="my-avatar"
              />
            </button>
            <div style={{ minWidth: 0, flex: 1 }}>
              <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
                <strong
                  style={{ fontSize: 18, overflowWrap: 'anywhere' }}
                  data-testid="my-nickname"
                >
                  {/* A masked email as nickname breaks before its "@" rather than before its last letter. */}
                  {user.nickname
                    .split('@')
                    .map((part, i) => (i === 0 ? part : [<wbr key={i} />, `@${part}`]))}
                </strong>
                <Tag
                  color={user.verified ? 'success' : 'default'}
                  fill="outline"
                  data-testid="my-verified"
                >
                  {user.verified ? t('my.verified') : t('my.not_verified')}
                </Tag>
              </div>
              <button
                type="button"
                className="tw-link tw-muted"
                onClick={copyUid}
                aria-label={t('my.copy_uid')}
                style={{
                  marginTop: 4,
                  display: 'flex',
                  alignItems: 'center',
                  gap: 4,
                  color: 'var(--tw-muted)',
                }}
              >
                <span data-testid="my-uid">UID {user.uid}</span> <FileOutline />
              </button>
            </div>
            <button
              type="button"
              className="tw-link"
              onClick={() => navigate('/SetInfo')}
              aria-label={t('routes.SetInfo')}
              style={{
                display: 'flex',
                alignItems: 'center',
                gap: 2,
                color: 'var(--tw-muted)',
                fontSize: 13,
                whiteSpace: 'nowrap',
              }}
            >
              {t('my.edit')} <RightOutline />
            </button>
          </div>
        ) : (
          <Skeleton.Paragraph lineCount={2} animated />
        )}
        {user && (
          <div
            style={{
              display: 'flex',
              marginTop: 14,
              textAlign: 'center',
              borderTop: '1px solid var(--tw-border)',
              paddingTop: 8,
            }}
          >
            <button
              type="button"
              className="tw-my-stat"
              onClick={() => navigate('/Credit')}
              aria-label={`${t('my.credit_score')} ${user.creditScore}`}
            >
              <div style={{ fontSize: 20, fontWeight: 600 }} data-testid="my-credit">
                {user.creditScore}
              </div>
              <div
                className="tw-muted"
                style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2 }}
              >
                {t('my.credit_score')} <RightOutline fontSize={11} />
              </div>
            </button>
            <div
              style={{ width: 1, background: 'var(--tw-border)', margin: '6px 0' }}
              aria-hidden
            />
            <button
              type="button"
              className="tw-my-stat"
              onClick={() => navigate('/PointsHistory')}
              aria-label={`${t('routes.PointsHistory')} ${user.points}`}
            >
              <div style={{ fontSize: 20, fontWeight: 600 }} data-testid="my-points">
                {user.points}
              </div>
              <div
                className="tw-muted"
                style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2 }}
              >
                {t('my.points')} <RightOutline fontSize={11} />
              </div>
            </button>
          </div>
        )}
      </section>
      {MENU.map((group) => (
        <List
          key={group.title}
          header={t(group.title)}
          mode="card"
          style={{ margin: '0 0 12px', '--header-font-size': '13px' }}
        >
          {group.items.map((item) => (
            <List.Item
              key={item.path}
              prefix={item.icon}
              onClick={() => navigate(item.path)}
              extra={
                item.key === 'Language' ? (
                  LANGUAGE_NAMES[normalizeLanguage(i18n.language)]
                ) : item.path === '/Msg' && unread > 0 ? (
                  <Badge
                    content={unread > 99 ? '99+' : String(unread)}
                    aria-label={t('messages.badge_label', { count: unread })}
                    data-testid="my-msg-badge"
                  />
                ) : undefined
              }
            >
              {t(`routes.${item.key}`)}
            </List.Item>
          ))}
        </List>
      ))}
      <Button block size="large" style={{ marginTop: 4 }} onClick={signOut}>
        {t('my.sign_out')}
      </Button>
    </div>
  );
}
