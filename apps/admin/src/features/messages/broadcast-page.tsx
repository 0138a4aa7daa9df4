import { LANGUAGES, LANGUAGE_NAMES } from '@tradewind/contract/languages';
import {
  MESSAGE_BODY_MAX,
  MESSAGE_TITLE_MAX,
  type BroadcastView,
} from '@tradewind/contract/messages';
import { App, Button, Card, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { formatTime } from '@/lib/format.ts';
import { errorText } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { LanguageTabs, type Texts, compactTexts } from '@/ui/language-tabs.tsx';
import { QueryTable } from '@/ui/query-table.tsx';
import { useBroadcasts } from './api/get-broadcasts.ts';
import { useSendBroadcast } from './api/send-broadcast.ts';

const useT = defineStrings({
  en: {
    compose: 'New broadcast',
    title: 'Title',
    body: 'Message',
    send: 'Send to every user…',
    confirmTitle: 'Send this message to every user?',
    confirmHelp:
      'Each user gets it in their language ({languages}), English otherwise. A sent message cannot be recalled.',
    confirm: 'Send now',
    cancel: 'Cancel',
    sent: 'Sent to {n} users.',
    history: 'Sent',
    recipients: 'Recipients',
    operator: 'Sent by',
    at: 'Time',
    languages: 'Languages',
  },
  'zh-CN': {
    compose: '新建群发',
    title: '标题',
    body: '内容',
    send: '发送给所有用户…',
    confirmTitle: '确定把这条消息发送给所有用户吗？',
    confirmHelp: '每位用户收到其语言的版本（{languages}），没有则收到英文。发出后无法撤回。',
    confirm: '立即发送',
    cancel: '取消',
    sent: '已发送给 {n} 位用户。',
    history: '已发送',
    recipients: '收件人数',
    operator: '发送人',
    at: '时间',
    languages: '语言',
  },
});

/** A message to every user, per language, sent only after a confirmation; the list of what was sent. */
export function BroadcastPage() {
  const t = useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ title: Texts; body: Texts }>();
  const [confirming, setConfirming] = useState<{ title: Texts; body: Texts }>();
  const list = useBroadcasts();
  const send = useSendBroadcast();
  const confirm = (values: { title: Texts; body: Texts }) =>
    send.mutate(
      { title: compactTexts(values.title), body: compactTexts(values.body) },
      {
        onSuccess: (result) => {
          setConfirming(undefined);
          form.resetFields();
          message.success(t('sent', { n: result.recipients }));
        },
        onError: (error) => {
          setConfirming(undefined);
          message.error(errorText(error));
        },
      },
    );
  const languagesOf = (text: Texts) =>
    LANGUAGES.filter((l) => text[l]?.trim())
      .map((l) => LANGUAGE_NAMES[l])
      .join(' · ');

  return (
    <>
      <Card title={t('compose')} style={{ marginBottom: 24 }}>
        <Form form={form} layout="vertical" onFinish={(values) => setConfirming(values)}>
          <LanguageTabs
            fields={[
              {
                name: 'title',
                label: t('title'),
                max: MESSAGE_TITLE_MAX,
                render: (l) => (
                  <Input data-testid={`broadcast-title-${l}`} maxLength={MESSAGE_TITLE_MAX} />
                ),
              },
              {
                name: 'body',
                label: t('body'),
                max: MESSAGE_BODY_MAX,
                render: (l) => (
                  <Input.TextArea
                    data-testid={`broadcast-body-${l}`}
                    rows={4}
                    maxLength={MESSAGE_BODY_MAX}
                    showCount
                  />
                ),
              },
            ]}
          />
          <Button type="primary" danger htmlType="submit" data-testid="broadcast-send">
            {t('send')}
          </Button>
        </Form>
      </Card>
      <Typography.Title level={5}>{t('history')}</Typography.Title>
      <QueryTable<BroadcastView>
        query={list}
        expandable={{
          expandedRowRender: (row) => (
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
              {row.body.en}
            </Typography.Paragraph>
          ),
        }}
        columns={[
          { title: t('title'), key: 'title', render: (_: unknown, row) => row.title.en },
          {
            title: t('languages'),
            key: 'languages',
            render: (_: unknown, row) => languagesOf(row.title),
          },
          { title: t('recipients'), dataIndex: 'recipients', width: 110 },
          { title: t('operator'), dataIndex: 'operator', width: 160 },
          {
            title: t('at'),
            dataIndex: 'createdAt',
            width: 180,
            render: (at: string) => formatTime(at),
          },
        ]}
      />
      <Modal
        open={confirming !== undefined}
        title={t('confirmTitle')}
        okText={t('confirm')}
        okButtonProps={{ danger: true, id: 'broadcast-confirm' }}
        cancelText={t('cancel')}
        confirmLoading={send.isPending}
        onCancel={() => setConfirming(undefined)}
        onOk={() => confirming && confirm(confirming)}
      >
        {confirming && (
          <>
            <Typography.Paragraph strong>{confirming.title.en}</Typography.Paragraph>
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>
              {confirming.body.en}
            </Typography.Paragraph>
            <Typography.Paragraph type="secondary">
              {t('confirmHelp', { languages: languagesOf(confirming.title) })}
            </Typography.Paragraph>
          </>
        )}
      </Modal>
    </>
  );
}
