import { ERROR_CODES } from '@tradewind/contract/errors';
import type { ArticleKind } from '@tradewind/contract/messages';
import { ErrorBlock, Skeleton, Tag } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { useSearchParams } from '@/lib/router.tsx';
import { isNotFound } from '@tradewind/http-client/api-error';
import { useArticle } from '@/api/news.ts';
import { formatDateTime } from '@/lib/format.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { RichText } from '@/ui/rich-text.tsx';
import './news.css';

function ArticlePage({ kind }: { kind: ArticleKind }) {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('id');
  const id = raw !== null && /^[1-9]\d{0,17}$/.test(raw) ? raw : null;
  const article = useArticle(id);
  const data = article.data;
  return (
    <Page title={t(kind === 'news' ? 'routes.NewsDetail' : 'routes.NoticeDetail')} backTo="/">
      {id !== null &&
      !data &&
      article.isError &&
      !isNotFound(article.error, ERROR_CODES.ARTICLE_NOT_FOUND) ? (
        <div className="tw-card">
          <LoadFailed
            error={article.error}
            onRetry={() => void article.refetch()}
            retrying={article.isFetching}
          />
        </div>
      ) : id === null || (!data && article.isError) ? (
        <div className="tw-card">
          <ErrorBlock status="empty" title={t('home.no_news')} description="" />
        </div>
      ) : !data ? (
        <div className="tw-card">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={6} animated />
        </div>
      ) : (
        <article className="tw-card tw-article" aria-labelledby="article-title">
          {data.cover && <img className="tw-article-cover" src={data.cover} alt="" />}
          <Tag color={data.kind === 'notice' ? 'warning' : 'primary'} fill="outline">
            {t(`news.${data.kind}`)}
          </Tag>
          <h2 id="article-title">{data.title}</h2>
          <time className="tw-muted" dateTime={data.publishedAt}>
            {t('news.published', { date: formatDateTime(data.publishedAt, i18n.language) })}
          </time>
          <p className="tw-article-summary">{data.summary}</p>
          <RichText className="tw-article-body" html={data.body} />
        </article>
      )}
    </Page>
  );
}

/** /NewsDetail?id=: a news article in the user's language. */
export function NewsDetailPage() {
  return <ArticlePage kind="news" />;
}

/** /NoticeDetail?id=: a notice in the user's language. */
export function NoticeDetailPage() {
  return <ArticlePage kind="notice" />;
}
