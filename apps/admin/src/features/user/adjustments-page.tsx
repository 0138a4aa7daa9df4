import {
  ADJUSTMENT_STATUSES,
  type Adjustment,
  type AdjustmentStatus,
} from '@tradewind/contract/user-admin';
import { Empty, Segmented, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useMe } from '@/api/get-me.ts';
import { Amount } from '@/ui/amount.tsx';
import { PagedTable } from '@/ui/paged-table.tsx';
import { DECISION_STATUS_COLOR } from '@/ui/decided-status.tsx';
import { DecisionButtons } from '@/ui/decision-buttons.tsx';
import { useDecideAdjustment } from './api/decide-adjustment.ts';
import { useAdjustments } from './api/get-adjustments.ts';
import { timeOrDash, userPath } from './format.ts';
import { useT } from './strings.ts';
import { adjustmentMoney } from './user-modals.tsx';

/** Adjustment requests; a second admin approves (one `system` ledger entry) or rejects with a reason. */
export function AdjustmentsPage() {
  const t = useT();
  const me = useMe();
  const [status, setStatus] = useState<AdjustmentStatus>('pending');
  const list = useAdjustments(status);
  const decide = useDecideAdjustment();

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('adjustmentsHint')}</Typography.Text>
      <Segmented<AdjustmentStatus>
        value={status}
        onChange={setStatus}
        options={ADJUSTMENT_STATUSES.map((value) => ({ value, label: t(`status_${value}`) }))}
      />
      <PagedTable<Adjustment>
        pages={list}
        moreLabel={t('loadMore')}
        rowKey="id"
        size="middle"
        data-testid="adjustments"
        locale={{ emptyText: <Empty description={t('adjustmentsEmpty')} /> }}
        columns={[
          { title: '#', dataIndex: 'id', width: 56 },
          {
            title: t('uid'),
            dataIndex: 'uid',
            width: 110,
            render: (uid: string) => <Link to={userPath(uid)}>{uid}</Link>,
          },
          {
            title: t('wallet'),
            dataIndex: 'wallet',
            width: 90,
            render: (w: 'spot' | 'futures') => t(`wallet_${w}`),
          },
          {
            title: t('amount'),
            key: 'amount',
            align: 'right',
            width: 150,
            render: (_, a) => (
              <Typography.Text type={a.amount.startsWith('-') ? 'danger' : 'success'}>
                <Amount
                  value={a.amount.startsWith('-') ? a.amount : `+${a.amount}`}
                  asset={a.asset}
                />
              </Typography.Text>
            ),
          },
          { title: t('reasonUserSees'), dataIndex: 'reason' },
          {
            title: t('requestedBy'),
            key: 'requested',
            width: 220,
            render: (_, a) => `${a.requestedBy} · ${timeOrDash(a.requestedAt)}`,
          },
          ...(status === 'pending'
            ? [
                {
                  title: t('actions'),
                  key: 'actions',
                  width: 190,
                  render: (_: unknown, a: Adjustment) =>
                    a.requestedBy === me.data?.username ? (
                      <Tag>{t('yourRequest')}</Tag>
                    ) : (
                      <DecisionButtons
                        confirm={{
                          ...adjustmentMoney(a, t),
                          title: t('approveConfirmTitle', { id: a.id }),
                          effect: t('approveConfirmEffect'),
                          okText: t('approveConfirmOk'),
                        }}
                        onDecide={(decision, reason) =>
                          decide.mutateAsync({ id: a.id, decision, ...(reason ? { reason } : {}) })
                        }
                      />
                    ),
                },
              ]
            : [
                {
                  title: t('status'),
                  dataIndex: 'status',
                  render: (s: AdjustmentStatus) => (
                    <Tag color={DECISION_STATUS_COLOR[s]}>{t(`status_${s}`)}</Tag>
                  ),
                },
                {
                  title: t('decidedBy'),
                  key: 'decided',
                  render: (_: unknown, a: Adjustment) =>
                    a.decidedBy ? `${a.decidedBy} · ${timeOrDash(a.decidedAt)}` : '—',
                },
                {
                  title: t('decisionReason'),
                  dataIndex: 'decisionReason',
                  render: (v: string | null) => v ?? '—',
                },
              ]),
        ]}
      />
    </Space>
  );
}
