import type { miningQueueItemSchema } from '@tradewind/contract/mining';
import { Descriptions, Space, Typography } from 'antd';
import type { z } from 'zod';
import { formatTime } from '@/lib/format.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import { DecisionButtons } from '@/ui/decision-buttons.tsx';
import { QueueUser } from '@/ui/queue-user.tsx';
import { ReviewQueue } from '@/ui/review-queue.tsx';
import { useDecideRental } from './api/decide-rental.ts';
import { useRentalQueue } from './api/get-rental-queue.ts';

type Item = z.infer<typeof miningQueueItemSchema>;

const useT = defineStrings({
  en: {
    intro: 'Rentals under review, oldest first. The user has paid; approving starts the rental now, rejecting refunds the payment at once.',
    rented: 'Rented',
    user: 'User',
    product: 'Miner',
    quantity: 'Units',
    unitPrice: 'Unit price',
    amount: 'Paid',
    period: 'Period',
    days: '{n} days',
    dailyYield: 'Daily yield',
    totalProfit: 'Yield over the period',
    drawer: 'Rental #{id}',
  },
  'zh-CN': {
    intro: '审核中的租赁，最早的在前。用户已付款；通过后租赁立即开始，拒绝则立即退款。',
    rented: '租赁时间',
    user: '用户',
    product: '矿机',
    quantity: '数量',
    unitPrice: '单价',
    amount: '已付金额',
    period: '周期',
    days: '{n} 天',
    dailyYield: '每日收益',
    totalProfit: '周期总收益',
    drawer: '租赁 #{id}',
  },
});

/** Rentals under review: what was rented and paid, then approve or reject. */
export function MiningQueuePage() {
  const t = useT();
  const queue = useRentalQueue();
  const decide = useDecideRental();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('intro')}</Typography.Text>
      <ReviewQueue<Item>
        testId="mining"
        queue={queue}
        columns={[
          { title: '#', dataIndex: 'id', width: 80 },
          { title: t('rented'), dataIndex: 'createdAt', render: (value: string) => formatTime(value) },
          { title: t('user'), key: 'user', render: (_, item) => <QueueUser user={item.user} /> },
          { title: t('product'), dataIndex: 'productName' },
          { title: t('quantity'), dataIndex: 'quantity', align: 'right' },
          { title: t('amount'), key: 'amount', align: 'right', render: (_, item) => <Amount value={item.amount} asset={item.asset} /> },
          { title: t('period'), dataIndex: 'periodDays', render: (value: number) => t('days', { n: value }) },
        ]}
        drawerTitle={(item) => t('drawer', { id: item.id })}
        detail={(item) => (
          <Space direction="vertical" size="large" style={{ width: '100%' }}>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('user')}>
                <QueueUser user={item.user} />
              </Descriptions.Item>
              <Descriptions.Item label={t('product')}>{`${item.productName} (${item.output})`}</Descriptions.Item>
              <Descriptions.Item label={t('quantity')}>{item.quantity}</Descriptions.Item>
              <Descriptions.Item label={t('unitPrice')}>
                <Amount value={item.unitPrice} asset={item.asset} />
              </Descriptions.Item>
              <Descriptions.Item label={t('amount')}>
                <Amount value={item.amount} asset={item.asset} />
              </Descriptions.Item>
              <Descriptions.Item label={t('period')}>{t('days', { n: item.periodDays })}</Descriptions.Item>
              <Descriptions.Item label={t('dailyYield')}>
                <Amount value={item.dailyYield} asset={item.asset} />
              </Descriptions.Item>
              <Descriptions.Item label={t('totalProfit')}>
                <Amount value={item.totalProfit} asset={item.asset} />
              </Descriptions.Item>
              <Descriptions.Item label={t('rented')}>{formatTime(item.createdAt)}</Descriptions.Item>
            </Descriptions>
            <DecisionButtons onDecide={(decision, reason) => decide.mutateAsync({ id: item.id, decision, ...(reason ? { reason } : {}) })} />
          </Space>
        )}
      />
    </Space>
  );
}
