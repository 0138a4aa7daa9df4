import {
  OPERATOR_ROLES,
  type Operator,
  type OperatorRole,
  type operatorCreatedSchema,
} from '@tradewind/contract/operator';
import { App, Button, Form, Input, Modal, QRCode, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import { formatTime } from '@/lib/format.ts';
import { errorText, showFieldErrors } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { useRoleName } from '@/lib/role-names.ts';
import { QueryTable } from '@/ui/query-table.tsx';
import { ReasonModal } from '@/ui/reason-modal.tsx';
import { useCreateOperator } from './api/create-operator.ts';
import { useDisableOperator } from './api/disable-operator.ts';
import { useOperators } from './api/get-operators.ts';

const useT = defineStrings({
  en: {
    create: 'New operator',
    username: 'Name',
    role: 'Role',
    created: 'Created',
    status: 'Status',
    active: 'Active',
    disabled: 'Disabled',
    disable: 'Disable',
    enable: 'Enable',
    reason: 'Reason',
    reasonRequired: 'A reason is required.',
    save: 'Create',
    cancel: 'Cancel',
    usernameRule: '3–64 letters, digits, dots, dashes or underscores.',
    onceTitle: 'Give these to {name} now: they are shown only once',
    password: 'Password',
    secret: 'Authenticator secret',
    scan: 'Scan with an authenticator app, or type the secret.',
    close: 'I have handed them over',
    disableTitle: 'Disable {name}',
    enableTitle: 'Enable {name}',
    disableHelp: 'Their sessions end at once; the audit log keeps their actions.',
  },
  'zh-CN': {
    create: '新建操作员',
    username: '用户名',
    role: '角色',
    created: '创建时间',
    status: '状态',
    active: '正常',
    disabled: '已停用',
    disable: '停用',
    enable: '启用',
    reason: '原因',
    reasonRequired: '必须填写原因。',
    save: '创建',
    cancel: '取消',
    usernameRule: '3–64 个字母、数字、点、短横线或下划线。',
    onceTitle: '请立即交给 {name}：以下信息只显示一次',
    password: '密码',
    secret: '身份验证器密钥',
    scan: '用身份验证器应用扫描，或手动输入密钥。',
    close: '我已交付',
    disableTitle: '停用 {name}',
    enableTitle: '启用 {name}',
    disableHelp: '其会话立即结束；审计日志保留其操作记录。',
  },
});

type Created = z.infer<typeof operatorCreatedSchema>;

/** Administrators create operators (password and TOTP secret shown once) and disable them with a reason. */
export function OperatorsPage() {
  const t = useT();
  const roleName = useRoleName();
  const { message } = App.useApp();
  const list = useOperators();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Created>();
  const [toggling, setToggling] = useState<Operator>();
  const [form] = Form.useForm<{ username: string; role: OperatorRole }>();
  const create = useCreateOperator();
  const toggle = useDisableOperator();

  function submit(values: { username: string; role: OperatorRole }) {
    create.mutate(values, {
      onSuccess: (result) => {
        setCreating(false);
        form.resetFields();
        setCreated(result);
      },
      onError: (error) => {
        if (!showFieldErrors(form, error)) message.error(errorText(error));
      },
    });
  }

  return (
    <>
      <QueryTable<Operator>
        query={list}
        create={{ label: t('create'), testId: 'operator-create', onClick: () => setCreating(true) }}
        columns={[
          { title: t('username'), dataIndex: 'username' },
          { title: t('role'), dataIndex: 'role', render: (role: OperatorRole) => roleName(role) },
          { title: t('created'), dataIndex: 'createdAt', render: (at: string) => formatTime(at) },
          {
            title: t('status'),
            dataIndex: 'disabledAt',
            render: (at: string | null) =>
              at ? <Tag color="red">{t('disabled')}</Tag> : <Tag color="green">{t('active')}</Tag>,
          },
          {
            title: '',
            key: 'action',
            render: (_: unknown, row) => (
              <Button size="small" danger={!row.disabledAt} onClick={() => setToggling(row)}>
                {row.disabledAt ? t('enable') : t('disable')}
              </Button>
            ),
          },
        ]}
      />
      <Modal
        open={creating}
        title={t('create')}
        okText={t('save')}
        cancelText={t('cancel')}
        confirmLoading={create.isPending}
        onCancel={() => setCreating(false)}
        onOk={() => form.submit()}
      >
        <Form form={form} layout="vertical" onFinish={submit} initialValues={{ role: 'reviewer' }}>
          <Form.Item
            name="username"
            label={t('username')}
            rules={[
              { required: true, pattern: /^[A-Za-z0-9._-]{3,64}$/, message: t('usernameRule') },
            ]}
          >
            <Input data-testid="operator-username" />
          </Form.Item>
          <Form.Item name="role" label={t('role')} rules={[{ required: true }]}>
            <Select
              options={OPERATOR_ROLES.map((role) => ({ value: role, label: roleName(role) }))}
            />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={created !== undefined}
        title={created ? t('onceTitle', { name: created.username }) : ''}
        closable={false}
        maskClosable={false}
        footer={<Button onClick={() => setCreated(undefined)}>{t('close')}</Button>}
      >
        {created && (
          <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
            <div>
              <Typography.Text type="secondary">{t('password')}</Typography.Text>
              <Typography.Paragraph copyable code data-testid="created-password">
                {created.password}
              </Typography.Paragraph>
            </div>
            <div>
              <Typography.Text type="secondary">{t('secret')}</Typography.Text>
              <Typography.Paragraph copyable code data-testid="created-secret">
                {created.totpSecret}
              </Typography.Paragraph>
              <QRCode value={created.otpauthUri} size={160} />
              <Typography.Paragraph type="secondary">{t('scan')}</Typography.Paragraph>
            </div>
          </Space>
        )}
      </Modal>
      <ReasonModal
        open={toggling !== undefined}
        title={
          toggling
            ? t(toggling.disabledAt ? 'enableTitle' : 'disableTitle', { name: toggling.username })
            : ''
        }
        help={t('disableHelp')}
        label={t('reason')}
        okText={toggling?.disabledAt ? t('enable') : t('disable')}
        danger={!toggling?.disabledAt}
        cancelText={t('cancel')}
        requiredText={t('reasonRequired')}
        loading={toggle.isPending}
        onCancel={() => setToggling(undefined)}
        onSubmit={(reason) =>
          toggling &&
          toggle.mutate(
            { id: toggling.id, disabled: !toggling.disabledAt, reason: reason ?? '' },
            {
              onSuccess: () => setToggling(undefined),
              onError: (error) => message.error(errorText(error)),
            },
          )
        }
      />
    </>
  );
}
