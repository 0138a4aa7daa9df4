import type { LoanStatus, loanQueueItemSchema } from '@tradewind/contract/loans';
import { App, Button, Popconfirm, Tag } from 'antd';
import type { z } from 'zod';
import { errorText } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import { ReviewQueue } from '@/ui/review-queue.tsx';
import { useDecideLoan } from './api/decide-loan.ts';
import { useDisburseLoan } from './api/disburse-loan.ts';
import { useLoanQueue } from './api/get-loan-queue.ts';

type Item = z.infer<typeof loanQueueItemSchema>;

const useT = defineStrings({
  en: {
    intro:
      'Applications under review and approved loans waiting for disbursement, oldest first. Repayment is the borrower’s own: no one here marks a loan repaid.',
    applied: 'Applied',
    product: 'Product',
    amount: 'Amount',
    period: 'Period',
    days: '{n} days',
    dailyRate: 'Daily rate',
    interest: 'Interest over the period',
    status: 'Status',
    under_review: 'Under review',
    pending_disbursement: 'Approved, to disburse',
    photos: 'ID photos',
    front: 'Front',
    back: 'Back',
    holding: 'Holding the ID',
    disburse: 'Disburse',
    disburseConfirm: 'Credit {amount} USDT to user {uid} now?',
    disbursed: 'Disbursed',
    yes: 'Disburse',
    no: 'Cancel',
    drawer: 'Loan #{id}',
  },
  'zh-CN': {
    intro:
      '审核中的申请和已批准待放款的贷款，最早的在前。还款只能由借款人本人完成：这里无人能将贷款标记为已还清。',
    applied: '申请时间',
    product: '产品',
    amount: '金额',
    period: '期限',
    days: '{n} 天',
    dailyRate: '日利率',
    interest: '期限内利息',
    status: '状态',
    under_review: '审核中',
    pending_disbursement: '已批准，待放款',
    photos: '证件照片',
    front: '正面',
    back: '背面',
    holding: '手持证件',
    disburse: '放款',
    disburseConfirm: '现在向用户 {uid} 放款 {amount} USDT？',
    disbursed: '已放款',
    yes: '放款',
    no: '取消',
    drawer: '贷款 #{id}',
  },
});

const percent = (rate: string) =>
  `${(Number(rate) * 100).toLocaleString(undefined, { maximumFractionDigits: 4 })} %`;

/** Loans: approve or reject an application, then disburse an approved one. */
export function LoanQueuePage() {
  const t = useT();
  const queue = useLoanQueue();
  const decide = useDecideLoan();
  const statusTag = (status: LoanStatus) =>
    status === 'under_review' ? (
      <Tag color="gold">{t('under_review')}</Tag>
    ) : status === 'pending_disbursement' ? (
      <Tag color="blue">{t('pending_disbursement')}</Tag>
    ) : (
      <Tag>{status}</Tag>
    );
  return (
    <ReviewQueue
      testId="loans"
      intro={t('intro')}
      queue={queue}
      timeLabel={t('applied')}
      columns={[
        { title: t('product'), dataIndex: 'productName' },
        {
          title: t('amount'),
          key: 'amount',
          align: 'right',
          render: (_, item) => <Amount value={item.amount} asset={item.asset} />,
        },
        {
          title: t('period'),
          dataIndex: 'periodDays',
          render: (value: number) => t('days', { n: value }),
        },
        {
          title: t('status'),
          dataIndex: 'status',
          render: (value: LoanStatus) => statusTag(value),
        },
      ]}
      itemTitle={(item) => t('drawer', { id: item.id })}
      details={(item) => [
        { label: t('status'), value: statusTag(item.status) },
        { label: t('product'), value: `${item.productName} · ${item.institution}` },
        { label: t('amount'), value: <Amount value={item.amount} asset={item.asset} /> },
        { label: t('period'), value: t('days', { n: item.periodDays }) },
        { label: t('dailyRate'), value: percent(item.dailyRate) },
        { label: t('interest'), value: <Amount value={item.interest} asset={item.asset} /> },
      ]}
      files={{
        title: t('photos'),
        of: (item) => [
          { caption: t('front'), fileId: item.frontFileId },
          { caption: t('back'), fileId: item.backFileId },
          { caption: t('holding'), fileId: item.holdingFileId },
        ],
      }}
      decide={decide.mutateAsync}
      canDecide={(item) => item.status === 'under_review'}
      actions={(item) => (item.status === 'pending_disbursement' ? <Disburse item={item} /> : null)}
    />
  );
}

/** An approved loan: credit the amount to the borrower now, after a confirmation. */
function Disburse({ item }: { item: Item }) {
  const t = useT();
  const { message } = App.useApp();
  const disburse = useDisburseLoan();
  return (
    <Popconfirm
      title={t('disburseConfirm', { amount: item.amount, uid: item.uid })}
      okText={t('yes')}
      cancelText={t('no')}
      onConfirm={async () => {
        try {
          await disburse.mutateAsync(item.id);
          message.success(t('disbursed'));
        } catch (error) {
          message.error(errorText(error));
        }
      }}
    >
      <Button type="primary" loading={disburse.isPending} data-testid="loan-disburse">
        {t('disburse')}
      </Button>
    </Popconfirm>
  );
}
