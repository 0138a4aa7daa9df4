import {
  IEO_STATUS_NAMES,
  type IeoAdminApplication,
  type IeoAdminProject,
  IeoStatus,
  ieoActionResultSchema,
  ieoAdminApplicationsSchema,
  ieoAdminProjectListSchema,
  ieoProjectSchema,
} from '@tradewind/contract/ieo';
import type { Language } from '@tradewind/contract/languages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Drawer, Form, Input, Modal, Progress, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ApiError, api } from '@admin/api/client';
import { formatTime } from '@admin/lib/format';
import { defineStrings } from '@admin/lib/i18n';
import { Amount } from '@admin/ui/Amount';
import { LanguageTabs, compactTexts } from '@admin/ui/LanguageTabs';

const useT = defineStrings({
  en: {
    create: 'New project',
    token: 'Token',
    tokenName: 'Token name',
    slug: 'Slug (in addresses)',
    name: 'Name',
    description: 'Description',
    status: 'Status',
    subscribed: 'Subscribed',
    applications: 'Applications',
    committed: 'Committed',
    period: 'Subscription',
    listsAt: 'Listing',
    supply: 'Supply (tokens)',
    unitPrice: 'Price (USDT)',
    priceMin: 'Lowest offer (USDT)',
    priceMax: 'Highest offer (USDT)',
    perUserCap: 'Per user cap (tokens)',
    startsAt: 'Subscription opens',
    endsAt: 'Subscription closes',
    listsAtField: 'Tokens delivered (listing)',
    announcedAt: 'Announced',
    times: 'Times are your local time.',
    view: 'Applications',
    allocate: 'Run allocation',
    deliver: 'Deliver tokens',
    cancelProject: 'Cancel project',
    cancelTitle: 'Cancel {token}?',
    cancelHelp: 'Every application is refunded at once. This cannot be undone.',
    reason: 'Reason (users see it; kept in the audit log)',
    allocateTitle: 'Run the allocation of {token}?',
    allocateHelp:
      'The published rule decides, not the console: each application gets at most min(requested, per-user cap); when oversubscribed, the supply is shared pro rata to the committed USDT in whole tokens, remainders to the largest fractions. Payments and refunds are ledger entries. It runs once.',
    deliverTitle: 'Deliver the allocated {token} tokens?',
    deliverHelp: 'Allowed from the listing time; credits every allocated quantity to spot. It runs once.',
    run: 'Run',
    ran: 'Done.',
    alreadyRan: 'It had already run; nothing changed.',
    save: 'Create',
    close: 'Close',
    back: 'Back',
    required: 'Required.',
    user: 'User ID',
    price: 'Offer',
    quantity: 'Requested',
    amount: 'Committed',
    allocated: 'Allocated',
    paid: 'Paid',
    refund: 'Refunded',
    appliedAt: 'Applied',
    result: 'Allocation result',
    notYet: 'The allocation has not run yet.',
    unsold: 'Unsold',
    truncated: 'Showing the {n} largest applications; the totals count all of them.',
    created: 'Project {token} created.',
    s_applying: 'Applying',
    s_not_started: 'Not started',
    s_subscribing: 'Subscribing',
    s_drawing: 'Awaiting allocation',
    s_in_progress: 'Allocated',
    s_ended: 'Listed',
    s_applied: 'Allocated',
    s_completed: 'Delivered',
    s_cancelled: 'Cancelled',
  },
  'zh-CN': {
    create: '新建项目',
    token: '代币',
    tokenName: '代币名称',
    slug: '标识（用于地址）',
    name: '名称',
    description: '介绍',
    status: '状态',
    subscribed: '已申购',
    applications: '申购数',
    committed: '冻结金额',
    period: '申购期',
    listsAt: '上线',
    supply: '发行量（枚）',
    unitPrice: '价格（USDT）',
    priceMin: '最低出价（USDT）',
    priceMax: '最高出价（USDT）',
    perUserCap: '每人上限（枚）',
    startsAt: '申购开始',
    endsAt: '申购结束',
    listsAtField: '发放代币（上线）',
    announcedAt: '公告时间',
    times: '时间均为您的本地时间。',
    view: '申购记录',
    allocate: '执行分配',
    deliver: '发放代币',
    cancelProject: '取消项目',
    cancelTitle: '取消 {token}？',
    cancelHelp: '所有申购立即退款。此操作无法撤销。',
    reason: '原因（用户可见；记入审计日志）',
    allocateTitle: '执行 {token} 的分配？',
    allocateHelp:
      '由公布的规则决定，而不是后台：每份申购最多获得 min(申购数量, 每人上限)；超额认购时，按冻结的 USDT 比例以整枚分配，余数给小数部分最大者。付款与退款均为账本分录。只执行一次。',
    deliverTitle: '发放已分配的 {token} 代币？',
    deliverHelp: '上线时间起可执行；把每份已分配数量记入现货账户。只执行一次。',
    run: '执行',
    ran: '已完成。',
    alreadyRan: '此前已执行，未做任何更改。',
    save: '创建',
    close: '关闭',
    back: '返回',
    required: '必填。',
    user: '用户 ID',
    price: '出价',
    quantity: '申购数量',
    amount: '冻结',
    allocated: '分配数量',
    paid: '已付',
    refund: '已退',
    appliedAt: '申购时间',
    result: '分配结果',
    notYet: '尚未执行分配。',
    unsold: '未售出',
    truncated: '仅显示金额最大的 {n} 份申购；合计包含全部申购。',
    created: '项目 {token} 已创建。',
    s_applying: '申购中',
    s_not_started: '未开始',
    s_subscribing: '申购中',
    s_drawing: '待分配',
    s_in_progress: '已分配',
    s_ended: '已上线',
    s_applied: '已分配',
    s_completed: '已发放',
    s_cancelled: '已取消',
  },
});

