import { OPERATOR_ROLES, type Operator, type OperatorRole, operatorCreatedSchema, operatorListSchema } from '@tradewind/contract/operator';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, QRCode, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { z } from 'zod';
import { ApiError, api } from '@admin/api/client';
import { useRoleName } from '@admin/app/Shell';
import { formatTime } from '@admin/lib/format';
import { defineStrings } from '@admin/lib/i18n';

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

const KEY = ['admin', 'operators'] as const;
type Created = z.infer<typeof operatorCreatedSchema>;

/** Administrators create operators (password and TOTP secret shown once) and disable them with a reason. */
export default function Operators() {
  const t = useT();
  const roleName = useRoleName();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: () => api.get('/operators', operatorListSchema) });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Created>();
  const [toggling, setToggling] = useState<Operator>();
  const [form] = Form.useForm<{ username: string; role: OperatorRole }>();
  const [reasonForm] = Form.useForm<{ reason: string }>();

  const create = useMutation({
    mutationFn: (values: { username: string; role: OperatorRole }) => api.post('/operators', operatorCreatedSchema, values),
    onSuccess: (result) => {
      setCreating(false);
      form.resetFields();
      setCreated(result);
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) form.setFields(Object.entries(error.fields).map(([name, errors]) => ({ name: name as 'username', errors })));
      else message.error(error instanceof ApiError ? error.detail : String(error));
    },
  });
  const toggle = useMutation({
    mutationFn: (input: { id: number; disabled: boolean; reason: string }) => api.post('/operators/disable', z.object({ ok: z.literal(true) }), input),
    onSuccess: () => {
      setToggling(undefined);
      reasonForm.resetFields();
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: (error) => message.error(error instanceof ApiError ? error.detail : String(error)),
  });

  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <Button type="primary" onClick={() => setCreating(true)} data-testid="operator-create">
          {t('create')}
        </Button>
      </Space>
      {list.isError && <Alert type="error" title={(list.error as Error).message} />}
      <Table<Operator>
        rowKey="id"
        loading={list.isPending}
        dataSource={list.data?.items}
        pagination={false}
        columns={[
          { title: t('username'), dataIndex: 'username' },
          { title: t('role'), dataIndex: 'role', render: (role: OperatorRole) => roleName(role) },
          { title: t('created'), dataIndex: 'createdAt', render: (at: string) => formatTime(at) },
          { title: t('status'), dataIndex: 'disabledAt', render: (at: string | null) => (at ? <Tag color="red">{t('disabled')}</Tag> : <Tag color="green">{t('active')}</Tag>) },
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
      <Modal open={creating} title={t('create')} okText={t('save')} cancelText={t('cancel')} confirmLoading={create.isPending} onCancel={() => setCreating(false)} onOk={() => form.submit()}>
        <Form form={form} layout="vertical" onFinish={(values) => create.mutate(values)} initialValues={{ role: 'reviewer' }}>
          <Form.Item name="username" label={t('username')} rules={[{ required: true, pattern: /^[A-Za-z0-9._-]{3,64}$/, message: t('usernameRule') }]}>
            <Input data-testid="operator-username" />
          </Form.Item>
          <Form.Item name="role" label={t('role')} rules={[{ required: true }]}>
            <Select options={OPERATOR_ROLES.map((role) => ({ value: role, label: roleName(role) }))} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal open={created !== undefined} title={created ? t('onceTitle', { name: created.username }) : ''} closable={false} maskClosable={false} footer={<Button onClick={() => setCreated(undefined)}>{t('close')}</Button>}>
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
      <Modal
        open={toggling !== undefined}
        title={toggling ? t(toggling.disabledAt ? 'enableTitle' : 'disableTitle', { name: toggling.username }) : ''}
        okText={toggling?.disabledAt ? t('enable') : t('disable')}
        okButtonProps={{ danger: !toggling?.disabledAt }}
        cancelText={t('cancel')}
        confirmLoading={toggle.isPending}
        onCancel={() => setToggling(undefined)}
        onOk={() => reasonForm.submit()}
      >
        <Typography.Paragraph type="secondary">{t('disableHelp')}</Typography.Paragraph>
        <Form form={reasonForm} layout="vertical" onFinish={({ reason }) => toggling && toggle.mutate({ id: toggling.id, disabled: !toggling.disabledAt, reason })}>
          <Form.Item name="reason" label={t('reason')} rules={[{ required: true, whitespace: true, message: t('reasonRequired') }]}>
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
