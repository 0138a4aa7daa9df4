import { type RewardBudget, type RewardBudgetChange } from '@tradewind/contract/invite';
import { ASSET_CODES, type AssetCode } from '@tradewind/contract/wallet';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useMe } from '@/api/get-me.ts';
import { formatTime } from '@/lib/format.ts';
import { errorText, showFieldErrors } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { Amount } from '@/ui/amount.tsx';
import { DecidedStatus } from '@/ui/decided-status.tsx';
import { DecisionButtons } from '@/ui/decision-buttons.tsx';
import { useDecideRewardBudget } from './api/decide-reward-budget.ts';
import { useRewardBudgets } from './api/get-reward-budgets.ts';
import { useRequestRewardBudget } from './api/request-reward-budget.ts';

const useT = defineStrings({
  en: {
    hint: 'Every reward the house gives (bonus codes today) draws on its asset’s budget. One admin requests a change, a different admin approves it; a redemption beyond the remaining budget is refused.',
    budgets: 'Budgets',
    changes: 'Budget changes',
    asset: 'Asset',
    approved: 'Approved',
    granted: 'Paid out',
    remaining: 'Remaining',
    threshold: 'Codes above this total need a second admin',
    request: 'Request a change',
    amount: 'Change',
    amountHelp: 'A signed amount: 5000 raises the budget, -500 lowers it.',
    reason: 'Why (kept in the audit log)',
    submit: 'Request',
    cancel: 'Cancel',
    requested: 'Change #{id} requested: another admin approves it.',
    required: 'Required.',
    amountFormat: 'A number, optionally signed, e.g. 5000 or -250.5.',
    requestedBy: 'Requested by',
    decidedBy: 'Decided by',
    decisionReason: 'Decision reason',
    status: 'Status',
    actions: 'Actions',
    yourRequest: 'Your request: another admin decides',
    seeded: 'set up without operators',
    status_pending: 'Pending',
    status_approved: 'Approved',
    status_rejected: 'Rejected',
    who: 'House rewards (every rewarded user)',
    approveTitle: 'Approve budget change #{id}?',
    approveEffect:
      'The asset’s reward budget changes by this amount at once; rewards can then be paid up to the new total.',
    approveOk: 'Approve the change',
    changeLabel: 'Budget change',
    empty: 'No budget changes yet.',
  },
  'zh-CN': {
    hint: '平台发放的每一笔奖励（目前为奖励码）都从该资产的预算中扣除。一位管理员申请调整，另一位管理员审批；超出剩余预算的兑换会被拒绝。',
    budgets: '预算',
    changes: '预算调整',
    asset: '资产',
    approved: '已批准',
    granted: '已发放',
    remaining: '剩余',
    threshold: '总额超过此值的奖励码需第二位管理员审批',
    request: '申请调整',
    amount: '调整额',
    amountHelp: '带符号的金额：5000 表示增加预算，-500 表示减少。',
    reason: '原因（记入审计日志）',
    submit: '提交申请',
    cancel: '取消',
    requested: '调整 #{id} 已提交，需另一位管理员审批。',
    required: '必填。',
    amountFormat: '请输入数字，可带正负号，如 5000 或 -250.5。',
    requestedBy: '申请人',
    decidedBy: '审批人',
    decisionReason: '审批原因',
    status: '状态',
    actions: '操作',
    yourRequest: '您的申请：需另一位管理员审批',
    seeded: '系统初始化，无操作员',
    status_pending: '待审批',
    status_approved: '已批准',
    status_rejected: '已拒绝',
    who: '平台奖励（所有获奖用户）',
    approveTitle: '批准预算调整 #{id}？',
    approveEffect: '该资产的奖励预算将立即按此金额调整；之后可在新总额内发放奖励。',
    approveOk: '批准调整',
    changeLabel: '预算调整',
    empty: '暂无预算调整。',
  },
});

interface RequestForm {
  asset: AssetCode;
  amount: string;
  reason: string;
}

