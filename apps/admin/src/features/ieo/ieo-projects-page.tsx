import {
  IEO_STATUS_NAMES,
  type IeoAdminApplication,
  type IeoAdminProject,
  IeoStatus,
} from '@tradewind/contract/ieo';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Drawer,
  Form,
  Input,
  Modal,
  Progress,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { formatTime } from '@/lib/format.ts';
import { errorText, showFieldErrors } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { fromLocalInput, toLocalInput } from '@/lib/local-time.ts';
import { Amount } from '@/ui/amount.tsx';
import { LanguageTabs, type Texts, compactTexts } from '@/ui/language-tabs.tsx';
import { QueryTable } from '@/ui/query-table.tsx';
import { type MoneyDetails, MoneyConfirm, MoneyFacts } from '@/ui/money-confirm.tsx';
import { ReasonModal } from '@/ui/reason-modal.tsx';
import { allocateProject } from './api/allocate-project.ts';
import { useCancelProject } from './api/cancel-project.ts';
import { useCreateProject } from './api/create-project.ts';
import { useApplications } from './api/get-applications.ts';
import { projectsQueryKey, useProjects } from './api/get-projects.ts';
import { listProject } from './api/list-project.ts';

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
    deliverHelp:
      'Allowed from the listing time; credits every allocated quantity to spot. It runs once.',
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
    everyApplicant: 'Every applicant ({n} applications)',
    allocateEffect:
      'Each applicant pays for the tokens allocated to them from the committed USDT, and the rest is refunded to them at once.',
    deliverEffect:
      'The allocated {token} tokens are credited to every allocated applicant’s spot wallet.',
    refunded: 'Refunded to the applicants',
    cancelEffect: 'Every application is refunded at once. This cannot be undone.',
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
    everyApplicant: '全部申购用户（{n} 份申购）',
    allocateEffect: '每位申购用户从冻结的 USDT 中支付所分配代币的金额，其余部分立即退还。',
    deliverEffect: '已分配的 {token} 代币将记入每位获配用户的现货钱包。',
    refunded: '退还给申购用户',
    cancelEffect: '所有申购立即退款。此操作无法撤销。',
  },
});

type StatusKey =
  | 's_applying'
  | 's_not_started'
  | 's_subscribing'
  | 's_drawing'
  | 's_in_progress'
  | 's_ended'
  | 's_applied'
  | 's_completed'
  | 's_cancelled';
const statusKey = (status: IeoStatus) => `s_${IEO_STATUS_NAMES[status]}` as StatusKey;
const STATUS_COLOURS: Partial<Record<IeoStatus, string>> = {
  [IeoStatus.NOT_STARTED]: 'blue',
  [IeoStatus.SUBSCRIBING]: 'green',
  [IeoStatus.DRAWING]: 'orange',
  [IeoStatus.IN_PROGRESS]: 'purple',
  [IeoStatus.ENDED]: 'default',
  [IeoStatus.CANCELLED]: 'red',
};

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
const HOUR = 3_600_000;

/** A project's money for its confirmations: every applicant, the USDT they committed, the tokens. */
function projectMoney(p: IeoAdminProject, t: ReturnType<typeof useT>): MoneyDetails {
  return {
    uid: t('everyApplicant', { n: p.applications }),
    asset: 'USDT',
    amount: p.committed,
    amountLabel: t('committed'),
    facts: [
      { label: t('token'), value: `${p.token} · ${p.name}` },
      { label: t('subscribed'), value: `${p.subscribed} / ${p.supply} ${p.token}` },
      { label: t('unitPrice'), value: <Amount value={p.unitPrice} asset="USDT" /> },
    ],
  };
}

