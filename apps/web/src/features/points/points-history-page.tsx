import { Button, DotLoading, ErrorBlock, InfiniteScroll, Skeleton } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { useNavigate } from '@/lib/router.tsx';
import { formatDateTime, formatSigned } from '@/lib/format.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { usePointsHistory } from './api/get-points-history.ts';
import './points.css';

/** /PointsHistory: every points event, newest first: what it was for, how many, when. */
export function PointsHistoryPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const history = usePointsHistory();
  const items = history.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Page title={t('routes.PointsHistory')} backTo="/My">
      <section className="tw-card">
        {history.isPending ? (
          <Skeleton.Paragraph lineCount={5} animated />
        ) : history.isError && items.length === 0 ? (
          <LoadFailed
            error={history.error}
            onRetry={() => void history.refetch()}
            retrying={history.isFetching}
          />
        ) : items.length === 0 ? (
          <ErrorBlock
            status="empty"
            title={t('points_history.empty')}
            description={t('points_history.empty_hint')}
          >
            <Button color="primary" onClick={() => navigate('/')}>
              {t('points_history.go_check_in')}
            </Button>
          </ErrorBlock>
        ) : (
          <>
            <ul
              className="tw-points-list"
              aria-label={t('routes.PointsHistory')}
              data-testid="points-history-list"
            >
              {items.map((event) => (
                <li key={event.id}>
                  <span className="tw-points-main">
                    <span>{t(`points.kind.${event.kind}`)}</span>
                    <small className="tw-muted">
                      {formatDateTime(event.createdAt, i18n.language)}
                    </small>
                  </span>
                  <strong className={event.amount >= 0 ? 'tw-points-plus' : 'tw-points-minus'}>
                    {formatSigned(String(event.amount), i18n.language)}
                  </strong>
                </li>
              ))}
            </ul>
            <InfiniteScroll
              loadMore={async () => void (await history.fetchNextPage({ throwOnError: true }))}
              hasMore={history.hasNextPage}
            >
              {(hasMore) =>
                hasMore ? (
                  <DotLoading />
                ) : (
                  <span className="tw-muted">{t('points_history.no_more')}</span>
                )
              }
            </InfiniteScroll>
          </>
        )}
      </section>
    </Page>
  );
}
