import { NoticeBar, Skeleton } from 'antd-mobile';
import { SoundOutline } from 'antd-mobile-icons';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useNavigate } from '@/lib/router.tsx';
import { useArticles } from '@/api/news.ts';
import { formatDateTime } from '@/lib/format.ts';
import { useHydrated } from '@/lib/hydration.ts';
import { HomeCard } from './home-card.tsx';

/** How many news articles Home lists. */
const HOME_NEWS = 3;

/** The latest notice as a scrolling bar at the top of Home; a tap opens it. */
export function NoticeStrip() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notices = useArticles('notice');
  const latest = notices.data?.items[0];
  if (!latest) return null;
  return (
    <button
      type="button"
      className="tw-home-notice"
      onClick={() => navigate(`/NoticeDetail?id=${latest.id}`)}
      aria-label={`${t('home.notices')}: ${latest.title}`}
      data-testid="home-notice"
    >
      <NoticeBar
        content={latest.title}
        icon={<SoundOutline />}
        color="info"
        style={{ '--border-color': 'transparent', borderRadius: 10 }}
      />
    </button>
  );
}

/** Home's news: the newest articles with cover, title, summary and time. */
export function NewsSection() {
  const { t, i18n } = useTranslation();
  const news = useArticles('news');
  // The server renders Home without the visitor's time zone: times fill in once the app runs.
  const hydrated = useHydrated();
  const items = news.data?.items.slice(0, HOME_NEWS) ?? [];
  return (
    <HomeCard id="home-news" title={t('home.news')}>
      {news.isPending ? (
        <Skeleton.Paragraph lineCount={3} animated />
      ) : items.length === 0 ? (
        <p className="tw-empty-line">{t('home.no_news')}</p>
      ) : (
        <ul className="tw-home-news">
          {items.map((article) => (
            <li key={article.id}>
              <Link to={`/NewsDetail?id=${article.id}`} data-article-id={article.id}>
                {article.cover && <img src={article.cover} alt="" width={88} height={48} />}
                <span>
                  <strong>{article.title}</strong>
                  <span className="tw-home-news-summary">{article.summary}</span>
                  <time className="tw-muted" dateTime={article.publishedAt}>
                    {hydrated ? formatDateTime(article.publishedAt, i18n.language) : '\u00a0'}
                  </time>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </HomeCard>
  );
}
