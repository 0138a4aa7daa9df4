import {
  BONUS_CODE_MAX_PER_USER,
  BONUS_CODE_MAX_REDEMPTIONS,
  type BonusCodeApprovalStatus,
  type BonusCodeView,
} from '@tradewind/contract/invite';
import { ASSET_CODES, type AssetCode } from '@tradewind/contract/wallet';
import {
  Alert,
  App,
  Form,
  Input,
  InputNumber,
  Modal,
  Progress,
  Select,
  Space,
  Switch,
  Tag,
} from 'antd';
import { useState } from 'react';
import { useMe } from '@/api/get-me.ts';
import { formatTime } from '@/lib/format.ts';
import { errorText, showFieldErrors } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { fromLocalInput, toLocalInput } from '@/lib/local-time.ts';
import { Amount } from '@/ui/amount.tsx';
import { DecisionButtons } from '@/ui/decision-buttons.tsx';
import { QueryTable } from '@/ui/query-table.tsx';
import { useCreateBonusCode } from './api/create-bonus-code.ts';
import { useDecideBonusCode } from './api/decide-bonus-code.ts';
import { useBonusCodes } from './api/get-bonus-codes.ts';

const useT = defineStrings({
  en: {
    create: 'New bonus code',
    code: 'Code',
    codeRule: '4–32 letters, digits or dashes (stored upper-case).',
    reward: 'Reward per redemption',
    asset: 'Asset',
    amount: 'Amount',
    redeemed: 'Redeemed',
    maxRedemptions: 'Total redemptions',
    perUserLimit: 'Per user',
    window: 'Valid',
    startsAt: 'From',
    startsHelp: 'Leave empty to start at once (your local time).',
    expiresAt: 'Until',
    verifiedOnly: 'Verified users only',
    onePerIdentity: 'Once per verified person',
    eligibility: 'Who may redeem',
    eligibleVerified: 'Verified users',
    eligibleAll: 'Any proved account',
    perIdentity: 'once per person',
    approval: 'Approval',
    approval_approved: 'Approved',
    approval_pending: 'Awaiting a second admin',
    approval_rejected: 'Rejected',
    total: 'Total {total}',
    creator: 'Created by',
    decidedBy: 'by {name}',
    yourCode: 'Your code: another admin decides',
    adminsDecide: 'An admin decides',
    approveTitle: 'Approve bonus code {code}?',
    approveEffect:
      'Users can redeem it from now on; every redemption is paid from the reward budget of its asset.',
    approveOk: 'Approve the code',
    everyRedeemer: 'Every user who redeems it',
    perRedemption: 'Per redemption',
    totalLabel: 'At most, in total',
    createdPending:
      'Bonus code {code} created. Its total is above the threshold: a second admin approves it before anyone can redeem it.',
    thresholdNote:
      'A code whose total (amount × redemptions) is above the threshold waits for a second admin; redemptions draw on the reward budget.',
    yes: 'Yes',
    no: 'No',
    status: 'Status',
    active: 'Active',
    scheduled: 'Scheduled',
    expired: 'Expired',
    exhausted: 'Used up',
    reason: 'Reason (kept in the audit log)',
    save: 'Create',
    cancel: 'Cancel',
    required: 'Required.',
    created: 'Bonus code {code} created.',
    moneyNote:
      'Each redemption is a ledger entry from the house rewards account to the user’s spot account.',
  },
  'zh-CN': {
    create: '新建奖励码',
    code: '奖励码',
    codeRule: '4–32 个字母、数字或短横线（以大写保存）。',
    reward: '每次兑换奖励',
    asset: '资产',
    amount: '金额',
    redeemed: '已兑换',
    maxRedemptions: '总兑换次数',
    perUserLimit: '每人次数',
    window: '有效期',
    startsAt: '开始',
    startsHelp: '留空则立即生效（您的本地时间）。',
    expiresAt: '截止',
    verifiedOnly: '仅限已认证用户',
    onePerIdentity: '每位认证用户限一次',
    eligibility: '兑换资格',
    eligibleVerified: '已认证用户',
    eligibleAll: '已验证账号',
    perIdentity: '每人一次',
    approval: '审批',
    approval_approved: '已批准',
    approval_pending: '待第二位管理员审批',
    approval_rejected: '已拒绝',
    total: '总额 {total}',
    creator: '创建人',
    decidedBy: '审批人 {name}',
    yourCode: '您创建的奖励码：需另一位管理员审批',
    adminsDecide: '由管理员审批',
    approveTitle: '批准奖励码 {code}？',
    approveEffect: '批准后用户即可兑换；每次兑换都从该资产的奖励预算中支付。',
    approveOk: '批准奖励码',
    everyRedeemer: '每位兑换的用户',
    perRedemption: '每次兑换',
    totalLabel: '合计上限',
    createdPending: '奖励码 {code} 已创建。其总额超过阈值：需第二位管理员批准后方可兑换。',
    thresholdNote: '总额（金额 × 次数）超过阈值的奖励码需第二位管理员审批；兑换从奖励预算中扣除。',
    yes: '是',
    no: '否',
    status: '状态',
    active: '有效',
    scheduled: '未开始',
    expired: '已过期',
    exhausted: '已用完',
    reason: '原因（记入审计日志）',
    save: '创建',
    cancel: '取消',
    required: '必填。',
    created: '奖励码 {code} 已创建。',
    moneyNote: '每次兑换都是一笔从平台奖励账户到用户现货账户的账本分录。',
  },
});

