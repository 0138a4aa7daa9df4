import { Skeleton } from 'antd-mobile';
import { type CSSProperties, useEffect, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Link, useNavigate } from '@/lib/router.tsx';
import { useArticles } from '@/api/news.ts';
import { formatDateTime } from '@/lib/format.ts';
import { useHydrated } from '@/lib/hydration.ts';
import { HomeCard } from './home-card.tsx';

/** How many news articles Home lists. */
const HOME_NEWS = 3;

/**
 * A speaker, outlined like antd-mobile's icons, in two paths (theirs, SoundOutline, is a long one).
 */
function SpeakerIcon() {
  return (
    <svg
      width="1em"
      height="1em"
      viewBox="0 0 24 24"
      aria-hidden
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      className="tw-notice-icon"
    >
      <path d="M3.5 9.5h3.8L12 5.5v13l-4.7-4H3.5z" />
      <path d="M15.5 9.2a4 4 0 0 1 0 5.6M18.2 6.5a7.8 7.8 0 0 1 0 11" />
    </svg>
  );
}

/** Scroll speed of a notice longer than the strip, px per second (antd-mobile's NoticeBar's). */
const NOTICE_SPEED = 50;

/**
 * The latest notice as a strip at the top of Home; a tap opens it. A title longer than the
 * strip scrolls through it (after two seconds, at 50 px/s, again and again), or, for a user
 * who asks for less motion, ends in an ellipsis. Our own few lines instead of antd-mobile's
 * NoticeBar, which brought two icons and its observers to Home's first screen
 * (docs/performance.md#first-screen-speed).
 */
export function NoticeStrip() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notices = useArticles('notice');
  const latest = notices.data?.items[0];
  const box = useRef<HTMLSpanElement>(null);
  const text = useRef<HTMLSpanElement>(null);
  const [overflow, setOverflow] = useState(0);
  useEffect(() => {
    const outer = box.current;
    const inner = text.current;
    if (!outer || !inner) return;
    const measure = () => setOverflow(Math.max(0, inner.scrollWidth - outer.clientWidth));
    measure();
    const watch = new ResizeObserver(measure);
    watch.observe(outer);
    return () => watch.disconnect();
  }, [latest?.title]);
  if (!latest) return null;
  const scroll =
    overflow > 0
      ? ({
          '--tw-notice-shift': `${-overflow - 24}px`,
          '--tw-notice-duration': `${((overflow + 24) / NOTICE_SPEED).toFixed(1)}s`,
        } as CSSProperties)
      : undefined;
  return (
    <button
      type="button"
      className="tw-home-notice"
      onClick={() => navigate(`/NoticeDetail?id=${latest.id}`)}
      aria-label={`${t('home.notices')}: ${latest.title}`}
      data-testid="home-notice"
    >
      <SpeakerIcon />
      <span ref={box} className="tw-notice-box">
        <span
          ref={text}
          className="tw-notice-text"
          data-scrolling={overflow > 0 || undefined}
          style={scroll}
        >
          {latest.title}
        </span>
      </span>
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