/** Reward budgets per asset, and the changes two admins make to them (issue 29). */
export function RewardBudgetsPage() {
  const t = useT();
  const { message } = App.useApp();
  const me = useMe();
  const budgets = useRewardBudgets();
  const request = useRequestRewardBudget();
  const decide = useDecideRewardBudget();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<RequestForm>();

  function submit(values: RequestForm) {
    request.mutate(
      { asset: values.asset, amount: values.amount.trim(), reason: values.reason.trim() },
      {
        onSuccess: (created) => {
          setOpen(false);
          form.resetFields();
          message.success(t('requested', { id: created.id }));
        },
        onError: (error) => {
          showFieldErrors(form, error);
          message.error(errorText(error));
        },
      },
    );
  }

  const data = budgets.data;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Alert type="info" showIcon title={t('hint')} />
      {budgets.error ? <Alert type="error" title={errorText(budgets.error)} /> : null}
      <Card
        title={t('budgets')}
        size="small"
        extra={
          <Button type="primary" onClick={() => setOpen(true)} data-testid="budget-request">
            {t('request')}
          </Button>
        }
      >
        <Table<RewardBudget>
          rowKey="asset"
          size="small"
          pagination={false}
          loading={budgets.isLoading}
          dataSource={data?.budgets ?? []}
          data-testid="reward-budgets"
          columns={[
            { title: t('asset'), dataIndex: 'asset', width: 100 },
            {
              title: t('approved'),
              key: 'approved',
              align: 'right',
              render: (_, b) => <Amount value={b.approved} asset={b.asset} />,
            },
            {
              title: t('granted'),
              key: 'granted',
              align: 'right',
              render: (_, b) => <Amount value={b.granted} asset={b.asset} />,
            },
            {
              title: t('remaining'),
              key: 'remaining',
              align: 'right',
              render: (_, b) => (
                <Typography.Text strong data-testid={`budget-remaining-${b.asset}`}>
                  <Amount value={b.remaining} asset={b.asset} />
                </Typography.Text>
              ),
            },
            {
              title: t('threshold'),
              key: 'threshold',
              align: 'right',
              render: (_, b) => <Amount value={b.codeApprovalThreshold} asset={b.asset} />,
            },
          ]}
        />
      </Card>
      <Card title={t('changes')} size="small">
        <Table<RewardBudgetChange>
          rowKey="id"
          size="small"
          pagination={false}
          loading={budgets.isLoading}
          dataSource={data?.changes ?? []}
          locale={{ emptyText: t('empty') }}
          data-testid="reward-budget-changes"
          columns={[
            { title: '#', dataIndex: 'id', width: 56 },
            {
              title: t('amount'),
              key: 'amount',
              align: 'right',
              width: 170,
              render: (_, c) => (
                <Typography.Text type={c.amount.startsWith('-') ? 'danger' : 'success'}>
                  <Amount
                    value={c.amount.startsWith('-') ? c.amount : `+${c.amount}`}
                    asset={c.asset}
                  />
                </Typography.Text>
              ),
            },
            { title: t('reason'), dataIndex: 'reason' },
            {
              title: t('requestedBy'),
              key: 'requestedBy',
              width: 230,
              render: (_, c) => `${c.requestedBy ?? t('seeded')} · ${formatTime(c.requestedAt)}`,
            },
            {
              title: t('status'),
              key: 'status',
              width: 260,
              render: (_, c) => {
                if (c.status !== 'pending')
                  return <DecidedStatus {...c} label={t(`status_${c.status}`)} />;
                if (c.requestedBy === me.data?.username) return <Tag>{t('yourRequest')}</Tag>;
                const magnitude = c.amount.replace(/^-/, '');
                return (
                  <DecisionButtons
                    confirm={{
                      uid: t('who'),
                      asset: c.asset,
                      amount: c.amount.startsWith('-') ? `-${magnitude}` : magnitude,
                      amountLabel: t('changeLabel'),
                      facts: [{ label: t('reason'), value: c.reason }],
                      title: t('approveTitle', { id: c.id }),
                      effect: t('approveEffect'),
                      okText: t('approveOk'),
                    }}
                    onDecide={(decision, reason) =>
                      decide.mutateAsync({ id: c.id, decision, ...(reason ? { reason } : {}) })
                    }
                  />
                );
              },
            },
          ]}
        />
      </Card>
      <Modal
        open={open}
        title={t('request')}
        okText={t('submit')}
        cancelText={t('cancel')}
        confirmLoading={request.isPending}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form<RequestForm>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{ asset: 'USDT' }}
        >
          <Form.Item name="asset" label={t('asset')} rules={[{ required: true }]}>
            <Select
              style={{ width: 140 }}
              options={ASSET_CODES.map((code) => ({ value: code, label: code }))}
            />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t('amount')}
            extra={t('amountHelp')}
            rules={[
              { required: true, message: t('required') },
              { pattern: /^[+-]?\d+(\.\d+)?$/, message: t('amountFormat') },
            ]}
          >
            <Input data-testid="budget-amount" inputMode="decimal" style={{ width: 200 }} />
          </Form.Item>
          <Form.Item
            name="reason"
            label={t('reason')}
            rules={[{ required: true, whitespace: true, message: t('required') }]}
          >
            <Input.TextArea data-testid="budget-reason" rows={2} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
