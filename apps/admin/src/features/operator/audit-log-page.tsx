import type { auditListSchema } from '@tradewind/contract/operator';
import { Alert, Button, Form, Input, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import { formatTime } from '@/lib/format.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { FieldChanges } from '@/ui/field-changes.tsx';
import { diffFields } from '@/ui/field-diff.ts';
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
    changes: 'What changed',
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
    changes: '变更内容',
    reason: '原因',
    older: '加载更早的记录',
    end: '没有更早的记录。',
  },
});

type Entry = z.infer<typeof auditListSchema>['items'][number];

/**
 * The asset of amounts in entries that do not name one: these targets deal in USDT only (card
 * deposits, loans, miners, contract periods, IEO subscriptions).
 */
const USDT_TARGETS = new Set([
  'card_deposit',
  'loan',
  'loan_product',
  'mining_product',
  'mining_rental',
  'contract_period',
  'ieo_project',
]);

/** Who did what, when, to what, what it changed field by field, and why; newest first, filterable. */
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
            title: `${t('when')} · ${t('operator')}`,
            key: 'when',
            width: 170,
            render: (_: unknown, row) => (
              <Space orientation="vertical" size={0}>
                <span style={{ whiteSpace: 'nowrap' }}>{formatTime(row.createdAt)}</span>
                <Typography.Text strong>{row.operator}</Typography.Text>
              </Space>
            ),
          },
          {
            title: `${t('action')} · ${t('target')}`,
            key: 'action',
            width: 200,
            render: (_: unknown, row) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text code>{row.action}</Typography.Text>
                <Typography.Text type="secondary">
                  {row.targetType} #{row.targetId}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: t('changes'),
            key: 'changes',
            render: (_: unknown, row) => (
              <FieldChanges
                changes={diffFields(
                  row.before,
                  row.after,
                  USDT_TARGETS.has(row.targetType) ? 'USDT' : undefined,
                )}
              />
            ),
          },
          {
            title: t('reason'),
            dataIndex: 'reason',
            width: 200,
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
