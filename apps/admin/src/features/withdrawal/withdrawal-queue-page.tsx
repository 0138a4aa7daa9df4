import type { AdminWithdrawal } from '@tradewind/contract/withdrawal';
import { ApiError } from '@tradewind/http-client/api-error';
import { Alert, App, Button, Form, Input, Segmented, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { formatTime } from '@/lib/format.ts';
import { errorText } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import {
  type MoneyDetails,
  type MoneyFact,
  MoneyConfirm,
  MoneyFacts,
  type MoneySummary,
  useConfirmGate,
} from '@/ui/money-confirm.tsx';
import { ReasonModal } from '@/ui/reason-modal.tsx';
import { type QueueDetail, ReviewQueue } from '@/ui/review-queue.tsx';
import { useCompleteWithdrawal } from './api/complete-withdrawal.ts';
import { useFailWithdrawal } from './api/fail-withdrawal.ts';
import { type QueueStatus, useWithdrawalQueue } from './api/get-withdrawal-queue.ts';
import { useReviewWithdrawal } from './api/review-withdrawal.ts';

const useT = defineStrings({
  en: {
    intro:
      'Review requests, then send the approved transfers and record them. A rejection or a failure releases the user’s funds at once and shows them the reason.',
    under_review: 'To review',
    processing: 'To send (processing)',
    requested: 'Requested',
    destination: 'Destination',
    amount: 'Amount',
    fee: 'Fee',
    total: 'Locked (amount + fee)',
    network: 'Network',
    address: 'Address',
    bank: 'Bank',
    account: 'Account number',
    branch: 'Branch',
    holder: 'Account holder',
    approvals: 'Approvals',
    twoNeeded: 'Needs two approvals',
    awaiting: 'Needs second approval (first: {operator})',
    awaitingDetail:
      'First approved by {operator} at {time}. A different operator must approve it before it can be sent.',
    aboveThreshold: 'Above {threshold} {asset}: it needs approvals from two different operators.',
    approvedBy: 'Approved by {operator}',
    secondApprove: 'Give the second approval',
    txid: 'Transaction id',
    txidPlaceholder: 'The chain transaction id (64 hex digits) or the bank reference',
    txidRequired: 'Enter the transaction id.',
    complete: 'Complete with txid',
    fail: 'Fail with reason',
    failTitle: 'The transfer did not go out: give the reason',
    failHelp: 'The user sees this reason; their funds are released at once.',
    reason: 'Reason',
    reasonRequired: 'A reason is required.',
    cancel: 'Cancel',
    completed: 'Recorded as sent.',
    failed: 'Marked failed; the funds are released.',
    crypto: 'Crypto',
    card: 'Bank card',
    drawer: 'Withdrawal #{id}',
    approveTitle: 'Approve withdrawal #{id}?',
    secondApproveTitle: 'Give the second approval to withdrawal #{id}?',
    approveEffect:
      'Approving releases it for sending: the amount goes to the destination below and cannot be called back once sent.',
    secondApproveEffect:
      'Your approval is the second: the withdrawal becomes ready to send to the destination below.',
    firstApproveEffect:
      'Your approval is the first of two: a different operator must approve before anything is sent.',
    debited: 'Leaves the user’s account (amount + fee)',
    sent: 'Sent to the destination',
    approveOk: 'Approve',
    completeTitle: 'Record withdrawal #{id} as sent?',
    completeEffect:
      'Only after the transfer has gone out: the locked funds leave the user’s account for good and the user sees the transaction id.',
    completeOk: 'Record as sent',
  },
  'zh-CN': {
    intro: '先审核申请，再发送已批准的转账并登记。拒绝或失败会立即解冻用户资金，并向用户显示原因。',
    under_review: '待审核',
    processing: '待发送（处理中）',
    requested: '申请时间',
    destination: '去向',
    amount: '金额',
    fee: '手续费',
    total: '冻结（金额 + 手续费）',
    network: '网络',
    address: '地址',
    bank: '银行',
    account: '账号',
    branch: '支行',
    holder: '户名',
    approvals: '审批',
    twoNeeded: '需要两次审批',
    awaiting: '需要第二次审批（第一次：{operator}）',
    awaitingDetail: '{operator} 已于 {time} 第一次审批通过。必须由另一位操作员审批后才能发送。',
    aboveThreshold: '超过 {threshold} {asset}：需要两位不同操作员审批。',
    approvedBy: '审批人：{operator}',
    secondApprove: '第二次审批通过',
    txid: '交易哈希',
    txidPlaceholder: '链上交易哈希（64 位十六进制）或银行流水号',
    txidRequired: '请输入交易哈希。',
    complete: '填写交易哈希并完成',
    fail: '填写原因并标记失败',
    failTitle: '转账未发出：请填写原因',
    failHelp: '用户会看到此原因；其资金将立即解冻。',
    reason: '原因',
    reasonRequired: '必须填写原因。',
    cancel: '取消',
    completed: '已登记为已发送。',
    failed: '已标记为失败，资金已解冻。',
    crypto: '加密货币',
    card: '银行卡',
    drawer: '提现 #{id}',
    approveTitle: '通过提现 #{id}？',
    secondApproveTitle: '对提现 #{id} 进行第二次审批？',
    approveEffect: '通过后即可发送：金额将转到下方去向，一旦发出无法撤回。',
    secondApproveEffect: '您的审批是第二次：该提现将可以发送到下方去向。',
    firstApproveEffect: '您的审批是两次中的第一次：必须由另一位操作员审批后才会发送。',
    debited: '从用户账户扣除（金额 + 手续费）',
    sent: '发送到去向',
    approveOk: '通过',
    completeTitle: '将提现 #{id} 登记为已发送？',
    completeEffect: '仅在转账已发出后操作：冻结资金将永久离开用户账户，用户会看到交易哈希。',
    completeOk: '登记为已发送',
  },
});

/** Withdrawals: review (with a second approver above the threshold), then complete with a txid or fail with a reason. */
export function WithdrawalQueuePage() {
  const t = useT();
  const [status, setStatus] = useState<QueueStatus>('under_review');
  const queue = useWithdrawalQueue(status);
  const review = useReviewWithdrawal();
  const destination = (item: AdminWithdrawal) =>
    item.kind === 'card'
      ? `${item.card?.bankName ?? ''} ${item.card?.accountMasked ?? ''}`
      : `${item.network ?? ''} ${item.address ?? ''}`;
  const approvers = (item: AdminWithdrawal) =>
    [item.firstApprovedBy, item.secondApprovedBy].filter(Boolean).join(' + ');
  const where = (item: AdminWithdrawal): QueueDetail[] =>
    item.kind === 'crypto'
      ? [
          { label: t('network'), value: `${t('crypto')} · ${item.network ?? ''}` },
          {
            label: t('address'),
            value: (
              <Typography.Text copyable code>
                {item.address}
              </Typography.Text>
            ),
          },
        ]
      : [
          { label: t('bank'), value: `${t('card')} · ${item.card?.bankName ?? ''}` },
          {
            label: t('account'),
            value: <Typography.Text copyable>{item.cardAccountNumber}</Typography.Text>,
          },
          { label: t('branch'), value: item.cardBranch },
          { label: t('holder'), value: item.card?.holderName },
        ];
  return (
    <ReviewQueue
      key={status}
      testId="withdrawal"
      intro={t('intro')}
      toolbar={
        <Segmented<QueueStatus>
          value={status}
          onChange={setStatus}
          options={[
            { value: 'under_review', label: t('under_review') },
            { value: 'processing', label: t('processing') },
          ]}
          data-testid="withdrawal-status"
        />
      }
      queue={queue}
      timeLabel={t('requested')}
      columns={[
        {
          title: t('amount'),
          key: 'amount',
          align: 'right',
          render: (_, item) => <Amount value={item.amount} asset={item.asset} />,
        },
        {
          title: t('destination'),
          key: 'destination',
          render: (_, item) => (
            <Typography.Text style={{ maxWidth: 200 }} ellipsis={{ tooltip: destination(item) }}>
              {destination(item)}
            </Typography.Text>
          ),
        },
        {
          title: t('approvals'),
          key: 'approvals',
          width: 240,
          render: (_, item) =>
            item.awaitingSecondApproval ? (
              <Tag
                color="orange"
                style={{ whiteSpace: 'normal' }}
                data-testid="withdrawal-awaiting-second"
              >
                {t('awaiting', { operator: item.firstApprovedBy ?? '' })}
              </Tag>
            ) : item.status === 'processing' && item.reviewedBy ? (
              t('approvedBy', { operator: approvers(item) || item.reviewedBy })
            ) : item.secondApprovalRequired ? (
              <Tag color="gold">{t('twoNeeded')}</Tag>
            ) : null,
        },
      ]}
      itemTitle={(item) => t('drawer', { id: item.id })}
      details={(item) => [
        { label: t('amount'), value: <Amount value={item.amount} asset={item.asset} /> },
        { label: t('fee'), value: <Amount value={item.fee} asset={item.asset} /> },
        { label: t('total'), value: <Amount value={item.total} asset={item.asset} /> },
        ...where(item),
        Boolean(item.firstApprovedBy) && { label: t('approvals'), value: approvers(item) },
      ]}
      notice={(item) =>
        item.awaitingSecondApproval ? (
          <Alert
            type="warning"
            showIcon
            message={t('awaiting', { operator: item.firstApprovedBy ?? '' })}
            description={t('awaitingDetail', {
              operator: item.firstApprovedBy ?? '',
              time: item.firstApprovedAt ? formatTime(item.firstApprovedAt) : '',
            })}
            data-testid="withdrawal-second-approval"
          />
        ) : item.secondApprovalRequired && item.status === 'under_review' ? (
          <Alert
            type="info"
            showIcon
            message={t('aboveThreshold', {
              threshold: item.secondApprovalThreshold,
              asset: item.asset,
            })}
          />
        ) : null
      }
      decide={review.mutateAsync}
      confirm={(item) => ({
        ...moneyOf(item, t),
        title: t(item.awaitingSecondApproval ? 'secondApproveTitle' : 'approveTitle', {
          id: item.id,
        }),
        effect: item.awaitingSecondApproval
          ? t('secondApproveEffect')
          : item.secondApprovalRequired
            ? t('firstApproveEffect')
            : t('approveEffect'),
        okText: item.awaitingSecondApproval ? t('secondApprove') : t('approveOk'),
      })}
      canDecide={(item) => item.status === 'under_review'}
      approveLabel={(item) => (item.awaitingSecondApproval ? t('secondApprove') : undefined)}
      actions={(item) => (item.status === 'processing' ? <PayOut item={item} /> : null)}
    />
  );
}

type Strings = ReturnType<typeof useT>;

/** Whose money, how much leaves their account, the fee, what reaches the destination, and where. */
function moneyOf(item: AdminWithdrawal, t: Strings): MoneyDetails & { facts: MoneyFact[] } {
  const destination =
    item.kind === 'card'
      ? `${item.card?.bankName ?? ''} ${item.card?.accountMasked ?? ''} · ${item.card?.holderName ?? ''}`
      : `${item.network ?? ''} ${item.address ?? ''}`;
  return {
    uid: item.user.uid,
    asset: item.asset,
    amount: item.total,
    amountLabel: t('debited'),
    fee: item.fee,
    receives: item.amount,
    receivesLabel: t('sent'),
    facts: [{ label: t('destination'), value: destination }],
  };
}

/** A processing withdrawal: record the sent transfer's txid, or fail it with a reason. */
function PayOut({ item }: { item: AdminWithdrawal }) {
  const t = useT();
  const { message } = App.useApp();
  const complete = useCompleteWithdrawal();
  const fail = useFailWithdrawal();
  const [form] = Form.useForm<{ txid: string }>();
  const [failing, setFailing] = useState(false);
  const gate = useConfirmGate<MoneySummary & { txid: string }>();

  /** Shows a refusal; true when it belongs to the txid field (the confirmation closes to show it). */
  const show = (error: unknown) => {
    // Only the txid is a field of this form; any other refusal is a message.
    const txid = error instanceof ApiError ? error.errors?.txid : undefined;
    if (txid) form.setFields([{ name: 'txid', errors: txid }]);
    else message.error(errorText(error));
    return Boolean(txid);
  };

  return (
    <>
      <Form
        form={form}
        layout="vertical"
        onFinish={({ txid }) =>
          gate.press({
            ...moneyOf(item, t),
            facts: [...moneyOf(item, t).facts, { label: t('txid'), value: txid.trim() }],
            title: t('completeTitle', { id: item.id }),
            effect: t('completeEffect'),
            okText: t('completeOk'),
            txid: txid.trim(),
          })
        }
      >
        <Form.Item
          name="txid"
          label={t('txid')}
          rules={[{ required: true, whitespace: true, message: t('txidRequired') }]}
        >
          <Input placeholder={t('txidPlaceholder')} maxLength={128} data-testid="withdrawal-txid" />
        </Form.Item>
        <Space>
          <Button
            type="primary"
            htmlType="submit"
            loading={gate.state.phase === 'sending'}
            data-testid="withdrawal-complete"
          >
            {t('complete')}
          </Button>
          <Button danger onClick={() => setFailing(true)} data-testid="withdrawal-fail">
            {t('fail')}
          </Button>
        </Space>
      </Form>
      <ReasonModal
        open={failing}
        title={t('failTitle')}
        help={
          <>
            {t('failHelp')}
            <div style={{ marginTop: 12 }}>
              <MoneyFacts summary={moneyOf(item, t)} />
            </div>
          </>
        }
        label={t('reason')}
        okText={t('fail')}
        danger
        cancelText={t('cancel')}
        requiredText={t('reasonRequired')}
        loading={fail.isPending}
        onCancel={() => setFailing(false)}
        onSubmit={async (reason) => {
          try {
            await fail.mutateAsync({ id: item.id, reason: reason ?? '' });
            message.success(t('failed'));
            setFailing(false);
          } catch (error) {
            show(error);
          }
        }}
        testIds={{ reason: 'withdrawal-fail-reason', confirm: 'withdrawal-fail-confirm' }}
      />
      <MoneyConfirm
        summary={gate.state.phase === 'idle' ? undefined : gate.state.summary}
        loading={gate.state.phase === 'sending'}
        onConfirm={() =>
          gate.confirm(async () => {
            if (gate.state.phase === 'idle') return false;
            try {
              await complete.mutateAsync({ id: item.id, txid: gate.state.summary.txid });
              message.success(t('completed'));
              return true;
            } catch (error) {
              return show(error);
            }
          })
        }
        onCancel={gate.cancel}
      />
    </>
  );
}