type StatusKey = 's_applying' | 's_not_started' | 's_subscribing' | 's_drawing' | 's_in_progress' | 's_ended' | 's_applied' | 's_completed' | 's_cancelled';
const statusKey = (status: IeoStatus) => `s_${IEO_STATUS_NAMES[status]}` as StatusKey;
const STATUS_COLOURS: Partial<Record<IeoStatus, string>> = {
  [IeoStatus.NOT_STARTED]: 'blue',
  [IeoStatus.SUBSCRIBING]: 'green',
  [IeoStatus.DRAWING]: 'orange',
  [IeoStatus.IN_PROGRESS]: 'purple',
  [IeoStatus.ENDED]: 'default',
  [IeoStatus.CANCELLED]: 'red',
};

const KEY = ['admin', 'ieo'] as const;
type Texts = Partial<Record<Language, string>>;
interface ProjectForm {
  slug: string;
  token: string;
  tokenName: string;
  name: Texts;
  description: Texts;
  supply: string;
  unitPrice: string;
  priceMin: string;
  priceMax: string;
  perUserCap: string;
  startsAt: string;
  endsAt: string;
  listsAt: string;
  announcedAt: string;
}
const localInput = (ms: number) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
const iso = (local: string) => new Date(local).toISOString();
const HOUR = 3_600_000;

