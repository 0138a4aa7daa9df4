import {
  type SharedSettingChange,
  type SharedSettingName,
  type SharedSettings,
} from '@tradewind/contract/operator';
import { Alert, App, Button, Card, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useMe } from '@/api/get-me.ts';
import { formatTime } from '@/lib/format.ts';
import { errorText, showFieldErrors } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { DecidedStatus } from '@/ui/decided-status.tsx';
import { DecisionButtons } from '@/ui/decision-buttons.tsx';
import { useDecideSharedSetting } from './api/decide-shared-setting.ts';
import { useSharedSettings } from './api/get-shared-settings.ts';
import { useRequestSharedSetting } from './api/request-shared-setting.ts';

const useT = defineStrings({
  en: {
    title: 'Install-wide settings',
    hint: 'Every node reads these from the database, so all apply the same value. One admin requests a change, a different admin approves it; it applies on every node the moment it is approved. A node’s environment only seeds them on the install’s first start.',
    name: 'Setting',
    value: 'Applied on every node',
    defaultValue: 'Default',
    setBy: 'Set by',
    environment: 'environment (first start)',
    byDefault: 'default',
    change: 'Change',
    changes: 'Changes',
    newValue: 'New value',
    previous: 'Was',
    reason: 'Why (kept in the audit log)',
    submit: 'Request',
    cancel: 'Cancel',
    requested: 'Change #{id} requested: another admin approves it.',
    required: 'Required.',
    requestedBy: 'Requested by',
    status: 'Status',
    yourRequest: 'Your request: another admin decides',
    empty: 'No changes yet.',
    status_pending: 'Pending',
    status_approved: 'Approved',
    status_rejected: 'Rejected',
    CONTRACT_MAX_OPEN_ORDERS: 'Open instant contracts per user',
    CONVERT_FEE_BPS: 'Conversion fee (basis points)',
    MINING_AUTO_APPROVE: 'Rentals start without review (demo only)',
    WITHDRAWAL_SECOND_APPROVAL: 'Withdrawals above these need a second approval',
    BONUS_CODE_APPROVAL_THRESHOLD: 'Bonus codes above these totals need a second admin',
    CARD_DEPOSIT_FEE_BPS: 'Bank-card deposit fee (basis points)',
    CARD_DEPOSIT_MIN_USDT: 'Smallest bank-card deposit (USDT)',
    CARD_DEPOSIT_MAX_USDT: 'Largest bank-card deposit (USDT)',
    MARKET_QUARANTINE_BAND_PPM: 'Price quarantine band (parts per million)',
    UPLOAD_MAX_BYTES: 'Largest upload (bytes)',
    UPLOAD_MAX_SIDE_PX: 'Longest side an image is kept at (px)',
    PRODUCT_LOANS_ENABLED: 'Loans on (false: "under development", no new applications)',
    PRODUCT_MINING_ENABLED: 'Mining on (false: no new rentals; running ones still pay)',
    PRODUCT_IEO_ENABLED: 'IEO on (false: no new subscriptions; commitments still settle)',
    PRODUCT_SHOP_ENABLED: 'Points shop on (false: no new purchases)',
    everyone: 'Everyone on this install (every node)',
    approveTitle: 'Approve settings change #{id}?',
    approveEffect: 'Every node applies the new value the moment you confirm.',
    approveOk: 'Approve the change',
  },
  'zh-CN': {
    title: '全站设置',
    hint: '所有节点都从数据库读取这些设置，因此取值一致。一位管理员申请修改，另一位管理员审批；审批通过后立即在所有节点生效。节点的环境变量只在首次启动时写入初始值。',
    name: '设置项',
    value: '各节点采用的值',
    defaultValue: '默认值',
    setBy: '设置人',
    environment: '环境变量（首次启动）',
    byDefault: '默认',
    change: '修改',
    changes: '修改记录',
    newValue: '新值',
    previous: '原值',
    reason: '原因（记入审计日志）',
    submit: '提交申请',
    cancel: '取消',
    requested: '修改 #{id} 已提交，需另一位管理员审批。',
    required: '必填。',
    requestedBy: '申请人',
    status: '状态',
    yourRequest: '您的申请：需另一位管理员审批',
    empty: '暂无修改。',
    status_pending: '待审批',
    status_approved: '已批准',
    status_rejected: '已拒绝',
    CONTRACT_MAX_OPEN_ORDERS: '每位用户的未到期秒合约数',
    CONVERT_FEE_BPS: '闪兑手续费（基点）',
    MINING_AUTO_APPROVE: '矿机租赁免审核（仅演示模式）',
    WITHDRAWAL_SECOND_APPROVAL: '超过此金额的提现需第二人审批',
    BONUS_CODE_APPROVAL_THRESHOLD: '总额超过此值的奖励码需第二位管理员审批',
    CARD_DEPOSIT_FEE_BPS: '银行卡充值手续费（基点）',
    CARD_DEPOSIT_MIN_USDT: '银行卡充值最低金额（USDT）',
    CARD_DEPOSIT_MAX_USDT: '银行卡充值最高金额（USDT）',
    MARKET_QUARANTINE_BAND_PPM: '价格隔离阈值（百万分之一）',
    UPLOAD_MAX_BYTES: '上传文件上限（字节）',
    UPLOAD_MAX_SIDE_PX: '图片保存的最长边（像素）',
    PRODUCT_LOANS_ENABLED: '开启贷款（false：显示“开发中”，不受理新申请）',
    PRODUCT_MINING_ENABLED: '开启矿机（false：不受理新租用，运行中的照常发放）',
    PRODUCT_IEO_ENABLED: '开启 IEO（false：不受理新申购，已有申购照常结算）',
    PRODUCT_SHOP_ENABLED: '开启积分商城（false：不受理新兑换）',
    everyone: '本站所有用户（所有节点）',
    approveTitle: '批准设置修改 #{id}？',
    approveEffect: '确认后所有节点立即采用新值。',
    approveOk: '批准修改',
  },
});

