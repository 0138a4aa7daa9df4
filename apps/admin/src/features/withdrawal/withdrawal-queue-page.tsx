import type { AdminWithdrawal } from '@tradewind/contract/withdrawal';
import { Alert, App, Button, Descriptions, Form, Input, Modal, Segmented, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ApiError } from '@tradewind/http-client/api-error';
import { formatTime } from '@/lib/format.ts';
import { errorText } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import { DecisionButtons } from '@/ui/decision-buttons.tsx';
import { QueueUser } from '@/ui/queue-user.tsx';
import { ReviewQueue } from '@/ui/review-queue.tsx';
import { useCompleteWithdrawal } from './api/complete-withdrawal.ts';
import { useFailWithdrawal } from './api/fail-withdrawal.ts';
import { type QueueStatus, useWithdrawalQueue } from './api/get-withdrawal-queue.ts';
import { useReviewWithdrawal } from './api/review-withdrawal.ts';

const useT = defineStrings({
  en: {
    intro: 'Review requests, then send the approved transfers and record them. A rejection or a failure releases the user’s funds at once and shows them the reason.',
    under_review: 'To review',
    processing: 'To send (processing)',
    requested: 'Requested',
    user: 'User',
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
    awaitingDetail: 'First approved by {operator} at {time}. A different operator must approve it before it can be sent.',
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
    reasonRequired: 'A reason is required.',
    cancel: 'Cancel',
    completed: 'Recorded as sent.',
    failed: 'Marked failed; the funds are released.',
    crypto: 'Crypto',
    card: 'Bank card',
    drawer: 'Withdrawal #{id}',
  },
  'zh-CN': {
    intro: '先审核申请，再发送已批准的转账并登记。拒绝或失败会立即解冻用户资金，并向用户显示原因。',
    under_review: '待审核',
    processing: '待发送（处理中）',
    requested: '申请时间',
    user: '用户',
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
    reasonRequired: '必须填写原因。',
    cancel: '取消',
    completed: '已登记为已发送。',
    failed: '已标记为失败，资金已解冻。',
    crypto: '加密货币',
    card: '银行卡',
    drawer: '提现 #{id}',
  },
});

/** Withdrawals: review (with a second approver above the threshold), then complete with a txid or fail with a reason. */
export function WithdrawalQueuePage() {
  const t = useT();
  const [status, setStatus] = useState<QueueStatus>('under_review');
  const queue = useWithdrawalQueue(status);
  const destination = (item: AdminWithdrawal) => (item.kind === 'card' ? `${item.card?.bankName ?? ''} ${item.card?.accountMasked ?? ''}` : `${item.network ?? ''} ${item.address ?? ''}`);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('intro')}</Typography.Text>
      <Segmented<QueueStatus>
        value={status}
        onChange={setStatus}
        options={[
          { value: 'under_review', label: t('under_review') },
          { value: 'processing', label: t('processing') },
        ]}
        data-testid="withdrawal-status"
      />
      <ReviewQueue<AdminWithdrawal>
        key={status}
        testId="withdrawal"
        queue={queue}
        columns={[
          { title: '#', dataIndex: 'id', width: 80 },
          { title: t('requested'), dataIndex: 'createdAt', render: (value: string) => formatTime(value) },
          { title: t('user'), key: 'user', render: (_, item) => <QueueUser user={item.user} /> },
          { title: t('amount'), key: 'amount', align: 'right', render: (_, item) => <Amount value={item.amount} asset={item.asset} /> },
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
                <Tag color="orange" style={{ whiteSpace: 'normal' }} data-testid="withdrawal-awaiting-second">
                  {t('awaiting', { operator: item.firstApprovedBy ?? '' })}
                </Tag>
              ) : item.status === 'processing' && item.reviewedBy ? (
                t('approvedBy', { operator: [item.firstApprovedBy, item.secondApprovedBy].filter(Boolean).join(' + ') || item.reviewedBy })
              ) : item.secondApprovalRequired ? (
                <Tag color="gold">{t('twoNeeded')}</Tag>
              ) : null,
          },
        ]}
        drawerTitle={(item) => t('drawer', { id: item.id })}
        detail={(item) => <Detail item={item} />}
      />
    </Space>
  );
}

