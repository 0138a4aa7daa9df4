import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Space, Table, type TableProps } from 'antd';
import type { ReactNode } from 'react';

export interface QueryTableProps<Row extends object> extends Omit<
  TableProps<Row>,
  'dataSource' | 'loading'
> {
  /** The list as the server sends it: `{ items }`. */
  query: UseQueryResult<{ items: Row[] }>;
  /** The "new …" button above the table. */
  create?: { label: string; testId: string; onClick: () => void };
  /** Beside the "new …" button (a filter). */
  toolbar?: ReactNode;
}

/** A page's list: its "new …" button, the load error if any, and the table of every row (no paging). */
export function QueryTable<Row extends object>({
  query,
  create,
  toolbar,
  ...table
}: QueryTableProps<Row>) {
  return (
    <>
      {create || toolbar ? (
        <Space style={{ marginBottom: 16 }}>
          {create ? (
            <Button type="primary" onClick={create.onClick} data-testid={create.testId}>
              {create.label}
            </Button>
          ) : null}
          {toolbar}
        </Space>
      ) : null}
      {query.isError && <Alert type="error" title={(query.error as Error).message} />}
      <Table<Row>
        rowKey="id"
        loading={query.isPending}
        dataSource={query.data?.items}
        pagination={false}
        {...table}
      />
    </>
  );
}
