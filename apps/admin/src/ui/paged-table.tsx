import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { ApiError } from '@tradewind/http-client/api-error';
import { Alert, Button, Table, type TableProps } from 'antd';
import { defineStrings } from '@/lib/i18n.ts';

const useT = defineStrings({
  en: { failed: 'Could not load the list.' },
  'zh-CN': { failed: '无法加载列表。' },
});

export interface PagedTableProps<Row extends object> extends Omit<
  TableProps<Row>,
  'dataSource' | 'loading' | 'pagination'
> {
  /** The list's pages as the server sends them, `{ items }` each. */
  pages: UseInfiniteQueryResult<InfiniteData<{ items: Row[] }>>;
  /** The label of the button that loads the next page. */
  moreLabel: string;
}

/** A list the server pages: the load error if any, the rows so far, and a button for the next page while there is one. */
export function PagedTable<Row extends object>({
  pages,
  moreLabel,
  ...table
}: PagedTableProps<Row>) {
  const t = useT();
  const items = pages.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      {pages.error ? (
        <Alert
          type="error"
          showIcon
          message={pages.error instanceof ApiError ? pages.error.message : t('failed')}
        />
      ) : null}
      <Table<Row> pagination={false} loading={pages.isLoading} dataSource={items} {...table} />
      {pages.hasNextPage ? (
        <Button onClick={() => void pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
          {moreLabel}
        </Button>
      ) : null}
    </>
  );
}
