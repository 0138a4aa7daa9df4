import type { UserSummary } from '@tradewind/contract/user-admin';
import { Empty, Input, Space, Tag, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { PagedTable } from '@/ui/paged-table.tsx';
import { useUserSearch } from './api/search-users.ts';
import { timeOrDash, userPath } from './format.ts';
import { useT } from './strings.ts';

/** Users → search by uid, email, phone or nickname; each row opens the read-only detail. */
export function UserSearchPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const search = useUserSearch(q);

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Input.Search
        data-testid="user-search"
        placeholder={t('searchPlaceholder')}
        defaultValue={q}
        allowClear
        enterButton
        maxLength={100}
        style={{ maxWidth: 520 }}
        onSearch={(value) => setParams(value.trim() ? { q: value.trim() } : {})}
      />
      {!q ? (
        <Typography.Text type="secondary">{t('searchHint')}</Typography.Text>
      ) : (
        <PagedTable<UserSummary>
          pages={search}
          moreLabel={t('loadMore')}
          rowKey="uid"
          size="middle"
          locale={{ emptyText: <Empty description={t('noResults', { q })} /> }}
          columns={[
            {
              title: t('uid'),
              dataIndex: 'uid',
              render: (uid: string) => <Link to={userPath(uid)}>{uid}</Link>,
            },
            { title: t('nickname'), dataIndex: 'nickname' },
            { title: t('email'), dataIndex: 'email', render: (v: string | null) => v ?? t('none') },
            { title: t('phone'), dataIndex: 'phone', render: (v: string | null) => v ?? t('none') },
            {
              title: t('status'),
              key: 'status',
              render: (_, user) => (
                <Space size={4}>
                  {user.frozen ? (
                    <Tag color="red">{t('frozen')}</Tag>
                  ) : (
                    <Tag color="green">{t('active')}</Tag>
                  )}
                  {user.verified ? (
                    <Tag color="blue">{t('verified')}</Tag>
                  ) : (
                    <Tag>{t('notVerified')}</Tag>
                  )}
                </Space>
              ),
            },
            {
              title: t('registered'),
              dataIndex: 'createdAt',
              render: (v: string) => timeOrDash(v),
            },
            {
              title: '',
              key: 'open',
              render: (_, user) => <Link to={userPath(user.uid)}>{t('open')}</Link>,
            },
          ]}
        />
      )}
    </Space>
  );
}