/** Launchpad projects: create, cancel (refunds everything), trigger the allocation and the delivery, and see their results. */
export default function IeoProjects() {
  const t = useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: () => api.get('/ieo/projects', ieoAdminProjectListSchema) });
  const [creating, setCreating] = useState(false);
  const [viewing, setViewing] = useState<string>();
  const [cancelling, setCancelling] = useState<IeoAdminProject>();
  const [running, setRunning] = useState<{ project: IeoAdminProject; action: 'allocate' | 'list' }>();
  const [form] = Form.useForm<ProjectForm>();
  const [reasonForm] = Form.useForm<{ reason: string }>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  const showError = (error: unknown) => message.error(error instanceof ApiError ? error.detail : String(error));

  const create = useMutation({
    mutationFn: (v: ProjectForm) =>
      api.post('/ieo/create', ieoProjectSchema, {
        slug: v.slug.trim(),
        token: v.token.trim().toUpperCase(),
        tokenName: v.tokenName.trim(),
        name: compactTexts(v.name),
        description: compactTexts(v.description),
        supply: v.supply.trim(),
        unitPrice: v.unitPrice.trim(),
        priceMin: v.priceMin.trim(),
        priceMax: v.priceMax.trim(),
        perUserCap: v.perUserCap.trim(),
        startsAt: iso(v.startsAt),
        endsAt: iso(v.endsAt),
        listsAt: iso(v.listsAt),
        announcedAt: iso(v.announcedAt),
      }),
    onSuccess: (project) => {
      setCreating(false);
      form.resetFields();
      message.success(t('created', { token: project.token }));
      void refresh();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) form.setFields(Object.entries(error.fields).map(([name, errors]) => ({ name: name.split('.') as never, errors })));
      showError(error);
    },
  });
  const cancel = useMutation({
    mutationFn: (input: { id: string; reason: string }) => api.post('/ieo/cancel', ieoProjectSchema, input),
    onSuccess: () => {
      setCancelling(undefined);
      reasonForm.resetFields();
      void refresh();
    },
    onError: showError,
  });
  const run = useMutation({
    mutationFn: (input: { id: string; action: 'allocate' | 'list' }) => api.post(`/ieo/${input.action}`, ieoActionResultSchema, { id: input.id }),
    onSuccess: (result, input) => {
      setRunning(undefined);
      message.success(result.ran ? t('ran') : t('alreadyRan'));
      void refresh();
      if (input.action === 'allocate') setViewing(input.id);
    },
    onError: (error) => {
      setRunning(undefined);
      showError(error);
    },
  });

  const [now] = useState(() => Date.now());
  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <Button type="primary" onClick={() => setCreating(true)} data-testid="ieo-create">
          {t('create')}
        </Button>
      </Space>
      {list.isError && <Alert type="error" title={(list.error as Error).message} />}
      <Table<IeoAdminProject>
        rowKey="id"
        loading={list.isPending}
        dataSource={list.data?.items}
        pagination={false}
        columns={[
          {
            title: t('token'),
            key: 'token',
            width: 170,
            render: (_: unknown, p) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text strong>{p.token}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {p.name}
                </Typography.Text>
              </Space>
            ),
          },
          { title: t('status'), dataIndex: 'status', width: 110, render: (s: IeoStatus) => <Tag color={STATUS_COLOURS[s]}>{t(statusKey(s))}</Tag> },
          {
            title: t('subscribed'),
            key: 'subscribed',
            width: 160,
            render: (_: unknown, p) => (
              <div>
                <span style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {p.subscribed} / {p.supply}
                </span>
                <Progress percent={p.progress} size="small" />
              </div>
            ),
          },
          { title: t('applications'), dataIndex: 'applications', width: 80 },
          { title: t('committed'), dataIndex: 'committed', width: 120, render: (v: string) => <Amount value={v} asset="USDT" /> },
          {
            title: t('period'),
            key: 'period',
            width: 190,
            render: (_: unknown, p) => (
              <span style={{ fontSize: 12, lineHeight: 1.6 }}>
                {formatTime(p.startsAt)}
                <br />
                {formatTime(p.endsAt)}
                <br />
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('listsAt')}: {formatTime(p.listsAt)}
                </Typography.Text>
              </span>
            ),
          },
          {
            title: '',
            key: 'actions',
            width: 150,
            render: (_: unknown, p) => (
              <Space orientation="vertical" size={4}>
                <Button size="small" onClick={() => setViewing(p.id)}>
                  {t('view')}
                </Button>
                {p.status === IeoStatus.DRAWING && (
                  <Button size="small" type="primary" onClick={() => setRunning({ project: p, action: 'allocate' })} data-testid={`ieo-allocate-${p.token}`}>
                    {t('allocate')}
                  </Button>
                )}
                {p.status === IeoStatus.IN_PROGRESS && Date.parse(p.listsAt) <= now && (
                  <Button size="small" type="primary" onClick={() => setRunning({ project: p, action: 'list' })}>
                    {t('deliver')}
                  </Button>
                )}
                {p.allocatedAt === null && p.status !== IeoStatus.CANCELLED && (
                  <Button size="small" danger onClick={() => setCancelling(p)}>
                    {t('cancelProject')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {viewing && <Applications id={viewing} onClose={() => setViewing(undefined)} />}
      <Modal
        open={running !== undefined}
        title={running ? t(running.action === 'allocate' ? 'allocateTitle' : 'deliverTitle', { token: running.project.token }) : ''}
        okText={t('run')}
        okButtonProps={{ id: 'ieo-run-confirm' }}
        cancelText={t('back')}
        confirmLoading={run.isPending}
        onCancel={() => setRunning(undefined)}
        onOk={() => running && run.mutate({ id: running.project.id, action: running.action })}
      >
        <Typography.Paragraph>{running?.action === 'allocate' ? t('allocateHelp') : t('deliverHelp')}</Typography.Paragraph>
      </Modal>
      <Modal
        open={cancelling !== undefined}
        title={cancelling ? t('cancelTitle', { token: cancelling.token }) : ''}
        okText={t('cancelProject')}
        okButtonProps={{ danger: true }}
        cancelText={t('back')}
        confirmLoading={cancel.isPending}
        onCancel={() => setCancelling(undefined)}
        onOk={() => reasonForm.submit()}
      >
        <Typography.Paragraph>{t('cancelHelp')}</Typography.Paragraph>
        <Form form={reasonForm} layout="vertical" onFinish={({ reason }) => cancelling && cancel.mutate({ id: cancelling.id, reason })}>
          <Form.Item name="reason" label={t('reason')} rules={[{ required: true, whitespace: true, message: t('required') }]}>
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal open={creating} width={820} title={t('create')} okText={t('save')} cancelText={t('back')} confirmLoading={create.isPending} onCancel={() => setCreating(false)} onOk={() => form.submit()} destroyOnHidden>
        <Form<ProjectForm>
          form={form}
          layout="vertical"
          onFinish={(values) => create.mutate(values)}
          initialValues={{
            startsAt: localInput(now + HOUR),
            endsAt: localInput(now + 7 * 24 * HOUR),
            listsAt: localInput(now + 8 * 24 * HOUR),
            announcedAt: localInput(now),
          }}
        >
          <Space size="middle" wrap>
            <Form.Item name="token" label={t('token')} rules={[{ required: true, pattern: /^[A-Za-z][A-Za-z0-9]{1,9}$/, message: t('required') }]}>
              <Input style={{ width: 120, textTransform: 'uppercase' }} maxLength={10} />
            </Form.Item>
            <Form.Item name="tokenName" label={t('tokenName')} rules={[{ required: true, whitespace: true, message: t('required') }]}>
              <Input style={{ width: 220 }} maxLength={60} />
            </Form.Item>
            <Form.Item name="slug" label={t('slug')} rules={[{ required: true, pattern: /^[a-z0-9-]{3,60}$/, message: 'a-z 0-9 -' }]}>
              <Input style={{ width: 260 }} maxLength={60} />
            </Form.Item>
          </Space>
          <LanguageTabs
            fields={[
              { name: 'name', label: t('name'), max: 4000, render: () => <Input maxLength={120} /> },
              { name: 'description', label: t('description'), max: 4000, render: () => <Input.TextArea rows={3} maxLength={4000} /> },
            ]}
          />
          <Space size="middle" wrap>
            {(['supply', 'perUserCap'] as const).map((name) => (
              <Form.Item key={name} name={name} label={t(name)} rules={[{ required: true, pattern: /^[1-9]\d{0,14}$/, message: t('required') }]}>
                <Input style={{ width: 160 }} inputMode="numeric" />
              </Form.Item>
            ))}
            {(['unitPrice', 'priceMin', 'priceMax'] as const).map((name) => (
              <Form.Item key={name} name={name} label={t(name)} rules={[{ required: true, pattern: /^\d+(\.\d+)?$/, message: t('required') }]}>
                <Input style={{ width: 150 }} inputMode="decimal" />
              </Form.Item>
            ))}
          </Space>
          <Space size="middle" wrap>
            {(['announcedAt', 'startsAt', 'endsAt', 'listsAtField'] as const).map((label) => {
              const name = label === 'listsAtField' ? 'listsAt' : label;
              return (
                <Form.Item key={name} name={name} label={t(label)} rules={[{ required: true, message: t('required') }]}>
                  <Input type="datetime-local" />
                </Form.Item>
              );
            })}
          </Space>
          <Typography.Text type="secondary">{t('times')}</Typography.Text>
        </Form>
      </Modal>
    </>
  );
}

/** A project's applications and, after the allocation, what allocate() gave each and the totals. */
function Applications({ id, onClose }: { id: string; onClose: () => void }) {
  const t = useT();
  const detail = useQuery({ queryKey: [...KEY, 'applications', id], queryFn: () => api.get('/ieo/applications', ieoAdminApplicationsSchema, { id }) });
  const data = detail.data;
  return (
    <Drawer open size={980} title={data ? `${data.project.token} — ${data.project.name}` : ''} onClose={onClose} data-testid="ieo-applications">
      {detail.isError && <Alert type="error" title={(detail.error as Error).message} />}
      {data && (
        <>
          <Descriptions size="small" column={3} style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('status')}>
              <Tag color={STATUS_COLOURS[data.project.status]}>{t(statusKey(data.project.status))}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('supply')}>{data.project.supply}</Descriptions.Item>
            <Descriptions.Item label={t('perUserCap')}>{data.project.perUserCap}</Descriptions.Item>
            <Descriptions.Item label={t('unitPrice')}>
              {data.project.priceMin} – {data.project.priceMax}
            </Descriptions.Item>
            <Descriptions.Item label={t('period')}>
              {formatTime(data.project.startsAt)} – {formatTime(data.project.endsAt)}
            </Descriptions.Item>
            <Descriptions.Item label={t('listsAt')}>{formatTime(data.project.listsAt)}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>{t('result')}</Typography.Title>
          {data.allocation ? (
            <Space size={40} style={{ marginBottom: 16 }} data-testid="ieo-allocation">
              <Statistic title={t('supply')} value={data.allocation.supply} />
              <Statistic title={t('allocated')} value={data.allocation.allocated} />
              <Statistic title={t('unsold')} value={data.allocation.unsold} />
              <Statistic title={`${t('paid')} (USDT)`} value={data.allocation.paid} />
              <Statistic title={`${t('refund')} (USDT)`} value={data.allocation.refunded} />
            </Space>
          ) : (
            <Alert type="info" title={t('notYet')} style={{ marginBottom: 16 }} />
          )}
          {data.truncated && <Alert type="warning" title={t('truncated', { n: data.items.length })} style={{ marginBottom: 8 }} />}
          <Table<IeoAdminApplication>
            rowKey="id"
            size="small"
            dataSource={data.items}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            columns={[
              { title: t('user'), dataIndex: 'userId', width: 90 },
              { title: t('status'), dataIndex: 'status', width: 110, render: (s: IeoStatus) => <Tag>{t(statusKey(s))}</Tag> },
              { title: t('price'), dataIndex: 'price', render: (v: string) => <Amount value={v} /> },
              { title: t('quantity'), dataIndex: 'quantity' },
              { title: t('amount'), dataIndex: 'amount', render: (v: string) => <Amount value={v} /> },
              { title: t('allocated'), dataIndex: 'allocatedQuantity', render: (v: string | null) => v ?? '—' },
              { title: t('paid'), dataIndex: 'paidAmount', render: (v: string | null) => (v === null ? '—' : <Amount value={v} />) },
              { title: t('refund'), dataIndex: 'refundAmount', render: (v: string | null) => (v === null ? '—' : <Amount value={v} />) },
              { title: t('appliedAt'), dataIndex: 'createdAt', width: 170, render: (v: string) => formatTime(v) },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}
