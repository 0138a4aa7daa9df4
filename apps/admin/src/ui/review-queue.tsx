import type { QueueUser as QueueUserData } from '@tradewind/contract/operator';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { Descriptions, Drawer, Space, type TableColumnsType, Typography } from 'antd';
import { type HTMLAttributes, type ReactNode, useState } from 'react';
import type { QueueDecision } from '@/api/queue-action.ts';
import { formatTime } from '@/lib/format.ts';
import { defineStrings } from '@/lib/i18n.ts';
import { DecisionButtons } from './decision-buttons.tsx';
import type { MoneySummary } from './money-confirm.tsx';
import { PagedTable } from './paged-table.tsx';
import { PrivateImage } from './private-image.tsx';
import { QueueUser } from './queue-user.tsx';

const useT = defineStrings({
  en: { empty: 'Nothing waiting for review.', more: 'Load more', user: 'User' },
  'zh-CN': { empty: '暂无待审核的项目。', more: '加载更多', user: '用户' },
});

/** What every queue's items have: whose it is, and when it came in. */
export interface QueueItem {
  id: string;
  createdAt: string;
  user: QueueUserData;
}

/** One row of an item's details in the drawer. */
export interface QueueDetail {
  label: string;
  value: ReactNode;
}

/** A private upload to look at beside the details (a document, a payment screenshot). */
export interface QueueFile {
  caption?: string;
  fileId: string | null | undefined;
}

export interface ReviewQueueProps<T extends QueueItem> {
  /** Prefix of data-testid attributes: `<testId>-table`, `<testId>-row-<id>`, `<testId>-drawer`. */
  testId: string;
  /** What the reviewer compares and what a decision does, above the table. */
  intro: string;
  /** Above the table, under the intro (a status filter). */
  toolbar?: ReactNode;
  /** The queue's pages of items, oldest first, as the server orders them. */
  queue: UseInfiniteQueryResult<InfiniteData<{ items: T[] }>>;
  /** When an item came in, in its queue's words (submitted, reported, requested…): a column and a detail. */
  timeLabel: string;
  /** The table's columns after the number, the time and the user. */
  columns: TableColumnsType<T>;
  /** The drawer's title, e.g. "Verification #12". */
  itemTitle: (item: T) => string;
  /** The drawer's details after the user, before the time. */
  details: (item: T) => (QueueDetail | false)[];
  /** Documents shown under the details (fetched through the operators' logged route). */
  files?: { title: string; width?: number; of: (item: T) => QueueFile[] };
  /** Above the decision: what it needs, who approved first. */
  notice?: (item: T) => ReactNode;
  /** Approve, or reject with the reason the user reads; for the items `canDecide` allows (all by default). */
  decide?: (decision: QueueDecision) => Promise<unknown>;
  canDecide?: (item: T) => boolean;
  approveLabel?: (item: T) => string | undefined;
  /**
   * What approving this item does with whose money (user, asset, amount, fee, what they receive):
   * approval opens it as a confirmation first. Every queue decides about money, so it is required.
   */
  confirm: (item: T) => MoneySummary;
  /** What an item that is not to be decided needs instead (a payout, a disbursement). */
  actions?: (item: T) => ReactNode;
}

/**
 * A review queue: the table of pending items and, for the one clicked, a drawer with its details,
 * its documents and the decision. Every queue of the console is one configuration of it. The
 * drawer follows the item: once a decision takes it out of the queue (the query is loaded
 * again), the drawer closes by itself.
 */
export function ReviewQueue<T extends QueueItem>(props: ReviewQueueProps<T>) {
  const t = useT();
  const { queue, testId } = props;
  const [openId, setOpenId] = useState<string>();
  const open = queue.data?.pages.flatMap((page) => page.items).find((item) => item.id === openId);
  const columns: TableColumnsType<T> = [
    { title: '#', dataIndex: 'id', width: 80 },
    {
      title: props.timeLabel,
      dataIndex: 'createdAt',
      render: (value: string) => formatTime(value),
    },
    { title: t('user'), key: 'user', render: (_, item) => <QueueUser user={item.user} /> },
    ...props.columns,
  ];
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{props.intro}</Typography.Text>
      {props.toolbar}
      <PagedTable<T>
        pages={queue}
        moreLabel={t('more')}
        rowKey="id"
        size="middle"
        columns={columns}
        locale={{ emptyText: t('empty') }}
        onRow={(item) =>
          ({
            onClick: () => setOpenId(item.id),
            style: { cursor: 'pointer' },
            'data-testid': `${testId}-row-${item.id}`,
          }) as HTMLAttributes<HTMLElement>
        }
        data-testid={`${testId}-table`}
        scroll={{ x: 'max-content' }}
      />
      <Drawer
        open={open !== undefined}
        onClose={() => setOpenId(undefined)}
        size="large"
        title={open ? props.itemTitle(open) : null}
        destroyOnHidden
        data-testid={`${testId}-drawer`}
      >
        {open ? <ItemDetail {...props} item={open} /> : null}
      </Drawer>
    </Space>
  );
}

/** The drawer's body: who, what, when, the documents, then the decision or the action the item needs. */
function ItemDetail<T extends QueueItem>({ item, ...props }: ReviewQueueProps<T> & { item: T }) {
  const t = useT();
  const details = props.details(item).filter((row): row is QueueDetail => row !== false);
  const files =
    props.files
      ?.of(item)
      .filter((file): file is QueueFile & { fileId: string } => Boolean(file.fileId)) ?? [];
  const decide = props.decide;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('user')}>
          <QueueUser user={item.user} />
        </Descriptions.Item>
        {details.map((row) => (
          <Descriptions.Item key={row.label} label={row.label}>
            {row.value}
          </Descriptions.Item>
        ))}
        <Descriptions.Item label={props.timeLabel}>{formatTime(item.createdAt)}</Descriptions.Item>
      </Descriptions>
      {props.files && files.length > 0 ? (
        <div>
          <Typography.Title level={5}>{props.files.title}</Typography.Title>
          <Space wrap align="start" size="middle">
            {files.map((file) => (
              <figure key={file.fileId} style={{ margin: 0 }}>
                <PrivateImage
                  fileId={file.fileId}
                  alt={file.caption ?? props.files?.title ?? ''}
                  width={props.files?.width ?? 200}
                />
                {file.caption ? (
                  <figcaption style={{ color: '#888', marginTop: 4 }}>{file.caption}</figcaption>
                ) : null}
              </figure>
            ))}
          </Space>
        </div>
      ) : null}
      {props.notice?.(item)}
      {decide && (props.canDecide?.(item) ?? true) ? (
        <DecisionButtons
          approveLabel={props.approveLabel?.(item)}
          confirm={props.confirm(item)}
          onDecide={(decision, reason) =>
            decide({ id: item.id, decision, ...(reason ? { reason } : {}) })
          }
        />
      ) : (
        props.actions?.(item)
      )}
    </Space>
  );
}
