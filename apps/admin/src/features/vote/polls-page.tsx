import {
  VOTE_DESCRIPTION_MAX,
  VOTE_OPTIONS_MAX,
  VOTE_OPTION_MAX,
  VOTE_TITLE_MAX,
  type VotePollAdmin,
  type VotePollStatus,
  votePercent,
} from '@tradewind/contract/vote';
import { App, Button, Card, Form, Input, Modal, Progress, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { formatTime } from '@/lib/format.ts';
import { errorText, showFieldErrors } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { fromLocalInput, toLocalInput } from '@/lib/local-time.ts';
import { LanguageTabs, type Texts, compactTexts } from '@/ui/language-tabs.tsx';
import { QueryTable } from '@/ui/query-table.tsx';
import { ReasonModal } from '@/ui/reason-modal.tsx';
import { useClosePoll } from './api/close-poll.ts';
import { useCreatePoll } from './api/create-poll.ts';
import { usePolls } from './api/get-polls.ts';

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

const STATUS_COLOURS: Record<VotePollStatus, string> = {
  upcoming: 'blue',
  open: 'green',
  ended: 'default',
};
interface PollForm {
  title: Texts;
  description: Texts;
  options: { label: Texts }[];
  startsAt?: string;
  endsAt: string;
}

/** Polls with their results (counted from the ballots); create with options in every language; close an open poll. */
export function PollsPage() {
  const t = useT();
  const { message } = App.useApp();
  const list = usePolls();
  const [creating, setCreating] = useState(false);
  const [now] = useState(() => Date.now());
  const [closing, setClosing] = useState<VotePollAdmin>();
  const [form] = Form.useForm<PollForm>();
  const create = useCreatePoll();
  const close = useClosePoll();

  function submit(values: PollForm) {
    const body = {
      title: compactTexts(values.title),
      description: compactTexts(values.description),
      options: values.options.map((o) => ({ label: compactTexts(o.label) })),
      ...(values.startsAt ? { startsAt: fromLocalInput(values.startsAt) } : {}),
      endsAt: fromLocalInput(values.endsAt),
    };
    create.mutate(body, {
      onSuccess: () => {
        setCreating(false);
        form.resetFields();
        message.success(t('created'));
      },
      onError: (error) => {
        showFieldErrors(form, error);
        message.error(errorText(error));
      },
    });
  }

  return (
    <>
      <QueryTable<VotePollAdmin>
        query={list}
        create={{ label: t('create'), testId: 'poll-create', onClick: () => setCreating(true) }}
        columns={[
          { title: t('title'), key: 'title', render: (_: unknown, poll) => poll.title.en },
          {
            title: t('status'),
            dataIndex: 'status',
            width: 110,
            render: (status: VotePollStatus) => (
              <Tag color={STATUS_COLOURS[status]}>{t(status)}</Tag>
            ),
          },
          { title: t('votes'), dataIndex: 'total', width: 80 },
          {
            title: t('results'),
            key: 'results',
            width: 360,
            render: (_: unknown, poll) => (
              <div data-testid={`poll-results-${poll.id}`}>
                {poll.options.map((option) => (
                  <div
                    key={option.id}
                    style={{
                      display: 'grid',
                      gridTemplateColumns: '110px 1fr 40px',
                      gap: 8,
                      alignItems: 'center',
                    }}
                  >
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
          {
            title: t('period'),
            key: 'period',
            width: 180,
            render: (_: unknown, poll) => (
              <span style={{ fontSize: 12 }}>
                {formatTime(poll.startsAt)}
                <br />
                {formatTime(poll.endsAt)}
              </span>
            ),
          },
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
      <Modal
        open={creating}
        width={760}
        title={t('create')}
        okText={t('save')}
        cancelText={t('cancel')}
        confirmLoading={create.isPending}
        onCancel={() => setCreating(false)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form<PollForm>
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{
            options: [{ label: {} }, { label: {} }],
            endsAt: toLocalInput(now + 7 * 86_400_000),
          }}
        >
          <LanguageTabs
            fields={[
              {
                name: 'title',
                label: t('title'),
                max: VOTE_TITLE_MAX,
                render: () => <Input maxLength={VOTE_TITLE_MAX} />,
              },
              {
                name: 'description',
                label: t('description'),
                max: VOTE_DESCRIPTION_MAX,
                render: () => <Input.TextArea rows={2} maxLength={VOTE_DESCRIPTION_MAX} />,
              },
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
                    <Form.Item
                      name={[field.name, 'label', 'en']}
                      rules={[{ required: true, whitespace: true, message: t('required') }]}
                      style={{ marginBottom: 8 }}
                    >
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
            <Form.Item
              name="endsAt"
              label={t('endsAt')}
              rules={[{ required: true, message: t('required') }]}
            >
              <Input type="datetime-local" />
            </Form.Item>
          </Space>
        </Form>
      </Modal>
      <ReasonModal
        open={closing !== undefined}
        title={closing ? t('closeTitle', { title: closing.title.en }) : ''}
        help={t('closeHelp')}
        label={t('reason')}
        okText={t('close')}
        danger
        cancelText={t('cancel')}
        loading={close.isPending}
        onCancel={() => setClosing(undefined)}
        onSubmit={(reason) =>
          closing &&
          close.mutate(
            { id: closing.id, reason },
            {
              onSuccess: () => setClosing(undefined),
              onError: (error) => message.error(errorText(error)),
            },
          )
        }
      />
    </>
  );
}
