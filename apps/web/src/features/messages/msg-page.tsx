import {
  type Message,
  type MessageGroup,
  type MessageKind,
  messageGroup,
} from '@tradewind/contract/messages';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorBlock, InfiniteScroll, Skeleton } from 'antd-mobile';
import {
  BankcardOutline,
  BellOutline,
  CheckShieldOutline,
  CollectMoneyOutline,
  HistogramOutline,
  MailOpenOutline,
  PieOutline,
  ReceivePaymentOutline,
  SendOutline,
  SmileOutline,
  SoundOutline,
  StarOutline,
} from 'antd-mobile-icons';
import { type ReactNode, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Link } from '@/lib/router.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { showToast } from '@/ui/toast.ts';
import { applyRead, markAllRead, useMessages } from './api/messages.ts';
import './messages.css';

const GROUP_ICON: Record<MessageGroup, ReactNode> = {
  deposit: <ReceivePaymentOutline />,
  withdrawal: <SendOutline />,
  kyc: <CheckShieldOutline />,
  contract: <HistogramOutline />,
  broadcast: <SoundOutline />,
  welcome: <SmileOutline />,
  loan: <CollectMoneyOutline />,
  mining: <PieOutline />,
  ieo: <StarOutline />,
  account: <BankcardOutline />,
};

export function KindIcon({ kind }: { kind: MessageKind }) {
  return (
    <span className={`tw-msg-icon tw-msg-icon-${messageGroup(kind)}`} aria-hidden>
      {GROUP_ICON[messageGroup(kind)]}
    </span>
  );
}

function MessageRow({ message }: { message: Message }) {
  const { t, i18n } = useTranslation();
  return (
    <li>
      <Link
        to={`/MsgDetail?id=${message.id}`}
        className={`tw-msg-row${message.read ? '' : ' tw-msg-unread'}`}
        data-message-id={message.id}
      >
        <KindIcon kind={message.kind} />
        <span className="tw-msg-text">
          <span className="tw-msg-head">
            <strong>{message.title}</strong>
            {!message.read && (
              <span className="tw-msg-dot" role="img" aria-label={t('messages.unread')} />
            )}
          </span>
          <span className="tw-msg-preview">{message.body}</span>
          <time className="tw-muted" dateTime={message.createdAt}>
            {t(`messages.kind.${messageGroup(message.kind)}`)} ·{' '}
            {formatDateTime(message.createdAt, i18n.language)}
          </time>
        </span>
      </Link>
    </li>
  );
}

/** /Msg: the user's messages, newest first, unread ones marked; "mark all read". */
export function MsgPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const messages = useMessages();
  const [busy, setBusy] = useState(false);
  const items = messages.data?.pages.flatMap((page) => page.items) ?? [];
  const unread = messages.data?.pages[0]?.unread ?? 0;

  const readAll = async () => {
    setBusy(true);
    try {
      applyRead(queryClient, (await markAllRead()).unread, 'all');
      showToast({ content: t('messages.marked_all'), duration: 2000 });
    } catch {
      // The client already showed why.
    } finally {
      setBusy(false);
    }
  };

  const right =
    unread > 0 ? (
      <button type="button" className="tw-link tw-msg-read-all" onClick={readAll} disabled={busy}>
        <MailOpenOutline aria-hidden /> {t('messages.mark_all')}
      </button>
    ) : null;

  return (
    <Page title={t('routes.Msg')} backTo="/My" right={right}>
      {messages.isPending ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={6} animated />
        </div>
      ) : messages.isError && items.length === 0 ? (
        <div className="tw-card">
          <LoadFailed
            error={messages.error}
            onRetry={() => void messages.refetch()}
            retrying={messages.isFetching}
          />
        </div>
      ) : items.length === 0 ? (
        <div className="tw-card">
          <ErrorBlock
            status="empty"
            image={<BellOutline fontSize={64} color="var(--tw-muted)" />}
            title={t('messages.empty_title')}
            description={t('messages.empty_description')}
          />
        </div>
      ) : (
        <>
          {unread > 0 && (
            <p className="tw-muted tw-msg-summary" data-testid="msg-unread-summary">
              {t('messages.unread_count', { count: unread })}
            </p>
          )}
          <ul className="tw-card tw-msg-list" aria-label={t('routes.Msg')}>
            {items.map((message) => (
              <MessageRow key={message.id} message={message} />
            ))}
          </ul>
          <InfiniteScroll
            hasMore={messages.hasNextPage}
            loadMore={async () => void (await messages.fetchNextPage({ throwOnError: true }))}
          >
            <span className="tw-muted">{t('messages.no_more')}</span>
          </InfiniteScroll>
        </>
      )}
    </Page>
  );
}
