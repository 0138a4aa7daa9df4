import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { Alert, Button, Drawer, Table, type TableColumnsType } from 'antd';
import { type ReactNode, useState } from 'react';
import { ApiError } from '@tradewind/http-client/api-error';
import { defineStrings } from '@/lib/i18n.ts';

const useT = defineStrings({
  en: { empty: 'Nothing waiting for review.', more: 'Load more', failed: 'Could not load the queue.' },
  'zh-CN': { empty: '暂无待审核的项目。', more: '加载更多', failed: '无法加载队列。' },
});

export interface ReviewQueueProps<T extends { id: string }> {
  /** The queue's pages of pending items, oldest first, as the server orders them. */
  queue: UseInfiniteQueryResult<InfiniteData<{ items: T[] }>>;
  columns: TableColumnsType<T>;
  drawerTitle: (item: T) => ReactNode;
  /** The drawer's body: everything the reviewer needs, and the decision. */
  detail: (item: T) => ReactNode;
  testId: string;
}

/**
 * A review queue: the table of pending items and, for the one clicked, a drawer with its
 * documents and the decision. The drawer follows the item: once a decision takes it out of
 * the queue (the query is invalidated), the drawer closes by itself.
 */
export function ReviewQueue<T extends { id: string }>({ queue, columns, drawerTitle, detail, testId }: ReviewQueueProps<T>) {
  const t = useT();
  const [openId, setOpenId] = useState<string>();
  const items = queue.data?.pages.flatMap((page) => page.items);
  const open = items?.find((item) => item.id === openId);
  return (
    <>
      {queue.error ? <Alert type="error" showIcon style={{ marginBottom: 16 }} message={queue.error instanceof ApiError ? queue.error.message : t('failed')} /> : null}
      <Table<T>
        rowKey="id"
        size="middle"
        loading={queue.isPending}
        dataSource={items ?? []}
        columns={columns}
        pagination={false}
        locale={{ emptyText: t('empty') }}
        onRow={(item) => ({ onClick: () => setOpenId(item.id), style: { cursor: 'pointer' }, 'data-testid': `${testId}-row-${item.id}` }) as React.HTMLAttributes<HTMLElement>}
        data-testid={`${testId}-table`}
        scroll={{ x: 'max-content' }}
      />
      {queue.hasNextPage ? (
        <Button style={{ marginTop: 16 }} loading={queue.isFetchingNextPage} onClick={() => void queue.fetchNextPage()}>
          {t('more')}
        </Button>
      ) : null}
      <Drawer open={open !== undefined} onClose={() => setOpenId(undefined)} size="large" title={open ? drawerTitle(open) : null} destroyOnHidden data-testid={`${testId}-drawer`}>
        {open ? detail(open) : null}
      </Drawer>
    </>
  );
}
