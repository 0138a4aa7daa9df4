import type { cardDepositQueueItemSchema } from '@tradewind/contract/card-deposit';
import { Descriptions, Space, Typography } from 'antd';
import type { z } from 'zod';
import { formatTime } from '@/lib/format.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import { DecisionButtons } from '@/ui/decision-buttons.tsx';
import { PrivateImage } from '@/ui/private-image.tsx';
import { QueueUser } from '@/ui/queue-user.tsx';
import { ReviewQueue } from '@/ui/review-queue.tsx';
import { useDecideCardDeposit } from './api/decide-card-deposit.ts';
import { useCardDepositQueue } from './api/get-card-deposit-queue.ts';

type Item = z.infer<typeof cardDepositQueueItemSchema>;

const useT = defineStrings({
  en: {
    intro: 'Reported payments, oldest first. Confirm only a payment you find on the payee account’s statement; the user is then credited the amount after the fee.',
    reported: 'Reported',
    user: 'User',
    amount: 'Amount paid',
    fee: 'Fee',
    credited: 'To credit',
    payee: 'Paid to',
    proof: 'Payment screenshot',
    confirm: 'Payment received: credit',
    drawer: 'Bank-card deposit #{id}',
  },
  'zh-CN': {
    intro: '用户已报告的付款，最早的在前。只有在收款账户流水中找到该笔付款时才确认；确认后将扣除手续费后的金额入账给用户。',
    reported: '报告时间',
    user: '用户',
    amount: '付款金额',
    fee: '手续费',
    credited: '入账金额',
    payee: '收款账户',
    proof: '付款截图',
    confirm: '已收到付款：入账',
    drawer: '银行卡充值 #{id}',
  },
});

/** Reported bank-card payments: the screenshot next to the figures, then confirm or reject. */
export function CardDepositQueuePage() {
  const t = useT();
  const queue = useCardDepositQueue();
  const decide = useDecideCardDeposit();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('intro')}</Typography.Text>
      <ReviewQueue<Item>
        testId="card-deposit"
        queue={queue}
        columns={[
          { title: '#', dataIndex: 'id', width: 80 },
          { title: t('reported'), dataIndex: 'createdAt', render: (value: string) => formatTime(value) },
          { title: t('user'), key: 'user', render: (_, item) => <QueueUser user={item.user} /> },
          { title: t('amount'), key: 'amount', align: 'right', render: (_, item) => <Amount value={item.amount} asset={item.asset} /> },
          { title: t('credited'), key: 'credited', align: 'right', render: (_, item) => <Amount value={item.actualAmount} asset={item.asset} /> },
          { title: t('payee'), key: 'payee', render: (_, item) => `${item.payee.bank} ${item.payee.cardNumber}` },
        ]}
        drawerTitle={(item) => t('drawer', { id: item.id })}
        detail={(item) => (
          <Space direction="vertical" size="large" style={{ width: '100%' }}>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('user')}>
                <QueueUser user={item.user} />
              </Descriptions.Item>
              <Descriptions.Item label={t('amount')}>
                <Amount value={item.amount} asset={item.asset} />
              </Descriptions.Item>
              <Descriptions.Item label={t('fee')}>
                <Amount value={item.fee} asset={item.asset} />
              </Descriptions.Item>
              <Descriptions.Item label={t('credited')}>
                <Amount value={item.actualAmount} asset={item.asset} />
              </Descriptions.Item>
              <Descriptions.Item label={t('payee')}>{`${item.payee.bank} · ${item.payee.cardNumber} · ${item.payee.name}`}</Descriptions.Item>
              <Descriptions.Item label={t('reported')}>{formatTime(item.createdAt)}</Descriptions.Item>
            </Descriptions>
            <div>
              <Typography.Title level={5}>{t('proof')}</Typography.Title>
              <PrivateImage fileId={item.screenshotFileId} alt={t('proof')} width={260} />
            </div>
            <DecisionButtons approveLabel={t('confirm')} onDecide={(decision, reason) => decide.mutateAsync({ id: item.id, decision, ...(reason ? { reason } : {}) })} />
          </Space>
        )}
      />
    </Space>
  );
}
