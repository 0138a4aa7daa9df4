import type { UserSummary } from '@tradewind/contract/user-admin';
import { Alert, Button, Empty, Input, Space, Table, Tag, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useUserSearch } from './api/search-users.ts';
import { timeOrDash, userPath } from './format.ts';
import { useT } from './strings.ts';

/** Users → search by uid, email, phone or nickname; each row opens the read-only detail. */
export function UserSearchPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const search = useUserSearch(q);
  const items = search.data?.pages.flatMap((page) => page.items) ?? [];

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
      {search.error && <Alert type="error" showIcon message={search.error.message} />}
      {!q ? (
        <Typography.Text type="secondary">{t('searchHint')}</Typography.Text>
      ) : (
        <Table<UserSummary>
          rowKey="uid"
          size="middle"
          loading={search.isLoading}
          dataSource={items}
          pagination={false}
          locale={{ emptyText: <Empty description={t('noResults', { q })} /> }}
          columns={[
            { title: t('uid'), dataIndex: 'uid', render: (uid: string) => <Link to={userPath(uid)}>{uid}</Link> },
            { title: t('nickname'), dataIndex: 'nickname' },
            { title: t('email'), dataIndex: 'email', render: (v: string | null) => v ?? t('none') },
            { title: t('phone'), dataIndex: 'phone', render: (v: string | null) => v ?? t('none') },
            {
              title: t('status'),
              key: 'status',
              render: (_, user) => (
                <Space size={4}>
                  {user.frozen ? <Tag color="red">{t('frozen')}</Tag> : <Tag color="green">{t('active')}</Tag>}
                  {user.verified ? <Tag color="blue">{t('verified')}</Tag> : <Tag>{t('notVerified')}</Tag>}
                </Space>
              ),
            },
            { title: t('registered'), dataIndex: 'createdAt', render: (v: string) => timeOrDash(v) },
            { title: '', key: 'open', render: (_, user) => <Link to={userPath(user.uid)}>{t('open')}</Link> },
          ]}
        />
      )}
      {search.hasNextPage && (
        <Button onClick={() => void search.fetchNextPage()} loading={search.isFetchingNextPage}>
          {t('loadMore')}
        </Button>
      )}
    </Space>
  );
}