interface CodeForm {
  code: string;
  asset: AssetCode;
  amount: string;
  maxRedemptions: number;
  perUserLimit: number;
  startsAt?: string;
  expiresAt: string;
  verifiedOnly: boolean;
  onePerIdentity: boolean;
  reason?: string;
}

const APPROVAL_COLOURS: Record<BonusCodeApprovalStatus, string> = {
  approved: 'green',
  pending: 'gold',
  rejected: 'red',
};

function statusOf(
  code: BonusCodeView,
  now: number,
): 'active' | 'scheduled' | 'expired' | 'exhausted' {
  if (code.redeemedCount >= code.maxRedemptions) return 'exhausted';
  if (Date.parse(code.expiresAt) <= now) return 'expired';
  return Date.parse(code.startsAt) > now ? 'scheduled' : 'active';
}
const STATUS_COLOURS = {
  active: 'green',
  scheduled: 'blue',
  expired: 'default',
  exhausted: 'orange',
} as const;

/** Bonus codes with how often each was redeemed; create one (audited on the server). */
export function BonusCodesPage() {
  const t = useT();
  const { message } = App.useApp();
  const list = useBonusCodes();
  const [creating, setCreating] = useState(false);
  const [form] = Form.useForm<CodeForm>();
  const [now] = useState(() => Date.now());
  const create = useCreateBonusCode();
  const decide = useDecideBonusCode();
  const me = useMe();

  function submit(values: CodeForm) {
    const body = {
      code: values.code.trim().toUpperCase(),
      asset: values.asset,
      amount: values.amount.trim(),
      maxRedemptions: values.maxRedemptions,
      perUserLimit: values.perUserLimit,
      ...(values.startsAt ? { startsAt: fromLocalInput(values.startsAt) } : {}),
      expiresAt: fromLocalInput(values.expiresAt),
      verifiedOnly: values.verifiedOnly,
      onePerIdentity: values.onePerIdentity,
      ...(values.reason?.trim() ? { reason: values.reason.trim() } : {}),
    };
    create.mutate(body, {
      onSuccess: (created) => {
        setCreating(false);
        form.resetFields();
        if (created.approvalStatus === 'pending')
          message.warning(t('createdPending', { code: created.code }));
        else message.success(t('created', { code: created.code }));
      },
      onError: (error) => {
        showFieldErrors(form, error);
        message.error(errorText(error));
      },
    });
  }

  return (
    <>
      <QueryTable<BonusCodeView>
        query={list}
        create={{ label: t('create'), testId: 'bonus-create', onClick: () => setCreating(true) }}
        columns={[
          { title: t('code'), dataIndex: 'code', render: (code: string) => <code>{code}</code> },
          {
            title: t('reward'),
            key: 'reward',
            render: (_: unknown, row) => (
              <Space direction="vertical" size={0}>
                <Amount value={row.amount} asset={row.asset} />
                <span style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>
                  {t('total', { total: `${row.total} ${row.asset}` })}
                </span>
              </Space>
            ),
          },
          {
            title: t('redeemed'),
            key: 'redeemed',
            width: 220,
            render: (_: unknown, row) => (
              <Space>
                <span style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {row.redeemedCount} / {row.maxRedemptions}
                </span>
                <Progress
                  percent={Math.min(
                    100,
                    Math.round((row.redeemedCount * 100) / row.maxRedemptions),
                  )}
                  size="small"
                  showInfo={false}
                  style={{ width: 80 }}
                />
              </Space>
            ),
          },
          { title: t('perUserLimit'), dataIndex: 'perUserLimit', width: 80 },
          {
            title: t('eligibility'),
            key: 'eligibility',
            width: 140,
            render: (_: unknown, row) =>
              `${row.verifiedOnly ? t('eligibleVerified') : t('eligibleAll')}${row.onePerIdentity ? ` · ${t('perIdentity')}` : ''}`,
          },
          {
            title: t('window'),
            key: 'window',
            width: 190,
            render: (_: unknown, row) => (
              <Space direction="vertical" size={0}>
                <span>{formatTime(row.startsAt)} –</span>
                <span>{formatTime(row.expiresAt)}</span>
              </Space>
            ),
          },
          {
            title: t('approval'),
            key: 'approval',
            width: 250,
            render: (_: unknown, row) => {
              const tag = (
                <Tag
                  color={APPROVAL_COLOURS[row.approvalStatus]}
                  data-testid={`bonus-approval-${row.code}`}
                >
                  {t(`approval_${row.approvalStatus}`)}
                </Tag>
              );
              if (row.approvalStatus !== 'pending')
                return (
                  <Space direction="vertical" size={0}>
                    {tag}
                    {row.approvedBy ? (
                      <span style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>
                        {t('decidedBy', { name: row.approvedBy })}
                      </span>
                    ) : null}
                  </Space>
                );
              const mine = row.createdBy === me.data?.username;
              return (
                <Space direction="vertical" size={4}>
                  {tag}
                  {mine ? (
                    <span style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>{t('yourCode')}</span>
                  ) : me.data?.role !== 'admin' ? (
                    <span style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>
                      {t('adminsDecide')}
                    </span>
                  ) : (
                    <DecisionButtons
                      confirm={{
                        uid: t('everyRedeemer'),
                        asset: row.asset,
                        amount: row.amount,
                        amountLabel: t('perRedemption'),
                        facts: [
                          { label: t('totalLabel'), value: `${row.total} ${row.asset}` },
                          { label: t('maxRedemptions'), value: String(row.maxRedemptions) },
                          ...(row.createdBy ? [{ label: t('creator'), value: row.createdBy }] : []),
                        ],
                        title: t('approveTitle', { code: row.code }),
                        effect: t('approveEffect'),
                        okText: t('approveOk'),
                      }}
                      onDecide={(decision, reason) =>
                        decide.mutateAsync({
                          id: row.id,
                          decision,
                          ...(reason ? { reason } : {}),
                        })
                      }
                    />
                  )}
                </Space>
              );
            },
          },
          {
            title: t('status'),
            key: 'status',
            width: 100,
            render: (_: unknown, row) => {
              const status = statusOf(row, now);
              return <Tag color={STATUS_COLOURS[status]}>{t(status)}</Tag>;
            },
          },
        ]}
      />
      <Modal
        open={creating}
        width={620}
        title={t('create')}
        okText={t('save')}
        cancelText={t('cancel')}
        confirmLoading={create.isPending}
        onCancel={() => setCreating(false)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Alert
          type="info"
          title={t('moneyNote')}
          description={t('thresholdNote')}
          style={{ marginBottom: 16 }}
        />
        <Form<CodeForm>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{
            asset: 'USDT',
            maxRedemptions: 1000,
            perUserLimit: 1,
            verifiedOnly: true,
            onePerIdentity: false,
            expiresAt: toLocalInput(now + 30 * 86_400_000),
          }}
        >
          <Form.Item
            name="code"
            label={t('code')}
            rules={[
              {
                required: true,
                pattern: /^[A-Za-z0-9][A-Za-z0-9-]{2,30}[A-Za-z0-9]$/,
                message: t('codeRule'),
              },
            ]}
          >
            <Input data-testid="bonus-code" style={{ textTransform: 'uppercase' }} maxLength={32} />
          </Form.Item>
          <Space size="middle" wrap>
            <Form.Item name="asset" label={t('asset')} rules={[{ required: true }]}>
              <Select
                style={{ width: 120 }}
                options={ASSET_CODES.map((code) => ({ value: code, label: code }))}
              />
            </Form.Item>
            <Form.Item
              name="amount"
              label={t('amount')}
              rules={[{ required: true, pattern: /^\d+(\.\d+)?$/, message: t('required') }]}
            >
              <Input data-testid="bonus-amount" style={{ width: 160 }} inputMode="decimal" />
            </Form.Item>
            <Form.Item
              name="maxRedemptions"
              label={t('maxRedemptions')}
              rules={[{ required: true }]}
            >
              <InputNumber
                min={1}
                max={BONUS_CODE_MAX_REDEMPTIONS}
                precision={0}
                style={{ width: 140 }}
              />
            </Form.Item>
            <Form.Item name="perUserLimit" label={t('perUserLimit')} rules={[{ required: true }]}>
              <InputNumber
                min={1}
                max={BONUS_CODE_MAX_PER_USER}
                precision={0}
                style={{ width: 100 }}
              />
            </Form.Item>
          </Space>
          <Space size="middle" wrap>
            <Form.Item name="startsAt" label={t('startsAt')} extra={t('startsHelp')}>
              <Input type="datetime-local" />
            </Form.Item>
            <Form.Item
              name="expiresAt"
              label={t('expiresAt')}
              rules={[{ required: true, message: t('required') }]}
            >
              <Input type="datetime-local" />
            </Form.Item>
          </Space>
          <Space size="large">
            <Form.Item name="verifiedOnly" label={t('verifiedOnly')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="onePerIdentity" label={t('onePerIdentity')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Space>
          <Form.Item name="reason" label={t('reason')}>
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
