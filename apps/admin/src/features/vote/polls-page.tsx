import type { Language } from '@tradewind/contract/languages';
import { VOTE_DESCRIPTION_MAX, VOTE_OPTIONS_MAX, VOTE_OPTION_MAX, VOTE_TITLE_MAX, type VotePollAdmin, type VotePollStatus, votePercent, votePollAdminListSchema, votePollAdminSchema } from '@tradewind/contract/vote';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, Modal, Progress, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ApiError, api } from '@admin/api/client';
import { formatTime } from '@admin/lib/format';
import { defineStrings } from '@admin/lib/i18n';
import { LanguageTabs, compactTexts } from '@admin/ui/LanguageTabs';

const useT = defineStrings({
  en: {
    create: 'New poll',
    title: 'Question',
    description: 'Description',
    option: 'Option {n}',
    addOption: 'Add an option',
    removeOption: 'Remove',
    status: 'Status',
    upcoming: 'Upcoming',
    open: 'Open',
    ended: 'Ended',
    votes: 'Votes',
    results: 'Results',
    period: 'Period',
    startsAt: 'Opens',
    startsHelp: 'Leave empty to open at once (your local time).',
    endsAt: 'Closes',
    close: 'Close now',
    closeTitle: 'Close “{title}” now?',
    closeHelp: 'Nobody can vote any more; the results stay as they are.',
    reason: 'Reason (kept in the audit log)',
    save: 'Create',
    cancel: 'Cancel',
    required: 'Required.',
    options: 'Options (2 to {n}; each needs English)',
    created: 'Poll created.',
  },
  'zh-CN': {
    create: '新建投票',
    title: '问题',
    description: '说明',
    option: '选项 {n}',
    addOption: '添加选项',
    removeOption: '删除',
    status: '状态',
    upcoming: '未开始',
    open: '进行中',
    ended: '已结束',
    votes: '票数',
    results: '结果',
    period: '时间',
    startsAt: '开始',
    startsHelp: '留空则立即开始（您的本地时间）。',
    endsAt: '结束',
    close: '立即结束',
    closeTitle: '立即结束“{title}”？',
    closeHelp: '之后无人可以再投票；结果保持不变。',
    reason: '原因（记入审计日志）',
    save: '创建',
    cancel: '取消',
    required: '必填。',
    options: '选项（2 到 {n} 个，每个都需要英文）',
    created: '投票已创建。',
  },
});

