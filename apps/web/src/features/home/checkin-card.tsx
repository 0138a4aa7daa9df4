import {
  CHECKIN_POINTS,
  STREAK_BONUS_EVERY,
  STREAK_BONUS_POINTS,
  type CheckinState,
} from '@tradewind/contract/points';
import { Button, Skeleton } from 'antd-mobile';
import { CheckOutline, GiftOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { Link } from '@/lib/router.tsx';
import { formatDateTime, formatDecimal } from '@/lib/format.ts';
import { showToast } from '@/ui/toast.ts';
import { useCheckIn, useCheckinState, useRecentPoints } from './api/checkin.ts';

/**
 * The daily check-in on Home (spec §2): streak, points, today's reward and one button.
 * Days are UTC days, so the card says when it resets rather than guessing a local midnight.
 */
export function CheckinCard() {
  const { t, i18n } = useTranslation();
  const state = useCheckinState();
  const checkIn = useCheckIn();
  const [showHistory, setShowHistory] = useState(false);
  const data = state.data;
  const number = (value: number) => formatDecimal(String(value), i18n.language);

  const onCheckIn = () => {
    checkIn.mutate(undefined, {
      onSuccess: ({ awarded }) => {
        const content =
          awarded.bonus > 0
            ? t('checkin.awarded_bonus', {
                points: number(awarded.checkin),
                bonus: number(awarded.bonus),
              })
            : t('checkin.awarded', { points: number(awarded.total) });
        showToast({ content, icon: 'success', duration: 2500 });
      },
    });
  };

  return (
    <section
      className="tw-card tw-checkin"
      aria-labelledby="home-checkin"
      data-testid="checkin-card"
    >
      <div className="tw-section-head">
        <h2 id="home-checkin">{t('checkin.title')}</h2>
        {data && (
          <button
            type="button"
            className="tw-link tw-checkin-history-toggle"
            aria-expanded={showHistory}
            onClick={() => setShowHistory((shown) => !shown)}
          >
            {showHistory ? t('checkin.hide_history') : t('checkin.history')}
          </button>
        )}
      </div>
      {!data ? (
        <Skeleton.Paragraph lineCount={3} animated />
      ) : (
        <>
          <dl className="tw-checkin-stats">
            <div>
              <dt>{t('checkin.streak')}</dt>
              <dd data-testid="checkin-streak">{number(data.streak)}</dd>
            </div>
            <div>
              <dt>{t('checkin.points')}</dt>
              <dd data-testid="checkin-points">{number(data.points)}</dd>
            </div>
            <div>
              <dt>{t('checkin.today_reward')}</dt>
              <dd data-testid="checkin-reward">+{number(data.todayReward)}</dd>
            </div>
          </dl>
          <StreakDots state={data} />
          <p className="tw-checkin-hint">{bonusHint(data, t)}</p>
          <Button
            block
            color="primary"
            size="large"
            disabled={data.checkedInToday}
            className={data.checkedInToday ? 'tw-checkin-done' : undefined}
            loading={checkIn.isPending}
            onClick={onCheckIn}
            data-testid="checkin-button"
          >
            {data.checkedInToday ? (
              <>
                <CheckOutline aria-hidden /> {t('checkin.done')}
              </>
            ) : (
              t('checkin.check_in', { points: number(data.todayReward) })
            )}
          </Button>
          <p className="tw-checkin-rule">
            {t('points.rule', {
              checkin: CHECKIN_POINTS,
              every: STREAK_BONUS_EVERY,
              bonus: STREAK_BONUS_POINTS,
            })}
          </p>
          <Link to="/Rewards" className="tw-link tw-checkin-all" data-testid="home-rewards-link">
            {t('routes.Rewards')}
          </Link>
          {showHistory && <RecentPoints />}
        </>
      )}
    </section>
  );
}

/** Where the streak stands in the current 7-day cycle; the last dot is the bonus day. */
function StreakDots({ state }: { state: CheckinState }) {
  const { t } = useTranslation();
  const done = state.checkedInToday
    ? ((state.streak - 1) % STREAK_BONUS_EVERY) + 1
    : state.streak % STREAK_BONUS_EVERY;
  return (
    <ol
      className="tw-checkin-dots"
      aria-label={t('checkin.cycle', { done, every: STREAK_BONUS_EVERY })}
    >
      {Array.from({ length: STREAK_BONUS_EVERY }, (_, index) => {
        const day = index + 1;
        const bonus = day === STREAK_BONUS_EVERY;
        return (
          <li key={day} className={day <= done ? 'is-done' : undefined} aria-hidden>
            <span className="tw-checkin-dot">
              {day <= done ? <CheckOutline /> : bonus ? <GiftOutline /> : day}
            </span>
            <span className="tw-checkin-dot-label">
              {bonus ? `+${STREAK_BONUS_POINTS}` : `+${CHECKIN_POINTS}`}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

function bonusHint(
  state: CheckinState,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  if (state.nextBonusInDays === 0) return t('checkin.bonus_today', { bonus: STREAK_BONUS_POINTS });
  return t('checkin.bonus_in', { count: state.nextBonusInDays, bonus: STREAK_BONUS_POINTS });
}

function RecentPoints() {
  const { t, i18n } = useTranslation();
  const history = useRecentPoints();
  if (history.isPending) return <Skeleton.Paragraph lineCount={2} animated />;
  const items = history.data?.items ?? [];
  const all = (
    <Link to="/PointsHistory" className="tw-link tw-checkin-all" data-testid="points-history-all">
      {t('points_history.all')}
    </Link>
  );
  if (items.length === 0)
    return (
      <>
        <p className="tw-empty-line">{t('checkin.no_history')}</p>
        {all}
      </>
    );
  return (
    <>
      <ul
        className="tw-checkin-history"
        aria-label={t('checkin.history')}
        data-testid="points-history"
      >
        {items.map((event) => (
          <li key={event.id}>
            <span>
              {t(`points.kind.${event.kind}`)}
              <small className="tw-muted">{formatDateTime(event.createdAt, i18n.language)}</small>
            </span>
            <strong>+{formatDecimal(String(event.amount), i18n.language)}</strong>
          </li>
        ))}
      </ul>
      {all}
    </>
  );
}
