import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Form, type FormInstance, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type ReactNode, useState } from 'react';
import { errorText, showFieldErrors } from '@/lib/form-errors.ts';
import { defineStrings } from '@/lib/i18n.ts';

const useT = defineStrings({
  en: {
    create: 'New',
    edit: 'Edit',
    save: 'Save',
    cancel: 'Cancel',
    saved: 'Saved.',
    fix: 'Fix the highlighted fields.',
    on: 'On',
    off: 'Off',
  },
  'zh-CN': {
    create: '新建',
    edit: '编辑',
    save: '保存',
    cancel: '取消',
    saved: '已保存。',
    fix: '请修正标出的字段。',
    on: '开',
    off: '关',
  },
});

export interface CatalogEditorProps<Row extends object, Values extends object> {
  /** Prefix of data-testid attributes: `<testId>-table`, `<testId>-edit-<key>`, `<testId>-save`. */
  testId: string;
  queryKey: readonly unknown[];
  load: () => Promise<{ items: Row[] }>;
  /** Sends the form's values (with the edited row's identity, if any); the reply replaces the row. */
  save: (values: Values, row: Row | undefined) => Promise<unknown>;
  rowKey: (row: Row) => string;
  columns: ColumnsType<Row>;
  /** The form's values for a row. */
  toForm: (row: Row) => Values;
  /** The values a new item starts with; without it, items can only be edited. */
  blank?: Values;
  fields: (form: FormInstance<Values>) => ReactNode;
  title: (row: Row | undefined) => string;
  /** Shown above the table (what the page changes, and what it never does). */
  note?: ReactNode;
}

/**
 * A catalog page: a table of the server's rows and a drawer that edits one (or creates one).
 * The form's rules mirror the contract's schema; the server's field errors land on the fields,
 * anything else is a message. Nothing changes unless the server accepts the whole save.
 */
export function CatalogEditor<Row extends object, Values extends object>(
  props: CatalogEditorProps<Row, Values>,
) {
  const t = useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: props.queryKey, queryFn: props.load });
  const [editing, setEditing] = useState<{ row: Row | undefined } | undefined>();
  const [form] = Form.useForm<Values>();

  const save = useMutation({
    mutationFn: (values: Values) => props.save(values, editing?.row),
    onSuccess: () => {
      setEditing(undefined);
      void message.success(t('saved'));
      void queryClient.invalidateQueries({ queryKey: props.queryKey });
    },
    onError: (error) => {
      showFieldErrors(form, error);
      void message.error(errorText(error));
    },
  });

  const open = (row: Row | undefined) => {
    form.resetFields();
    form.setFieldsValue((row ? props.toForm(row) : props.blank) as never);
    setEditing({ row });
  };

  const columns: ColumnsType<Row> = [
    ...props.columns,
    {
      title: '',
      key: 'edit',
      width: 80,
      render: (_: unknown, row: Row) => (
        <Button
          size="small"
          onClick={() => open(row)}
          data-testid={`${props.testId}-edit-${props.rowKey(row)}`}
        >
          {t('edit')}
        </Button>
      ),
    },
  ];

  return (
    <>
      {props.note}
      {props.blank && (
        <Space style={{ marginBottom: 16 }}>
          <Button
            type="primary"
            onClick={() => open(undefined)}
            data-testid={`${props.testId}-create`}
          >
            {t('create')}
          </Button>
        </Space>
      )}
      {list.isError && (
        <Alert type="error" title={(list.error as Error).message} style={{ marginBottom: 16 }} />
      )}
      <div data-testid={`${props.testId}-table`}>
        <Table<Row>
          rowKey={props.rowKey}
          loading={list.isPending}
          dataSource={list.data?.items}
          pagination={false}
          columns={columns}
          size="middle"
          scroll={{ x: 'max-content' }}
        />
      </div>
      <Drawer
        open={editing !== undefined}
        title={editing ? props.title(editing.row) : ''}
        size={520}
        onClose={() => setEditing(undefined)}
        destroyOnHidden
        forceRender
        extra={
          <Space>
            <Button onClick={() => setEditing(undefined)}>{t('cancel')}</Button>
            <Button
              type="primary"
              loading={save.isPending}
              onClick={() => form.submit()}
              data-testid={`${props.testId}-save`}
            >
              {t('save')}
            </Button>
          </Space>
        }
      >
        <Form<Values>
          form={form}
          layout="vertical"
          onFinish={(values) => save.mutate(values)}
          onFinishFailed={() => void message.error(t('fix'))}
        >
          {props.fields(form)}
        </Form>
      </Drawer>
    </>
  );
}

/** A catalog row's switch (enabled, deposits, withdrawals) as the table shows it. */
export function OnOff({ on }: { on: boolean }) {
  const t = useT();
  return on ? <Tag color="green">{t('on')}</Tag> : <Tag>{t('off')}</Tag>;
}

/** A rule: the value is at most `other`'s (a minimum below its maximum), compared exactly as decimals. */
export const notAbove =
  (other: string, text: string) =>
  ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
    validator(_: unknown, value: unknown) {
      const max = getFieldValue(other);
      if (
        typeof value !== 'string' ||
        typeof max !== 'string' ||
        !/^\d+(\.\d+)?$/.test(value) ||
        !/^\d+(\.\d+)?$/.test(max)
      )
        return Promise.resolve();
      const scale = Math.max(value.split('.')[1]?.length ?? 0, max.split('.')[1]?.length ?? 0);
      const toMinor = (s: string) =>
        BigInt((s.split('.')[0] ?? '0') + (s.split('.')[1] ?? '').padEnd(scale, '0'));
      return toMinor(value) > toMinor(max) ? Promise.reject(new Error(text)) : Promise.resolve();
    },
  });

/** A decimal amount pattern with at most `decimals` places. */
export const decimalPattern = (decimals: number) =>
  decimals > 0 ? new RegExp(`^\\d{1,30}(\\.\\d{1,${decimals}})?$`) : /^\d{1,30}$/;