function Detail({ item }: { item: AdminWithdrawal }) {
  const t = useT();
  const review = useReviewWithdrawal();
  return (
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
        <Descriptions.Item label={t('total')}>
          <Amount value={item.total} asset={item.asset} />
        </Descriptions.Item>
        {item.kind === 'crypto' ? (
          <>
            <Descriptions.Item label={t('network')}>{`${t('crypto')} · ${item.network ?? ''}`}</Descriptions.Item>
            <Descriptions.Item label={t('address')}>
              <Typography.Text copyable code>
                {item.address}
              </Typography.Text>
            </Descriptions.Item>
          </>
        ) : (
          <>
            <Descriptions.Item label={t('bank')}>{`${t('card')} · ${item.card?.bankName ?? ''}`}</Descriptions.Item>
            <Descriptions.Item label={t('account')}>
              <Typography.Text copyable>{item.cardAccountNumber}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('branch')}>{item.cardBranch}</Descriptions.Item>
            <Descriptions.Item label={t('holder')}>{item.card?.holderName}</Descriptions.Item>
          </>
        )}
        <Descriptions.Item label={t('requested')}>{formatTime(item.createdAt)}</Descriptions.Item>
        {item.firstApprovedBy ? (
          <Descriptions.Item label={t('approvals')}>{[item.firstApprovedBy, item.secondApprovedBy].filter(Boolean).join(' + ')}</Descriptions.Item>
        ) : null}
      </Descriptions>
      {item.awaitingSecondApproval ? (
        <Alert
          type="warning"
          showIcon
          message={t('awaiting', { operator: item.firstApprovedBy ?? '' })}
          description={t('awaitingDetail', { operator: item.firstApprovedBy ?? '', time: item.firstApprovedAt ? formatTime(item.firstApprovedAt) : '' })}
          data-testid="withdrawal-second-approval"
        />
      ) : item.secondApprovalRequired && item.status === 'under_review' ? (
        <Alert type="info" showIcon message={t('aboveThreshold', { threshold: item.secondApprovalThreshold, asset: item.asset })} />
      ) : null}
      {item.status === 'under_review' ? (
        <DecisionButtons
          approveLabel={item.awaitingSecondApproval ? t('secondApprove') : undefined}
          onDecide={(decision, reason) => review.mutateAsync({ id: item.id, decision, ...(reason ? { reason } : {}) })}
        />
      ) : item.status === 'processing' ? (
        <PayOut item={item} />
      ) : null}
    </Space>
  );
}

/** A processing withdrawal: record the sent transfer's txid, or fail it with a reason. */
function PayOut({ item }: { item: AdminWithdrawal }) {
  const t = useT();
  const { message } = App.useApp();
  const complete = useCompleteWithdrawal();
  const fail = useFailWithdrawal();
  const [form] = Form.useForm<{ txid: string }>();
  const [failing, setFailing] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();

  const show = (error: unknown) => {
    // Only the txid is a field of this form; any other refusal is a message.
    const txid = error instanceof ApiError ? error.errors?.txid : undefined;
    if (txid) form.setFields([{ name: 'txid', errors: txid }]);
    else message.error(errorText(error));
  };

  return (
    <>
      <Form
        form={form}
        layout="vertical"
        onFinish={async ({ txid }) => {
          try {
            await complete.mutateAsync({ id: item.id, txid: txid.trim() });
            message.success(t('completed'));
          } catch (error) {
            show(error);
          }
        }}
      >
        <Form.Item name="txid" label={t('txid')} rules={[{ required: true, whitespace: true, message: t('txidRequired') }]}>
          <Input placeholder={t('txidPlaceholder')} maxLength={128} data-testid="withdrawal-txid" />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={complete.isPending} data-testid="withdrawal-complete">
            {t('complete')}
          </Button>
          <Button danger onClick={() => setFailing(true)} data-testid="withdrawal-fail">
            {t('fail')}
          </Button>
        </Space>
      </Form>
      <Modal
        open={failing}
        title={t('failTitle')}
        okText={t('fail')}
        cancelText={t('cancel')}
        okButtonProps={{ danger: true, loading: fail.isPending, 'data-testid': 'withdrawal-fail-confirm' }}
        onCancel={() => setFailing(false)}
        onOk={async () => {
          const trimmed = reason.trim();
          if (!trimmed) {
            setReasonError(t('reasonRequired'));
            return;
          }
          setReasonError(undefined);
          try {
            await fail.mutateAsync({ id: item.id, reason: trimmed });
            message.success(t('failed'));
            setFailing(false);
          } catch (error) {
            show(error);
          }
        }}
      >
        <Input.TextArea value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} showCount rows={3} status={reasonError ? 'error' : undefined} data-testid="withdrawal-fail-reason" />
        <div style={{ color: reasonError ? '#ff4d4f' : '#888', marginTop: 4 }}>{reasonError ?? t('failHelp')}</div>
      </Modal>
    </>
  );
}
