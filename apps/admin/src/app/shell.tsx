import type { OperatorRole } from '@tradewind/contract/operator';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Layout, Menu, Result, Space, Spin, Tag, Typography } from 'antd';
import { Suspense } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useMe } from '@/api/get-me.ts';
import { signOut as endSession } from '@/features/auth/api/sign-out.ts';
import { defineStrings, useLanguage } from '@/lib/i18n.ts';
import { useRoleName } from '@/lib/role-names.ts';
import { getSessionToken } from '@/lib/session-token.ts';
import { LanguageSelect } from '@/ui/language-select.tsx';
import { type AdminPage, PAGE_GROUPS } from './admin-page.ts';
import { PAGES } from './pages.ts';

const useT = defineStrings({
  en: {
    title: 'Tradewind Console',
    signOut: 'Sign out',
    forbidden: 'Your role cannot open this page.',
    nothing: 'No pages are available to your role yet.',
    overview: 'Overview',
    queues: 'Review queues',
    users: 'Users',
    catalog: 'Catalog',
    content: 'Content',
    system: 'System',
    loadFailed: 'Could not load your session.',
  },
  'zh-CN': {
    title: 'Tradewind 管理后台',
    signOut: '退出登录',
    forbidden: '您的角色无权打开此页面。',
    nothing: '您的角色暂无可用页面。',
    overview: '概览',
    queues: '审核队列',
    users: '用户',
    catalog: '产品配置',
    content: '内容',
    system: '系统',
    loadFailed: '无法加载登录状态。',
  },
});

const visibleTo = (role: OperatorRole) => PAGES.filter((page) => page.roles.includes(role));
const href = (page: AdminPage) => `/${page.path}`;

/** The desktop frame: menu by group on the left, the operator and language at the top. */
export function Shell() {
  const t = useT();
  const language = useLanguage();
  const me = useMe();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const roleName = useRoleName();
  if (!getSessionToken()) return <Navigate to="/login" replace />;
  if (me.isPending) return <Spin fullscreen />;
  if (me.isError || !me.data)
    return (
      <Result
        status="error"
        title={t('loadFailed')}
        extra={<Link to="/login">{t('signOut')}</Link>}
      />
    );
  const pages = visibleTo(me.data.role).filter((page) => !page.hidden);
  const selected = pages.find(
    (page) => location.pathname === href(page) || location.pathname.startsWith(`${href(page)}/`),
  );
  const items = PAGE_GROUPS.map((group) => ({
    key: group,
    type: 'group' as const,
    label: t(group),
    children: pages
      .filter((page) => page.group === group)
      .map((page) => ({
        key: href(page),
        label: <Link to={href(page)}>{page.label[language]}</Link>,
      })),
  })).filter((group) => group.children.length > 0);

  async function signOut() {
    await endSession();
    queryClient.clear();
    navigate('/login', { replace: true });
  }

  return (
    <Layout style={{ minHeight: '100vh' }} data-testid="admin-shell">
      <Layout.Sider
        width={220}
        theme="light"
        breakpoint="lg"
        collapsedWidth={0}
        style={{ borderRight: '1px solid #f0f0f0' }}
      >
        <Typography.Title level={5} style={{ padding: '16px 20px', margin: 0 }}>
          {t('title')}
        </Typography.Title>
        <Menu
          mode="inline"
          items={items}
          selectedKeys={selected ? [href(selected)] : []}
          style={{ borderInlineEnd: 'none' }}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            background: '#fff',
            borderBottom: '1px solid #f0f0f0',
            display: 'flex',
            justifyContent: 'flex-end',
            alignItems: 'center',
            paddingInline: 24,
          }}
        >
          <Space size="middle">
            <span data-testid="admin-operator">
              {me.data.username} <Tag>{roleName(me.data.role)}</Tag>
            </span>
            <LanguageSelect style={{ width: 110 }} />
            <Button size="small" onClick={signOut} data-testid="admin-sign-out">
              {t('signOut')}
            </Button>
          </Space>
        </Layout.Header>
        <Layout.Content style={{ padding: 24 }}>
          <Suspense fallback={<Spin />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

/** Opens a page only for its roles (the menu hides the rest; the server refuses them anyway). */
export function RequireRole({ page }: { page: AdminPage }) {
  const t = useT();
  const language = useLanguage();
  const me = useMe();
  if (!me.data) return null;
  if (!page.roles.includes(me.data.role)) return <Result status="403" title={t('forbidden')} />;
  const Page = page.component;
  return (
    <>
      {!page.hidden && (
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {page.label[language]}
        </Typography.Title>
      )}
      <Page />
    </>
  );
}

/** /admin/ opens the first page the role has: the dashboard when there is one. */
export function HomeRedirect() {
  const t = useT();
  const me = useMe();
  if (!me.data) return null;
  const first = visibleTo(me.data.role).find((page) => !page.hidden && !page.path.includes(':'));
  return first ? (
    <Navigate to={href(first)} replace />
  ) : (
    <Result status="info" title={t('nothing')} />
  );
}
