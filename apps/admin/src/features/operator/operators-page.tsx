import {
  OPERATOR_ROLES,
  type Operator,
  type OperatorRequest,
  type OperatorRole,
} from '@tradewind/contract/operator';
import { App, Button, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { formatTime } from '@/lib/format.ts';
import { errorText, showFieldErrors } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { useRoleName } from '@/lib/role-names.ts';
import { QueryTable } from '@/ui/query-table.tsx';
import { ReasonModal } from '@/ui/reason-modal.tsx';
import { useDisableOperator } from './api/disable-operator.ts';
import { useOperators } from './api/get-operators.ts';
import { useDecideOperatorRequest } from './api/decide-operator-request.ts';
import { useOperatorRequests } from './api/get-operator-requests.ts';
import { useRequestOperatorChange } from './api/request-operator-change.ts';

const useT = defineStrings({
  en: {
    create: 'Request a new operator',
    username: 'Name',
    role: 'Role',
    created: 'Created',
    status: 'Status',
    active: 'Active',
    disabled: 'Disabled',
    notEnrolled: 'Not enrolled yet',
    disable: 'Disable',
    enable: 'Request enabling',
    changeRole: 'Request role change',
    reason: 'Reason',
    reasonRequired: 'A reason is required.',
    send: 'Send request',
    cancel: 'Cancel',
    usernameRule: '3–64 letters, digits, dots, dashes or underscores.',
    twoPeople:
      'A second administrator approves this request. The new operator then sets their own password and authenticator with a one-time enrolment link; you never see their credentials.',
    requests: 'Operator requests',
    kind: 'Request',
    kind_create: 'New operator',
    kind_enable: 'Enable again',
    kind_role: 'Role change',
    requestedBy: 'Requested by',
    decidedBy: 'Decided by',
    status_pending: 'Waiting for approval',
    status_approved: 'Approved',
    status_rejected: 'Rejected',
    approve: 'Approve',
    reject: 'Reject',
    approveTitle: 'Approve: {what}',
    rejectTitle: 'Reject: {what}',
    approveHelp:
      'Approve only if you know this person and the request is right. You cannot approve your own requests, nor those of an operator you brought in within 7 days.',
    linkTitle: 'Enrolment link for {name}: shown only once',
    linkHelp:
      'Give this link to {name} in person or over a channel you trust. It works once and expires {at}. They set their own password and authenticator with it.',
    close: 'I have handed it over',
    disableTitle: 'Disable {name}',
    enableTitle: 'Enable {name} again',
    roleTitle: 'Change the role of {name}',
    disableHelp: 'Their sessions end at once; the audit log keeps their actions.',
    none: 'No requests.',
  },
  'zh-CN': {
    create: '申请新操作员',
    username: '用户名',
    role: '角色',
    created: '创建时间',
    status: '状态',
    active: '正常',
    disabled: '已停用',
    notEnrolled: '尚未开通',
    disable: '停用',
    enable: '申请重新启用',
    changeRole: '申请变更角色',
    reason: '原因',
    reasonRequired: '必须填写原因。',
    send: '提交申请',
    cancel: '取消',
    usernameRule: '3–64 个字母、数字、点、短横线或下划线。',
    twoPeople:
      '此申请须由第二位管理员批准。之后新操作员通过一次性开通链接自行设置密码和身份验证器；您不会看到其登录凭据。',
    requests: '操作员申请',
    kind: '申请',
    kind_create: '新操作员',
    kind_enable: '重新启用',
    kind_role: '角色变更',
    requestedBy: '申请人',
    decidedBy: '处理人',
    status_pending: '等待批准',
    status_approved: '已批准',
    status_rejected: '已拒绝',
    approve: '批准',
    reject: '拒绝',
    approveTitle: '批准：{what}',
    rejectTitle: '拒绝：{what}',
    approveHelp:
      '仅在您认识此人且申请无误时批准。您不能批准自己的申请，也不能批准您在 7 天内引入的操作员的申请。',
    linkTitle: '{name} 的开通链接：只显示一次',
    linkHelp:
      '请当面或通过可信渠道将此链接交给 {name}。链接只能使用一次，于 {at} 过期。对方用它自行设置密码和身份验证器。',
    close: '我已交付',
    disableTitle: '停用 {name}',
    enableTitle: '重新启用 {name}',
    roleTitle: '变更 {name} 的角色',
    disableHelp: '其会话立即结束；审计日志保留其操作记录。',
    none: '暂无申请。',
  },
});

type Decision = { request: OperatorRequest; decision: 'approve' | 'reject' };
type Change = { operator: Operator; kind: 'enable' | 'role' | 'disable' };

/**
 * Administrators request new operators, enabling one again or a role change; another
 * administrator approves. Disabling is one person's call. A new operator's enrolment link is
 * shown once, to the approver, for them to hand over (decision 0025).
 */
export function OperatorsPage() {
  const t = useT();
  const roleName = useRoleName();
  const { message } = App.useApp();
  const list = useOperators();
  const requests = useOperatorRequests();
  const [creating, setCreating] = useState(false);
  const [changing, setChanging] = useState<Change>();
  const [deciding, setDeciding] = useState<Decision>();
  const [link, setLink] = useState<{ name: string; url: string; expiresAt: string }>();
  const [form] = Form.useForm<{ username: string; role: OperatorRole; reason: string }>();
  const [roleForm] = Form.useForm<{ role: OperatorRole; reason: string }>();
  const request = useRequestOperatorChange();
  const decide = useDecideOperatorRequest();
  const disable = useDisableOperator();

  const what = (r: OperatorRequest) => `${t(`kind_${r.kind}`)} ${r.username} (${roleName(r.role)})`;

  function submitCreate(values: { username: string; role: OperatorRole; reason: string }) {
    request.mutate(
      { kind: 'create', ...values },
      {
        onSuccess: () => {
          setCreating(false);
          form.resetFields();
        },
        onError: (error) => {
          if (!showFieldErrors(form, error)) message.error(errorText(error));
        },
      },
    );
  }

  function submitRole(values: { role: OperatorRole; reason: string }) {
    if (!changing) return;
    request.mutate(
      { kind: 'role', id: changing.operator.id, ...values },
      {
        onSuccess: () => setChanging(undefined),
        onError: (error) => {
          if (!showFieldErrors(roleForm, error)) message.error(errorText(error));
        },
      },
    );
  }

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <QueryTable<Operator>
        query={list}
        create={{ label: t('create'), testId: 'operator-create', onClick: () => setCreating(true) }}
        columns={[
          { title: t('username'), dataIndex: 'username' },
          { title: t('role'), dataIndex: 'role', render: (role: OperatorRole) => roleName(role) },
          { title: t('created'), dataIndex: 'createdAt', render: (at: string) => formatTime(at) },
          {
            title: t('status'),
            key: 'status',
            render: (_: unknown, row) =>
              row.disabledAt ? (
                <Tag color="red">{t('disabled')}</Tag>
              ) : row.enrolled ? (
                <Tag color="green">{t('active')}</Tag>
              ) : (
                <Tag color="gold">{t('notEnrolled')}</Tag>
              ),
          },
          {
            title: '',
            key: 'action',
            render: (_: unknown, row) => (
              <Space>
                <Button
                  size="small"
                  onClick={() => {
                    roleForm.setFieldsValue({ role: row.role });
                    setChanging({ operator: row, kind: 'role' });
                  }}
                >
                  {t('changeRole')}
                </Button>
                <Button
                  size="small"
                  danger={!row.disabledAt}
                  onClick={() =>
                    setChanging({ operator: row, kind: row.disabledAt ? 'enable' : 'disable' })
                  }
                >
                  {row.disabledAt ? t('enable') : t('disable')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <div>
        <Typography.Title level={4}>{t('requests')}</Typography.Title>
        <Table<OperatorRequest>
          rowKey="id"
          size="middle"
          loading={requests.isPending}
          dataSource={requests.data?.items ?? []}
          pagination={false}
          locale={{ emptyText: t('none') }}
          data-testid="operator-requests"
          columns={[
            {
              title: t('kind'),
              key: 'kind',
              render: (_: unknown, r) => what(r),
            },
            { title: t('reason'), dataIndex: 'reason' },
            { title: t('requestedBy'), dataIndex: 'requestedBy' },
            { title: t('created'), dataIndex: 'createdAt', render: (at: string) => formatTime(at) },
            {
              title: t('status'),
              key: 'status',
              render: (_: unknown, r) => (
                <Space orientation="vertical" size={0}>
                  <Tag
                    color={
                      r.status === 'pending' ? 'gold' : r.status === 'approved' ? 'green' : 'red'
                    }
                  >
                    {t(`status_${r.status}`)}
                  </Tag>
                  {r.decidedBy && (
                    <Typography.Text type="secondary">
                      {t('decidedBy')}: {r.decidedBy}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            {
              title: '',
              key: 'decide',
              render: (_: unknown, r) =>
                r.status === 'pending' && (
                  <Space>
                    <Button
                      size="small"
                      type="primary"
                      data-testid={`request-approve-${r.id}`}
                      onClick={() => setDeciding({ request: r, decision: 'approve' })}
                    >
                      {t('approve')}
                    </Button>
                    <Button
                      size="small"
                      danger
                      onClick={() => setDeciding({ request: r, decision: 'reject' })}
                    >
                      {t('reject')}
                    </Button>
                  </Space>
                ),
            },
          ]}
        />
      </div>
      <Modal
        open={creating}
        title={t('create')}
        okText={t('send')}
        cancelText={t('cancel')}
        confirmLoading={request.isPending}
        onCancel={() => setCreating(false)}
        onOk={() => form.submit()}
      >
        <Typography.Paragraph type="secondary">{t('twoPeople')}</Typography.Paragraph>
        <Form
          form={form}
          layout="vertical"
          onFinish={submitCreate}
          initialValues={{ role: 'reviewer' }}
        >
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
          <Form.Item
            name="reason"
            label={t('reason')}
            rules={[{ required: true, whitespace: true, message: t('reasonRequired') }]}
          >
            <Input.TextArea rows={2} maxLength={500} data-testid="operator-reason" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={changing?.kind === 'role'}
        title={changing ? t('roleTitle', { name: changing.operator.username }) : ''}
        okText={t('send')}
        cancelText={t('cancel')}
        confirmLoading={request.isPending}
        onCancel={() => setChanging(undefined)}
        onOk={() => roleForm.submit()}
        afterClose={() => roleForm.resetFields()}
      >
        <Form form={roleForm} layout="vertical" onFinish={submitRole}>
          <Form.Item name="role" label={t('role')} rules={[{ required: true }]}>
            <Select
              options={OPERATOR_ROLES.map((role) => ({ value: role, label: roleName(role) }))}
            />
          </Form.Item>
          <Form.Item
            name="reason"
            label={t('reason')}
            rules={[{ required: true, whitespace: true, message: t('reasonRequired') }]}
          >
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
      <ReasonModal
        open={changing !== undefined && changing.kind !== 'role'}
        title={
          changing
            ? t(changing.kind === 'enable' ? 'enableTitle' : 'disableTitle', {
                name: changing.operator.username,
              })
            : ''
        }
        help={changing?.kind === 'enable' ? t('twoPeople') : t('disableHelp')}
        label={t('reason')}
        okText={changing?.kind === 'enable' ? t('send') : t('disable')}
        danger={changing?.kind === 'disable'}
        cancelText={t('cancel')}
        requiredText={t('reasonRequired')}
        loading={disable.isPending || request.isPending}
        onCancel={() => setChanging(undefined)}
        onSubmit={(reason) => {
          if (!changing) return;
          const done = {
            onSuccess: () => setChanging(undefined),
            onError: (error: unknown) => message.error(errorText(error)),
          };
          if (changing.kind === 'enable')
            request.mutate(
              { kind: 'enable', id: changing.operator.id, reason: reason ?? '' },
              done,
            );
          else
            disable.mutate(
              { id: changing.operator.id, disabled: true, reason: reason ?? '' },
              done,
            );
        }}
      />
      <ReasonModal
        open={deciding !== undefined}
        title={
          deciding
            ? t(deciding.decision === 'approve' ? 'approveTitle' : 'rejectTitle', {
                what: what(deciding.request),
              })
            : ''
        }
        help={deciding?.decision === 'approve' ? t('approveHelp') : ''}
        label={t('reason')}
        okText={deciding?.decision === 'approve' ? t('approve') : t('reject')}
        danger={deciding?.decision === 'reject'}
        cancelText={t('cancel')}
        requiredText={t('reasonRequired')}
        loading={decide.isPending}
        onCancel={() => setDeciding(undefined)}
        onSubmit={(reason) =>
          deciding &&
          decide.mutate(
            { id: deciding.request.id, decision: deciding.decision, reason: reason ?? '' },
            {
              onSuccess: (result) => {
                setDeciding(undefined);
                if (result.enrolment)
                  setLink({
                    name: result.request.username,
                    url: `${window.location.origin}${result.enrolment.path}`,
                    expiresAt: result.enrolment.expiresAt,
                  });
              },
              onError: (error) => message.error(errorText(error)),
            },
          )
        }
      />
      <Modal
        open={link !== undefined}
        title={link ? t('linkTitle', { name: link.name }) : ''}
        closable={false}
        maskClosable={false}
        footer={<Button onClick={() => setLink(undefined)}>{t('close')}</Button>}
      >
        {link && (
          <>
            <Typography.Paragraph>
              {t('linkHelp', { name: link.name, at: formatTime(link.expiresAt) })}
            </Typography.Paragraph>
            <Typography.Paragraph copyable code data-testid="enrolment-link">
              {link.url}
            </Typography.Paragraph>
          </>
        )}
      </Modal>
    </Space>
  );
}