/** Launchpad projects: create, cancel (refunds everything), trigger the allocation and the delivery, and see their results. */
export function IeoProjectsPage() {
  const t = useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useProjects();
  const [creating, setCreating] = useState(false);
  const [viewing, setViewing] = useState<string>();
  const [cancelling, setCancelling] = useState<IeoAdminProject>();
  const [running, setRunning] = useState<{
    project: IeoAdminProject;
    action: 'allocate' | 'list';
  }>();
  const [form] = Form.useForm<ProjectForm>();
  const showError = (error: unknown) => message.error(errorText(error));
  const create = useCreateProject();
  const cancel = useCancelProject();
  const run = useMutation({
    mutationFn: (input: { id: string; action: 'allocate' | 'list' }) =>
      input.action === 'allocate' ? allocateProject(input.id) : listProject(input.id),
    onSuccess: (result, input) => {
      setRunning(undefined);
      message.success(result.ran ? t('ran') : t('alreadyRan'));
      void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
      if (input.action === 'allocate') setViewing(input.id);
    },
    onError: (error) => {
      setRunning(undefined);
      showError(error);
    },
  });

  function submit(v: ProjectForm) {
    const body = {
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
      startsAt: fromLocalInput(v.startsAt),
      endsAt: fromLocalInput(v.endsAt),
      listsAt: fromLocalInput(v.listsAt),
      announcedAt: fromLocalInput(v.announcedAt),
    };
    create.mutate(body, {
      onSuccess: (project) => {
        setCreating(false);
        form.resetFields();
        message.success(t('created', { token: project.token }));
      },
      onError: (error) => {
        showFieldErrors(form, error);
        showError(error);
      },
    });
  }

  const [now] = useState(() => Date.now());
  return (
    <>
      <QueryTable<IeoAdminProject>
        query={list}
        create={{ label: t('create'), testId: 'ieo-create', onClick: () => setCreating(true) }}
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
          {
            title: t('status'),
            dataIndex: 'status',
            width: 110,
            render: (s: IeoStatus) => <Tag color={STATUS_COLOURS[s]}>{t(statusKey(s))}</Tag>,
          },
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
          {
            title: t('committed'),
            dataIndex: 'committed',
            width: 120,
            render: (v: string) => <Amount value={v} asset="USDT" />,
          },
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
                  <Button
                    size="small"
                    type="primary"
                    onClick={() => setRunning({ project: p, action: 'allocate' })}
                    data-testid={`ieo-allocate-${p.token}`}
                  >
                    {t('allocate')}
                  </Button>
                )}
                {p.status === IeoStatus.IN_PROGRESS && Date.parse(p.listsAt) <= now && (
                  <Button
                    size="small"
                    type="primary"
                    onClick={() => setRunning({ project: p, action: 'list' })}
                  >
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
      <MoneyConfirm
        summary={
          running
            ? {
                ...projectMoney(running.project, t),
                title: t(running.action === 'allocate' ? 'allocateTitle' : 'deliverTitle', {
                  token: running.project.token,
                }),
                effect:
                  running.action === 'allocate' ? (
                    <>
                      {t('allocateEffect')}
                      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
                        {t('allocateHelp')}
                      </Typography.Paragraph>
                    </>
                  ) : (
                    <>
                      {t('deliverEffect', { token: running.project.token })}
                      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
                        {t('deliverHelp')}
                      </Typography.Paragraph>
                    </>
                  ),
                okText: t('run'),
              }
            : undefined
        }
        loading={run.isPending}
        onCancel={() => setRunning(undefined)}
        onConfirm={() =>
          running &&
          !run.isPending &&
          run.mutate({ id: running.project.id, action: running.action })
        }
      />
      <ReasonModal
        open={cancelling !== undefined}
        title={cancelling ? t('cancelTitle', { token: cancelling.token }) : ''}
        help={
          cancelling ? (
            <>
              {t('cancelHelp')}
              <div style={{ marginTop: 12 }}>
                <MoneyFacts
                  summary={{
                    ...projectMoney(cancelling, t),
                    amountLabel: t('refunded'),
                  }}
                />
              </div>
            </>
          ) : null
        }
        label={t('reason')}
        okText={t('cancelProject')}
        danger
        cancelText={t('back')}
        requiredText={t('required')}
        loading={cancel.isPending}
        onCancel={() => setCancelling(undefined)}
        onSubmit={(reason) =>
          cancelling &&
          cancel.mutate(
            { id: cancelling.id, reason: reason ?? '' },
            { onSuccess: () => setCancelling(undefined), onError: showError },
          )
        }
      />
      <Modal
        open={creating}
        width={820}
        title={t('create')}
        okText={t('save')}
        cancelText={t('back')}
        confirmLoading={create.isPending}
        onCancel={() => setCreating(false)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form<ProjectForm>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{
            startsAt: toLocalInput(now + HOUR),
            endsAt: toLocalInput(now + 7 * 24 * HOUR),
            listsAt: toLocalInput(now + 8 * 24 * HOUR),
            announcedAt: toLocalInput(now),
          }}
        >
          <Space size="middle" wrap>
            <Form.Item
              name="token"
              label={t('token')}
              rules={[
                { required: true, pattern: /^[A-Za-z][A-Za-z0-9]{1,9}$/, message: t('required') },
              ]}
            >
              <Input style={{ width: 120, textTransform: 'uppercase' }} maxLength={10} />
            </Form.Item>
            <Form.Item
              name="tokenName"
              label={t('tokenName')}
              rules={[{ required: true, whitespace: true, message: t('required') }]}
            >
              <Input style={{ width: 220 }} maxLength={60} />
            </Form.Item>
            <Form.Item
              name="slug"
              label={t('slug')}
              rules={[{ required: true, pattern: /^[a-z0-9-]{3,60}$/, message: 'a-z 0-9 -' }]}
            >
              <Input style={{ width: 260 }} maxLength={60} />
            </Form.Item>
          </Space>
          <LanguageTabs
            fields={[
              {
                name: 'name',
                label: t('name'),
                max: 4000,
                render: () => <Input maxLength={120} />,
              },
              {
                name: 'description',
                label: t('description'),
                max: 4000,
                render: () => <Input.TextArea rows={3} maxLength={4000} />,
              },
            ]}
          />
          <Space size="middle" wrap>
            {(['supply', 'perUserCap'] as const).map((name) => (
              <Form.Item
                key={name}
                name={name}
                label={t(name)}
                rules={[{ required: true, pattern: /^[1-9]\d{0,14}$/, message: t('required') }]}
              >
                <Input style={{ width: 160 }} inputMode="numeric" />
              </Form.Item>
            ))}
            {(['unitPrice', 'priceMin', 'priceMax'] as const).map((name) => (
              <Form.Item
                key={name}
                name={name}
                label={t(name)}
                rules={[{ required: true, pattern: /^\d+(\.\d+)?$/, message: t('required') }]}
              >
                <Input style={{ width: 150 }} inputMode="decimal" />
              </Form.Item>
            ))}
          </Space>
          <Space size="middle" wrap>
            {(['announcedAt', 'startsAt', 'endsAt', 'listsAtField'] as const).map((label) => {
              const name = label === 'listsAtField' ? 'listsAt' : label;
              return (
                <Form.Item
                  key={name}
                  name={name}
                  label={t(label)}
                  rules={[{ required: true, message: t('required') }]}
                >
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
  const detail = useApplications(id);
  const data = detail.data;
  return (
    <Drawer
      open
      size={980}
      title={data ? `${data.project.token} — ${data.project.name}` : ''}
      onClose={onClose}
      data-testid="ieo-applications"
    >
      {detail.isError && <Alert type="error" title={(detail.error as Error).message} />}
      {data && (
        <>
          <Descriptions size="small" column={3} style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('status')}>
              <Tag color={STATUS_COLOURS[data.project.status]}>
                {t(statusKey(data.project.status))}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('supply')}>{data.project.supply}</Descriptions.Item>
            <Descriptions.Item label={t('perUserCap')}>{data.project.perUserCap}</Descriptions.Item>
            <Descriptions.Item label={t('unitPrice')}>
              {data.project.priceMin} – {data.project.priceMax}
            </Descriptions.Item>
            <Descriptions.Item label={t('period')}>
              {formatTime(data.project.startsAt)} – {formatTime(data.project.endsAt)}
            </Descriptions.Item>
            <Descriptions.Item label={t('listsAt')}>
              {formatTime(data.project.listsAt)}
            </Descriptions.Item>
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
          {data.truncated && (
            <Alert
              type="warning"
              title={t('truncated', { n: data.items.length })}
              style={{ marginBottom: 8 }}
            />
          )}
          <Table<IeoAdminApplication>
            rowKey="id"
            size="small"
            dataSource={data.items}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            columns={[
              { title: t('user'), dataIndex: 'userId', width: 90 },
              {
                title: t('status'),
                dataIndex: 'status',
                width: 110,
                render: (s: IeoStatus) => <Tag>{t(statusKey(s))}</Tag>,
              },
              {
                title: t('price'),
                dataIndex: 'price',
                render: (v: string) => <Amount value={v} />,
              },
              { title: t('quantity'), dataIndex: 'quantity' },
              {
                title: t('amount'),
                dataIndex: 'amount',
                render: (v: string) => <Amount value={v} />,
              },
              {
                title: t('allocated'),
                dataIndex: 'allocatedQuantity',
                render: (v: string | null) => v ?? '—',
              },
              {
                title: t('paid'),
                dataIndex: 'paidAmount',
                render: (v: string | null) => (v === null ? '—' : <Amount value={v} />),
              },
              {
                title: t('refund'),
                dataIndex: 'refundAmount',
                render: (v: string | null) => (v === null ? '—' : <Amount value={v} />),
              },
              {
                title: t('appliedAt'),
                dataIndex: 'createdAt',
                width: 170,
                render: (v: string) => formatTime(v),
              },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}