const KEY = ['admin', 'polls'] as const;
const STATUS_COLOURS: Record<VotePollStatus, string> = { upcoming: 'blue', open: 'green', ended: 'default' };
type Texts = Partial<Record<Language, string>>;
interface PollForm {
  title: Texts;
  description: Texts;
  options: { label: Texts }[];
  startsAt?: string;
  endsAt: string;
}
const localInput = (ms: number) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/** Polls with their results (counted from the ballots); create with options in every language; close an open poll. */
export default function Polls() {
  const t = useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: () => api.get('/votes', votePollAdminListSchema) });
  const [creating, setCreating] = useState(false);
  const [now] = useState(() => Date.now());
  const [closing, setClosing] = useState<VotePollAdmin>();
  const [form] = Form.useForm<PollForm>();
  const [reasonForm] = Form.useForm<{ reason?: string }>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  const showError = (error: unknown) => message.error(error instanceof ApiError ? error.detail : String(error));

  const create = useMutation({
    mutationFn: (values: PollForm) =>
      api.post('/votes/create', votePollAdminSchema, {
        title: compactTexts(values.title),
        description: compactTexts(values.description),
        options: values.options.map((o) => ({ label: compactTexts(o.label) })),
        ...(values.startsAt ? { startsAt: new Date(values.startsAt).toISOString() } : {}),
        endsAt: new Date(values.endsAt).toISOString(),
      }),
    onSuccess: () => {
      setCreating(false);
      form.resetFields();
      message.success(t('created'));
      void refresh();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) form.setFields(Object.entries(error.fields).map(([name, errors]) => ({ name: name.split('.') as never, errors })));
      showError(error);
    },
  });
  const close = useMutation({
    mutationFn: (input: { id: string; reason?: string }) => api.post('/votes/close', votePollAdminSchema, { id: input.id, reason: input.reason || undefined }),
    onSuccess: () => {
      setClosing(undefined);
      reasonForm.resetFields();
      void refresh();
    },
    onError: showError,
  });

  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <Button type="primary" onClick={() => setCreating(true)} data-testid="poll-create">
          {t('create')}
        </Button>
      </Space>
      {list.isError && <Alert type="error" title={(list.error as Error).message} />}
      <Table<VotePollAdmin>
        rowKey="id"
        loading={list.isPending}
        dataSource={list.data?.items}
        pagination={false}
        columns={[
          { title: t('title'), key: 'title', render: (_: unknown, poll) => poll.title.en },
          { title: t('status'), dataIndex: 'status', width: 110, render: (status: VotePollStatus) => <Tag color={STATUS_COLOURS[status]}>{t(status)}</Tag> },
          { title: t('votes'), dataIndex: 'total', width: 80 },
          {
            title: t('results'),
            key: 'results',
            width: 360,
            render: (_: unknown, poll) => (
              <div data-testid={`poll-results-${poll.id}`}>
                {poll.options.map((option) => (
                  <div key={option.id} style={{ display: 'grid', gridTemplateColumns: '110px 1fr 40px', gap: 8, alignItems: 'center' }}>
                    <Typography.Text ellipsis>{option.label.en}</Typography.Text>
                    <Progress percent={votePercent(option.count, poll.total)} size="small" />
                    <Typography.Text type="secondary" style={{ textAlign: 'right' }}>
                      {option.count}
                    </Typography.Text>
                  </div>
                ))}
              </div>
            ),
          },
          { title: t('period'), key: 'period', width: 180, render: (_: unknown, poll) => <span style={{ fontSize: 12 }}>{formatTime(poll.startsAt)}<br />{formatTime(poll.endsAt)}</span> },
          {
            title: '',
            key: 'actions',
            width: 120,
            render: (_: unknown, poll) =>
              poll.status === 'open' && (
                <Button size="small" danger onClick={() => setClosing(poll)}>
                  {t('close')}
                </Button>
              ),
          },
        ]}
      />
      <Modal open={creating} width={760} title={t('create')} okText={t('save')} cancelText={t('cancel')} confirmLoading={create.isPending} onCancel={() => setCreating(false)} onOk={() => form.submit()} destroyOnHidden>
        <Form<PollForm>
          form={form}
          layout="vertical"
          onFinish={(values) => create.mutate(values)}
          initialValues={{ options: [{ label: {} }, { label: {} }], endsAt: localInput(now + 7 * 86_400_000) }}
        >
          <LanguageTabs
            fields={[
              { name: 'title', label: t('title'), max: VOTE_TITLE_MAX, render: () => <Input maxLength={VOTE_TITLE_MAX} /> },
              { name: 'description', label: t('description'), max: VOTE_DESCRIPTION_MAX, render: () => <Input.TextArea rows={2} maxLength={VOTE_DESCRIPTION_MAX} /> },
            ]}
          />
          <Typography.Text strong>{t('options', { n: VOTE_OPTIONS_MAX })}</Typography.Text>
          <Form.List name="options">
            {(fields, { add, remove }) => (
              <>
                {fields.map((field, index) => (
                  <Card
                    key={field.key}
                    size="small"
                    style={{ marginTop: 8 }}
                    title={t('option', { n: index + 1 })}
                    extra={
                      fields.length > 2 && (
                        <Button size="small" type="link" danger onClick={() => remove(field.name)}>
                          {t('removeOption')}
                        </Button>
                      )
                    }
                  >
                    <Form.Item name={[field.name, 'label', 'en']} rules={[{ required: true, whitespace: true, message: t('required') }]} style={{ marginBottom: 8 }}>
                      <Input addonBefore="English" maxLength={VOTE_OPTION_MAX} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'label', 'zh_CN']} style={{ marginBottom: 0 }}>
                      <Input addonBefore="简体中文" maxLength={VOTE_OPTION_MAX} />
                    </Form.Item>
                  </Card>
                ))}
                {fields.length < VOTE_OPTIONS_MAX && (
                  <Button style={{ marginTop: 8 }} onClick={() => add({ label: {} })}>
                    {t('addOption')}
                  </Button>
                )}
              </>
            )}
          </Form.List>
          <Space size="large" style={{ marginTop: 16 }} wrap>
            <Form.Item name="startsAt" label={t('startsAt')} extra={t('startsHelp')}>
              <Input type="datetime-local" />
            </Form.Item>
            <Form.Item name="endsAt" label={t('endsAt')} rules={[{ required: true, message: t('required') }]}>
              <Input type="datetime-local" />
            </Form.Item>
          </Space>
        </Form>
      </Modal>
      <Modal
        open={closing !== undefined}
        title={closing ? t('closeTitle', { title: closing.title.en }) : ''}
        okText={t('close')}
        okButtonProps={{ danger: true }}
        cancelText={t('cancel')}
        confirmLoading={close.isPending}
        onCancel={() => setClosing(undefined)}
        onOk={() => reasonForm.submit()}
      >
        <p>{t('closeHelp')}</p>
        <Form form={reasonForm} layout="vertical" onFinish={({ reason }) => closing && close.mutate({ id: closing.id, reason })}>
          <Form.Item name="reason" label={t('reason')}>
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
