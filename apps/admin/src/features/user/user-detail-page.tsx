import type { AdminUserDetail } from '@tradewind/contract/user-admin';
import {
  Alert,
  Button,
  Descriptions,
  Empty,
  Result,
  Skeleton,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMe } from '@/api/get-me.ts';
import { PagedTable } from '@/ui/paged-table.tsx';
import { useUserDetail } from './api/get-user.ts';
import { useUserOrders } from './api/get-user-orders.ts';
import { useUserPostings } from './api/get-user-postings.ts';
import { timeOrDash } from './format.ts';
import { useT } from './strings.ts';
import { AdjustmentModal, FreezeModal } from './user-modals.tsx';

type T = ReturnType<typeof useT>;

/** One user, read-only, with the three things an admin may do: freeze, unfreeze, request an adjustment. */
export function UserDetailPage() {
  const t = useT();
  const uid = useParams().uid ?? '';
  const detail = useUserDetail(uid);
  // Reviewers read; freezing and adjustments are for admins (the server enforces the same).
  const isAdmin = useMe().data?.role === 'admin';
  const [tab, setTab] = useState('profile');
  const [modal, setModal] = useState<'freeze' | 'unfreeze' | 'adjust' | null>(null);

  if (detail.isLoading) return <Skeleton active />;
  if (detail.error || !detail.data) {
    return (
      <Result
        status="warning"
        title={detail.error?.message}
        extra={<Link to="/users">{t('back')}</Link>}
      />
    );
  }
  const { profile } = detail.data;
  const frozen = profile.frozenAt !== null;

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Link to="/users">← {t('back')}</Link>
      <Space align="center" wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Space align="center">
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('detailTitle', { uid: profile.uid })}
          </Typography.Title>
          <Typography.Text type="secondary">{profile.nickname}</Typography.Text>
          {frozen ? <Tag color="red">{t('frozen')}</Tag> : <Tag color="green">{t('active')}</Tag>}
          {profile.verified ? (
            <Tag color="blue">{t('verified')}</Tag>
          ) : (
            <Tag>{t('notVerified')}</Tag>
          )}
        </Space>
        {isAdmin && (
          <Space>
            {frozen ? (
              <Button data-testid="user-unfreeze" onClick={() => setModal('unfreeze')}>
                {t('unfreeze')}
              </Button>
            ) : (
              <Button danger data-testid="user-freeze" onClick={() => setModal('freeze')}>
                {t('freeze')}
              </Button>
            )}
            <Button type="primary" data-testid="user-adjust" onClick={() => setModal('adjust')}>
              {t('requestAdjustment')}
            </Button>
          </Space>
        )}
      </Space>
      {frozen && (
        <Alert
          type="error"
          showIcon
          data-testid="user-frozen"
          message={t('frozenSince', { time: timeOrDash(profile.frozenAt) })}
          description={t('frozenReason', { reason: profile.frozenReason ?? '' })}
        />
      )}
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'profile',
            label: t('tabProfile'),
            children: <ProfileTab t={t} detail={detail.data} />,
          },
          { key: 'kyc', label: t('tabKyc'), children: <KycTab t={t} detail={detail.data} /> },
          {
            key: 'balances',
            label: t('tabBalances'),
            children: <BalancesTab t={t} detail={detail.data} />,
          },
          {
            key: 'postings',
            label: t('tabPostings'),
            children: <PostingsTab t={t} uid={uid} enabled={tab === 'postings'} />,
          },
          {
            key: 'orders',
            label: t('tabOrders'),
            children: <OrdersTab t={t} uid={uid} enabled={tab === 'orders'} />,
          },
        ]}
      />
      {(modal === 'freeze' || modal === 'unfreeze') && (
        <FreezeModal uid={uid} frozen={modal === 'freeze'} onClose={() => setModal(null)} />
      )}
      {modal === 'adjust' && <AdjustmentModal uid={uid} onClose={() => setModal(null)} />}
    </Space>
  );
}

function ProfileTab({ t, detail }: { t: T; detail: AdminUserDetail }) {
  const p = detail.profile;
  const yesNo = (value: boolean) => (value ? t('yes') : t('no'));
  return (
    <Descriptions bordered size="small" column={2} data-testid="user-profile">
      <Descriptions.Item label={t('uid')}>{p.uid}</Descriptions.Item>
      <Descriptions.Item label={t('nickname')}>{p.nickname}</Descriptions.Item>
      <Descriptions.Item label={t('email')}>
        {p.email ? `${p.email} (${p.emailVerified ? t('verified') : t('notVerified')})` : t('none')}
      </Descriptions.Item>
      <Descriptions.Item label={t('phone')}>
        {p.phone ? `${p.phone} (${p.phoneVerified ? t('verified') : t('notVerified')})` : t('none')}
      </Descriptions.Item>
      <Descriptions.Item label={t('registered')}>{timeOrDash(p.createdAt)}</Descriptions.Item>
      <Descriptions.Item label={t('language')}>{p.language}</Descriptions.Item>
      <Descriptions.Item label={t('verified')}>{yesNo(p.verified)}</Descriptions.Item>
      <Descriptions.Item label={t('frozen')}>
        {p.frozenAt ? `${timeOrDash(p.frozenAt)} — ${p.frozenReason ?? ''}` : t('no')}
      </Descriptions.Item>
      <Descriptions.Item label={t('creditScore')}>{p.creditScore}</Descriptions.Item>
      <Descriptions.Item label={t('points')}>{p.points}</Descriptions.Item>
      <Descriptions.Item label={t('inviteCode')}>{p.inviteCode}</Descriptions.Item>
      <Descriptions.Item label={t('invitedBy')}>
        {p.inviterUid ? <Link to={`/users/${p.inviterUid}`}>{p.inviterUid}</Link> : t('none')}
      </Descriptions.Item>
      <Descriptions.Item label={t('sessions')}>{detail.activeSessions}</Descriptions.Item>
    </Descriptions>
  );
}

