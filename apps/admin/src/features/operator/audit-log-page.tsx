import type { auditListSchema } from '@tradewind/contract/operator';
import { Alert, Button, Form, Input, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import { formatTime } from '@/lib/format.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { type AuditFilter, useAuditLog } from './api/get-audit-log.ts';

const useT = defineStrings({
  en: {
    action: 'Action',
    operator: 'Operator',
    targetType: 'Target type',
    targetId: 'Target id',
    filter: 'Filter',
    clear: 'Clear',
    when: 'When',
    target: 'Target',
    before: 'Before',
    after: 'After',
    reason: 'Reason',
    older: 'Load older entries',
    end: 'No older entries.',
  },
  'zh-CN': {
    action: '操作',
    operator: '操作员',
    targetType: '对象类型',
    targetId: '对象 ID',
    filter: '筛选',
    clear: '清除',
    when: '时间',
    target: '对象',
    before: '之前',
    after: '之后',
    reason: '原因',
    older: '加载更早的记录',
    end: '没有更早的记录。',
  },
});

type Entry = z.infer<typeof auditListSchema>['items'][number];

const json = (text: string | null) =>
  text ? (
    <Typography.Text code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12 }}>
      {text}
    </Typography.Text>
  ) : (
    '—'
  );

/** Who did what, when, to what, before and after, and why; newest first, filterable. */
export function AuditLogPage() {
  const t = useT();
  const [filter, setFilter] = useState<AuditFilter>({});
  const [form] = Form.useForm<AuditFilter>();
  const log = useAuditLog(filter);
  const rows = log.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <Form
        form={form}
        layout="inline"
        style={{ marginBottom: 16, rowGap: 8 }}
        onFinish={(values) =>
          setFilter(
            Object.fromEntries(
              Object.entries(values)
                .filter(([, v]) => typeof v === 'string' && v.trim() !== '')
                .map(([k, v]) => [k, (v as string).trim()]),
            ),
          )
        }
      >
        <Form.Item name="action" label={t('action')}>
          <Input placeholder="kyc.approve" allowClear data-testid="audit-action" />
        </Form.Item>
        <Form.Item name="operator" label={t('operator')}>
          <Input allowClear />
        </Form.Item>
        <Form.Item name="targetType" label={t('targetType')}>
          <Input allowClear />
        </Form.Item>
        <Form.Item name="targetId" label={t('targetId')}>
          <Input allowClear style={{ width: 120 }} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" data-testid="audit-filter">
            {t('filter')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              setFilter({});
            }}
          >
            {t('clear')}
          </Button>
        </Space>
      </Form>
      {log.isError && <Alert type="error" title={(log.error as Error).message} />}
      <Table<Entry>
        rowKey="id"
        size="small"
        loading={log.isPending}
        dataSource={rows}
        pagination={false}
        data-testid="audit-table"
        columns={[
          {
            title: t('when'),
            dataIndex: 'createdAt',
            width: 170,
            render: (at: string) => formatTime(at),
          },
          { title: t('operator'), dataIndex: 'operator', width: 140 },
          { title: t('action'), dataIndex: 'action', width: 170 },
          {
            title: t('target'),
            key: 'target',
            width: 150,
            render: (_: unknown, row) => `${row.targetType} #${row.targetId}`,
          },
          { title: t('before'), dataIndex: 'before', render: json },
          { title: t('after'), dataIndex: 'after', render: json },
          {
            title: t('reason'),
            dataIndex: 'reason',
            width: 180,
            render: (reason: string | null) => reason ?? '—',
          },
        ]}
      />
      <div style={{ marginTop: 16 }}>
        {log.hasNextPage ? (
          <Button onClick={() => log.fetchNextPage()} loading={log.isFetchingNextPage}>
            {t('older')}
          </Button>
        ) : (
          rows.length > 0 && <Typography.Text type="secondary">{t('end')}</Typography.Text>
        )}
      </div>
    </>
  );
}
