import type { LoanStatus, loanQueueItemSchema } from '@tradewind/contract/loans';
import { Tag } from 'antd';
import type { z } from 'zod';
import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import { type MoneyDetails, MoneyButton } from '@/ui/money-confirm.tsx';
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
    disburseTitle: 'Disburse loan #{id}?',
    disburseEffect:
      'The amount is credited to the borrower’s spot wallet now, from the house’s loans account; the borrower owes it back with the interest.',
    disbursed: 'Disbursed',
    yes: 'Disburse now',
    approveTitle: 'Approve loan #{id}?',
    approveEffect:
      'Approving moves no money yet: the loan waits for disbursement, which asks again before it credits the borrower.',
    approveOk: 'Approve',
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
    disburseTitle: '为贷款 #{id} 放款？',
    disburseEffect: '金额将立即从平台贷款账户转入借款人的现货钱包；借款人需连同利息偿还。',
    disbursed: '已放款',
    yes: '立即放款',
    approveTitle: '通过贷款 #{id}？',
    approveEffect: '通过时尚不转账：贷款进入待放款状态，放款前会再次确认。',
    approveOk: '通过',
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
      confirm={(item) => ({
        ...loanMoney(item, t),
        title: t('approveTitle', { id: item.id }),
        effect: t('approveEffect'),
        okText: t('approveOk'),
      })}
      canDecide={(item) => item.status === 'under_review'}
      actions={(item) => (item.status === 'pending_disbursement' ? <Disburse item={item} /> : null)}
    />
  );
}

/** Whose loan, how much, and what it costs them. */
function loanMoney(item: Item, t: ReturnType<typeof useT>): MoneyDetails {
  return {
    uid: item.user.uid,
    asset: item.asset,
    amount: item.amount,
    facts: [
      { label: t('product'), value: `${item.productName} · ${item.institution}` },
      { label: t('period'), value: t('days', { n: item.periodDays }) },
      { label: t('interest'), value: <Amount value={item.interest} asset={item.asset} /> },
    ],
  };
}

/** An approved loan: credit the amount to the borrower now, after the confirmation. */
function Disburse({ item }: { item: Item }) {
  const t = useT();
  const disburse = useDisburseLoan();
  return (
    <MoneyButton
      type="primary"
      data-testid="loan-disburse"
      summary={() => ({
        ...loanMoney(item, t),
        title: t('disburseTitle', { id: item.id }),
        effect: t('disburseEffect'),
        okText: t('yes'),
      })}
      action={() => disburse.mutateAsync(item.id)}
      doneText={t('disbursed')}
    >
      {t('disburse')}
    </MoneyButton>
  );
}
