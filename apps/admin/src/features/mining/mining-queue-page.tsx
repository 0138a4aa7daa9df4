import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import { ReviewQueue } from '@/ui/review-queue.tsx';
import { useDecideRental } from './api/decide-rental.ts';
import { useRentalQueue } from './api/get-rental-queue.ts';

const useT = defineStrings({
  en: {
    intro:
      'Rentals under review, oldest first. The user has paid; approving starts the rental now, rejecting refunds the payment at once.',
    rented: 'Rented',
    product: 'Miner',
    quantity: 'Units',
    unitPrice: 'Unit price',
    amount: 'Paid',
    period: 'Period',
    days: '{n} days',
    dailyYield: 'Daily yield',
    totalProfit: 'Yield over the period',
    drawer: 'Rental #{id}',
    confirmTitle: 'Approve rental #{id}?',
    confirmEffect:
      'Approving keeps the payment and starts the rental now: the miner pays its daily yield from the house’s mining account until the period ends.',
    confirmOk: 'Approve and start',
  },
  'zh-CN': {
    intro: '审核中的租赁，最早的在前。用户已付款；通过后租赁立即开始，拒绝则立即退款。',
    rented: '租赁时间',
    product: '矿机',
    quantity: '数量',
    unitPrice: '单价',
    amount: '已付金额',
    period: '周期',
    days: '{n} 天',
    dailyYield: '每日收益',
    totalProfit: '周期总收益',
    drawer: '租赁 #{id}',
    confirmTitle: '通过租赁 #{id}？',
    confirmEffect:
      '通过后将保留该笔付款并立即开始租赁：周期结束前，矿机每日从平台挖矿账户发放收益。',
    confirmOk: '通过并开始',
  },
});

/** Rentals under review: what was rented and paid, then approve or reject. */
export function MiningQueuePage() {
  const t = useT();
  const queue = useRentalQueue();
  const decide = useDecideRental();
  return (
    <ReviewQueue
      testId="mining"
      intro={t('intro')}
      queue={queue}
      timeLabel={t('rented')}
      columns={[
        { title: t('product'), dataIndex: 'productName' },
        { title: t('quantity'), dataIndex: 'quantity', align: 'right' },
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
      ]}
      itemTitle={(item) => t('drawer', { id: item.id })}
      details={(item) => [
        { label: t('product'), value: `${item.productName} (${item.output})` },
        { label: t('quantity'), value: item.quantity },
        { label: t('unitPrice'), value: <Amount value={item.unitPrice} asset={item.asset} /> },
        { label: t('amount'), value: <Amount value={item.amount} asset={item.asset} /> },
        { label: t('period'), value: t('days', { n: item.periodDays }) },
        { label: t('dailyYield'), value: <Amount value={item.dailyYield} asset={item.asset} /> },
        { label: t('totalProfit'), value: <Amount value={item.totalProfit} asset={item.asset} /> },
      ]}
      decide={decide.mutateAsync}
      confirm={(item) => ({
        title: t('confirmTitle', { id: item.id }),
        effect: t('confirmEffect'),
        uid: item.user.uid,
        asset: item.asset,
        amount: item.amount,
        amountLabel: t('amount'),
        facts: [
          { label: t('product'), value: `${item.productName} × ${item.quantity}` },
          { label: t('period'), value: t('days', { n: item.periodDays }) },
          {
            label: t('totalProfit'),
            value: <Amount value={item.totalProfit} asset={item.asset} />,
          },
        ],
        okText: t('confirmOk'),
      })}
    />
  );
}
