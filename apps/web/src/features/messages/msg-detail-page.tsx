import { ERROR_CODES } from '@tradewind/contract/errors';
import { messageGroup } from '@tradewind/contract/messages';
import { useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, Skeleton } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate, useSearchParams } from '@/lib/router.tsx';
import { isNotFound } from '@tradewind/http-client/api-error';
import { formatDateTime } from '@/lib/format.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { applyRead, markRead, useMessage } from './api/messages.ts';
import { KindIcon } from './msg-page.tsx';
import './messages.css';

/** /MsgDetail?id=: one message; opening it marks it read. */
export function MsgDetailPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const raw = params.get('id');
  const id = raw !== null && /^[1-9]\d{0,17}$/.test(raw) ? raw : null;
  const message = useMessage(id);
  const data = message.data;

  useEffect(() => {
    if (!data || data.read) return;
    markRead(data.id)
      .then(({ unread }) => applyRead(queryClient, unread, [data.id]))
      .catch(() => undefined);
  }, [data, queryClient]);

  // Links are paths of this app, written by the server; anything else is not followed.
  const link =
    data?.link && data.link.startsWith('/') && !data.link.startsWith('//') ? data.link : null;

  return (
    <Page title={t('routes.MsgDetail')} backTo="/Msg">
      {id !== null &&
      !data &&
      message.isError &&
      !isNotFound(message.error, ERROR_CODES.MESSAGE_NOT_FOUND) ? (
        <div className="tw-card">
          <LoadFailed
            error={message.error}
            onRetry={() => void message.refetch()}
            retrying={message.isFetching}
          />
        </div>
      ) : id === null || (!data && message.isError) ? (
        <div className="tw-card">
          <ErrorBlock status="empty" title={t('messages.empty_title')} description="" />
        </div>
      ) : !data ? (
        <div className="tw-card">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={4} animated />
        </div>
      ) : (
        <article className="tw-card tw-msg-detail" aria-labelledby="msg-title">
          <header>
            <KindIcon kind={data.kind} />
            <div>
              <h2 id="msg-title">{data.title}</h2>
              <time className="tw-muted" dateTime={data.createdAt}>
                {t(`messages.kind.${messageGroup(data.kind)}`)} ·{' '}
                {formatDateTime(data.createdAt, i18n.language)}
              </time>
            </div>
          </header>
          <p className="tw-msg-body">{data.body}</p>
          {link && (
            <Button block color="primary" fill="outline" onClick={() => navigate(link)}>
              {t('messages.view')}
            </Button>
          )}
        </article>
      )}
    </Page>
  );
}
