import { Alert, Button, Drawer, Table, type TableColumnsType } from 'antd';
import { type ReactNode, useState } from 'react';
import { ApiError } from '@admin/api/client';
import { defineStrings } from '@admin/lib/i18n';

const useT = defineStrings({
  en: { empty: 'Nothing waiting for review.', more: 'Load more', failed: 'Could not load the queue.' },
  'zh-CN': { empty: '暂无待审核的项目。', more: '加载更多', failed: '无法加载队列。' },
});

export interface ReviewQueueProps<T extends { id: string }> {
  /** Pending items, oldest first, as the server orders them. */
  items: T[] | undefined;
  loading: boolean;
  error: unknown;
  more?: { has: boolean; loading: boolean; load: () => void };
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
export function ReviewQueue<T extends { id: string }>({ items, loading, error, more, columns, drawerTitle, detail, testId }: ReviewQueueProps<T>) {
  const t = useT();
  const [openId, setOpenId] = useState<string>();
  const open = items?.find((item) => item.id === openId);
  return (
    <>
      {error ? <Alert type="error" showIcon style={{ marginBottom: 16 }} message={error instanceof ApiError ? error.message : t('failed')} /> : null}
      <Table<T>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={items ?? []}
        columns={columns}
        pagination={false}
        locale={{ emptyText: t('empty') }}
        onRow={(item) => ({ onClick: () => setOpenId(item.id), style: { cursor: 'pointer' }, 'data-testid': `${testId}-row-${item.id}` }) as React.HTMLAttributes<HTMLElement>}
        data-testid={`${testId}-table`}
        scroll={{ x: 'max-content' }}
      />
      {more?.has ? (
        <Button style={{ marginTop: 16 }} loading={more.loading} onClick={more.load}>
          {t('more')}
        </Button>
      ) : null}
      <Drawer open={open !== undefined} onClose={() => setOpenId(undefined)} size="large" title={open ? drawerTitle(open) : null} destroyOnHidden data-testid={`${testId}-drawer`}>
        {open ? detail(open) : null}
      </Drawer>
    </>
  );
}
