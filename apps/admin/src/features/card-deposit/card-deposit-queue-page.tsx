import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import { ReviewQueue } from '@/ui/review-queue.tsx';
import { useDecideCardDeposit } from './api/decide-card-deposit.ts';
import { useCardDepositQueue } from './api/get-card-deposit-queue.ts';

const useT = defineStrings({
  en: {
    intro:
      'Reported payments, oldest first. Confirm only a payment you find on the payee account’s statement; the user is then credited the amount after the fee.',
    reported: 'Reported',
    amount: 'Amount paid',
    fee: 'Fee',
    credited: 'To credit',
    payee: 'Paid to',
    proof: 'Payment screenshot',
    confirm: 'Payment received: credit',
    drawer: 'Bank-card deposit #{id}',
    confirmTitle: 'Credit bank-card deposit #{id}?',
    confirmEffect:
      'Only if this payment is on the payee account’s statement: the user’s spot wallet is credited at once, and a credit cannot be taken back.',
    confirmOk: 'Credit the user',
  },
  'zh-CN': {
    intro:
      '用户已报告的付款，最早的在前。只有在收款账户流水中找到该笔付款时才确认；确认后将扣除手续费后的金额入账给用户。',
    reported: '报告时间',
    amount: '付款金额',
    fee: '手续费',
    credited: '入账金额',
    payee: '收款账户',
    proof: '付款截图',
    confirm: '已收到付款：入账',
    drawer: '银行卡充值 #{id}',
    confirmTitle: '为银行卡充值 #{id} 入账？',
    confirmEffect: '仅当收款账户流水中有这笔付款时才确认：用户现货钱包将立即入账，入账后无法收回。',
    confirmOk: '为用户入账',
  },
});

/** Reported bank-card payments: the screenshot next to the figures, then confirm or reject. */
export function CardDepositQueuePage() {
  const t = useT();
  const queue = useCardDepositQueue();
  const decide = useDecideCardDeposit();
  return (
    <ReviewQueue
      testId="card-deposit"
      intro={t('intro')}
      queue={queue}
      timeLabel={t('reported')}
      columns={[
        {
          title: t('amount'),
          key: 'amount',
          align: 'right',
          render: (_, item) => <Amount value={item.amount} asset={item.asset} />,
        },
        {
          title: t('credited'),
          key: 'credited',
          align: 'right',
          render: (_, item) => <Amount value={item.actualAmount} asset={item.asset} />,
        },
        {
          title: t('payee'),
          key: 'payee',
          render: (_, item) => `${item.payee.bank} ${item.payee.cardNumber}`,
        },
      ]}
      itemTitle={(item) => t('drawer', { id: item.id })}
      details={(item) => [
        { label: t('amount'), value: <Amount value={item.amount} asset={item.asset} /> },
        { label: t('fee'), value: <Amount value={item.fee} asset={item.asset} /> },
        { label: t('credited'), value: <Amount value={item.actualAmount} asset={item.asset} /> },
        {
          label: t('payee'),
          value: `${item.payee.bank} · ${item.payee.cardNumber} · ${item.payee.name}`,
        },
      ]}
      files={{ title: t('proof'), width: 260, of: (item) => [{ fileId: item.screenshotFileId }] }}
      decide={decide.mutateAsync}
      approveLabel={() => t('confirm')}
      confirm={(item) => ({
        title: t('confirmTitle', { id: item.id }),
        effect: t('confirmEffect'),
        uid: item.user.uid,
        asset: item.asset,
        amount: item.amount,
        amountLabel: t('amount'),
        fee: item.fee,
        receives: item.actualAmount,
        receivesLabel: t('credited'),
        facts: [
          {
            label: t('payee'),
            value: `${item.payee.bank} · ${item.payee.cardNumber} · ${item.payee.name}`,
          },
        ],
        okText: t('confirmOk'),
      })}
    />
  );
}