function KycTab({ t, detail }: { t: T; detail: AdminUserDetail }) {
  return (
    <Table
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={detail.kyc}
      locale={{ emptyText: <Empty description={t('kycEmpty')} /> }}
      columns={[
        {
          title: t('kycStatus'),
          dataIndex: 'status',
          render: (s: string) => (
            <Tag color={s === 'approved' ? 'green' : s === 'rejected' ? 'red' : 'gold'}>{s}</Tag>
          ),
        },
        { title: t('country'), dataIndex: 'country' },
        { title: t('name'), key: 'name', render: (_, r) => `${r.firstName} ${r.lastName}` },
        {
          title: t('document'),
          key: 'document',
          render: (_, r) => `${r.documentType} ${r.documentNumber}`,
        },
        { title: t('reason'), dataIndex: 'reason', render: (v: string | null) => v ?? t('none') },
        { title: t('submitted'), dataIndex: 'createdAt', render: (v: string) => timeOrDash(v) },
        {
          title: t('decided'),
          dataIndex: 'decidedAt',
          render: (v: string | null) => timeOrDash(v),
        },
      ]}
    />
  );
}

function BalancesTab({ t, detail }: { t: T; detail: AdminUserDetail }) {
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Table
        rowKey={(r) => `${r.wallet}:${r.asset}`}
        size="small"
        pagination={false}
        data-testid="user-balances"
        dataSource={detail.balances}
        locale={{ emptyText: <Empty description={t('balancesEmpty')} /> }}
        columns={[
          {
            title: t('wallet'),
            dataIndex: 'wallet',
            render: (w: 'spot' | 'futures') => t(`wallet_${w}`),
          },
          { title: t('asset'), dataIndex: 'asset' },
          { title: t('available'), dataIndex: 'available', align: 'right' },
          { title: t('locked'), dataIndex: 'locked', align: 'right' },
        ]}
      />
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('moneyFlows')}
      </Typography.Title>
      <Table
        rowKey={(r) => `${r.kind}:${r.status}:${r.asset}`}
        size="small"
        pagination={false}
        dataSource={detail.moneyFlows}
        locale={{ emptyText: <Empty description={t('flowsEmpty')} /> }}
        columns={[
          {
            title: t('kind'),
            dataIndex: 'kind',
            render: (k: 'deposit' | 'withdrawal' | 'card_deposit') => t(`kind_${k}`),
          },
          { title: t('status'), dataIndex: 'status' },
          { title: t('asset'), dataIndex: 'asset' },
          { title: t('count'), dataIndex: 'count', align: 'right' },
          { title: t('total'), dataIndex: 'amount', align: 'right' },
        ]}
      />
    </Space>
  );
}

function PostingsTab({ t, uid, enabled }: { t: T; uid: string; enabled: boolean }) {
  const postings = useUserPostings(uid, enabled);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <PagedTable
        pages={postings}
        moreLabel={t('loadMore')}
        rowKey="id"
        size="small"
        data-testid="user-postings"
        locale={{ emptyText: <Empty description={t('postingsEmpty')} /> }}
        columns={[
          { title: t('time'), dataIndex: 'time', render: (v: string) => timeOrDash(v) },
          { title: t('type'), dataIndex: 'type' },
          {
            title: t('wallet'),
            key: 'wallet',
            render: (_, p) =>
              `${t(`wallet_${p.wallet}`)}${p.bucket === 'locked' ? ` (${t('locked')})` : ''}`,
          },
          {
            title: t('amount'),
            key: 'amount',
            align: 'right',
            render: (_, p) => `${p.amount} ${p.asset}`,
          },
          { title: t('memo'), dataIndex: 'memo', render: (v: string | null) => v ?? '' },
          {
            title: t('reference'),
            dataIndex: 'reference',
            render: (v: string) => <Typography.Text type="secondary">{v}</Typography.Text>,
          },
        ]}
      />
    </Space>
  );
}

function OrdersTab({ t, uid, enabled }: { t: T; uid: string; enabled: boolean }) {
  const orders = useUserOrders(uid, enabled);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <PagedTable
        pages={orders}
        moreLabel={t('loadMore')}
        rowKey="id"
        size="small"
        locale={{ emptyText: <Empty description={t('ordersEmpty')} /> }}
        columns={[
          { title: t('time'), dataIndex: 'createdAt', render: (v: string) => timeOrDash(v) },
          { title: t('instrument'), dataIndex: 'instrument' },
          { title: t('direction'), dataIndex: 'direction' },
          {
            title: t('period'),
            dataIndex: 'periodSeconds',
            render: (n: number) => t('seconds', { n }),
          },
          { title: t('stake'), dataIndex: 'stake', align: 'right' },
          { title: t('fee'), dataIndex: 'fee', align: 'right' },
          { title: t('state'), dataIndex: 'state' },
          {
            title: t('outcome'),
            dataIndex: 'outcome',
            render: (v: string | null) => v ?? t('none'),
          },
          {
            title: t('payout'),
            dataIndex: 'payout',
            align: 'right',
            render: (v: string | null) => v ?? t('none'),
          },
        ]}
      />
    </Space>
  );
}
