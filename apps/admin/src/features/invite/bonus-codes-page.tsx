import {
  BONUS_CODE_MAX_PER_USER,
  BONUS_CODE_MAX_REDEMPTIONS,
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
import { formatTime } from '@/lib/format.ts';
import { errorText, showFieldErrors } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { fromLocalInput, toLocalInput } from '@/lib/local-time.ts';
import { Amount } from '@/ui/amount.tsx';
import { QueryTable } from '@/ui/query-table.tsx';
import { useCreateBonusCode } from './api/create-bonus-code.ts';
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
  reason?: string;
}

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
      ...(values.reason?.trim() ? { reason: values.reason.trim() } : {}),
    };
    create.mutate(body, {
      onSuccess: (created) => {
        setCreating(false);
        form.resetFields();
        message.success(t('created', { code: created.code }));
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
            render: (_: unknown, row) => <Amount value={row.amount} asset={row.asset} />,
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
          { title: t('perUserLimit'), dataIndex: 'perUserLimit', width: 90 },
          {
            title: t('verifiedOnly'),
            dataIndex: 'verifiedOnly',
            width: 130,
            render: (v: boolean) => (v ? t('yes') : t('no')),
          },
          {
            title: t('window'),
            key: 'window',
            width: 330,
            render: (_: unknown, row) =>
              `${formatTime(row.startsAt)} – ${formatTime(row.expiresAt)}`,
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
        <Alert type="info" title={t('moneyNote')} style={{ marginBottom: 16 }} />
        <Form<CodeForm>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{
            asset: 'USDT',
            maxRedemptions: 1000,
            perUserLimit: 1,
            verifiedOnly: false,
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
          <Form.Item name="verifiedOnly" label={t('verifiedOnly')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="reason" label={t('reason')}>
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