type Item = SharedSettings['items'][number];

interface RequestForm {
  value: string;
  reason: string;
}

/** The settings every node applies from the database (issue 30): two admins change one. */
export function SharedSettingsCard() {
  const t = useT();
  const { message } = App.useApp();
  const me = useMe();
  const settings = useSharedSettings();
  const request = useRequestSharedSetting();
  const decide = useDecideSharedSetting();
  const [editing, setEditing] = useState<Item | null>(null);
  const [form] = Form.useForm<RequestForm>();

  function submit(values: RequestForm) {
    if (!editing) return;
    request.mutate(
      { name: editing.name, value: values.value.trim(), reason: values.reason.trim() },
      {
        onSuccess: (created) => {
          setEditing(null);
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

  const label = (name: SharedSettingName) => (
    <Space direction="vertical" size={0}>
      <span>{t(name)}</span>
      <Typography.Text code type="secondary">
        {name}
      </Typography.Text>
    </Space>
  );

  return (
    <Card title={t('title')} size="small" data-testid="shared-settings">
      <Typography.Paragraph type="secondary" style={{ maxWidth: 760 }}>
        {t('hint')}
      </Typography.Paragraph>
      {settings.error ? <Alert type="error" title={errorText(settings.error)} /> : null}
      <Table<Item>
        rowKey="name"
        size="small"
        pagination={false}
        loading={settings.isLoading}
        dataSource={settings.data?.items ?? []}
        columns={[
          { title: t('name'), key: 'name', render: (_, item) => label(item.name) },
          {
            title: t('value'),
            key: 'value',
            render: (_, item) => (
              <Typography.Text strong data-testid={`shared-value-${item.name}`}>
                {item.value}
              </Typography.Text>
            ),
          },
          { title: t('defaultValue'), dataIndex: 'defaultValue' },
          {
            title: t('setBy'),
            key: 'setBy',
            render: (_, item) =>
              item.setBy === null
                ? t('byDefault')
                : `${item.setBy === 'environment' ? t('environment') : item.setBy}${item.setAt ? ` · ${formatTime(item.setAt)}` : ''}`,
          },
          {
            title: '',
            key: 'change',
            width: 100,
            render: (_, item) => (
              <Button
                size="small"
                data-testid={`shared-change-${item.name}`}
                onClick={() => {
                  form.setFieldsValue({ value: item.value, reason: '' });
                  setEditing(item);
                }}
              >
                {t('change')}
              </Button>
            ),
          },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('changes')}
      </Typography.Title>
      <Table<SharedSettingChange>
        rowKey="id"
        size="small"
        pagination={false}
        loading={settings.isLoading}
        dataSource={settings.data?.changes ?? []}
        locale={{ emptyText: t('empty') }}
        data-testid="shared-setting-changes"
        columns={[
          { title: '#', dataIndex: 'id', width: 56 },
          { title: t('name'), key: 'name', render: (_, c) => label(c.name) },
          {
            title: t('newValue'),
            key: 'value',
            render: (_, c) => (
              <Space direction="vertical" size={0}>
                <Typography.Text strong>{c.value}</Typography.Text>
                <Typography.Text type="secondary">
                  {t('previous')}: {c.previous}
                </Typography.Text>
              </Space>
            ),
          },
          { title: t('reason'), dataIndex: 'reason' },
          {
            title: t('requestedBy'),
            key: 'requestedBy',
            render: (_, c) => `${c.requestedBy} · ${formatTime(c.requestedAt)}`,
          },
          {
            title: t('status'),
            key: 'status',
            width: 240,
            render: (_, c) => {
              if (c.status !== 'pending')
                return <DecidedStatus {...c} label={t(`status_${c.status}`)} />;
              if (c.requestedBy === me.data?.username) return <Tag>{t('yourRequest')}</Tag>;
              return (
                <DecisionButtons
                  confirm={{
                    uid: t('everyone'),
                    facts: [
                      { label: t('name'), value: `${t(c.name)} (${c.name})` },
                      { label: t('previous'), value: c.previous },
                      { label: t('newValue'), value: c.value },
                      { label: t('reason'), value: c.reason },
                    ],
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
      <Modal
        open={editing !== null}
        title={editing ? `${t('change')}: ${t(editing.name)}` : ''}
        okText={t('submit')}
        cancelText={t('cancel')}
        confirmLoading={request.isPending}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form<RequestForm> form={form} layout="vertical" onFinish={submit}>
          <Form.Item
            name="value"
            label={editing ? <Typography.Text code>{editing.name}</Typography.Text> : t('newValue')}
            extra={editing ? `${t('defaultValue')}: ${editing.defaultValue}` : null}
            rules={[{ required: true, whitespace: true, message: t('required') }]}
          >
            <Input data-testid="shared-new-value" maxLength={200} />
          </Form.Item>
          <Form.Item
            name="reason"
            label={t('reason')}
            rules={[{ required: true, whitespace: true, message: t('required') }]}
          >
            <Input.TextArea data-testid="shared-reason" rows={2} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
