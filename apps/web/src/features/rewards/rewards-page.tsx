import type { Task, TaskId } from '@tradewind/contract/tasks';
import { Button, ProgressBar, Skeleton, Tag } from 'antd-mobile';
import {
  CalendarOutline,
  CheckCircleOutline,
  GiftOutline,
  HistogramOutline,
  TeamOutline,
  UserContactOutline,
  AddCircleOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useIdempotencyKey } from '@/lib/idempotency.ts';
import { Link, useNavigate } from '@/lib/router.tsx';
import { formatDecimal } from '@/lib/format.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { showToast } from '@/ui/toast.ts';
import { useClaimTask } from './api/claim-task.ts';
import { useTasks } from './api/get-tasks.ts';
import './rewards.css';

/** Where each unfinished task is done. */
const TASK_PATHS: Record<TaskId, string> = {
  checkin_streak: '/',
  kyc_verified: '/RealName',
  first_deposit: '/Recharge',
  first_trade: '/Transaction',
  invite_verified: '/Invite',
};

const TASK_ICONS: Record<TaskId, ReactNode> = {
  checkin_streak: <CalendarOutline />,
  kyc_verified: <UserContactOutline />,
  first_deposit: <AddCircleOutline />,
  first_trade: <HistogramOutline />,
  invite_verified: <TeamOutline />,
};

/**
 * /Rewards, the rewards centre: tasks with their progress (computed by the server, shown within
 * 0–100), a claim for each finished one, and the way to the points shop.
 */
export function RewardsPage() {
  const { t, i18n } = useTranslation();
  const tasks = useTasks();
  return (
    <Page title={t('routes.Rewards')} backTo="/My">
      <section className="tw-card tw-rewards-head" aria-labelledby="rewards-points">
        <div>
          <h2 id="rewards-points" className="tw-muted">
            {t('rewards.my_points')}
          </h2>
          <strong data-testid="rewards-points">
            {tasks.data ? formatDecimal(String(tasks.data.points), i18n.language) : '—'}
          </strong>
        </div>
        <div className="tw-rewards-head-links">
          <Link to="/Shop" className="tw-link" data-testid="rewards-shop-link">
            <GiftOutline aria-hidden /> {t('routes.Shop')}
          </Link>
          <Link to="/PointsHistory" className="tw-link">
            {t('routes.PointsHistory')}
          </Link>
        </div>
      </section>
      <section className="tw-card" aria-labelledby="rewards-tasks">
        <h2 id="rewards-tasks" className="tw-rewards-title">
          {t('rewards.tasks')}
        </h2>
        {tasks.isPending ? (
          <Skeleton.Paragraph lineCount={6} animated />
        ) : tasks.isError ? (
          <LoadFailed
            error={tasks.error}
            onRetry={() => void tasks.refetch()}
            retrying={tasks.isFetching}
          />
        ) : (
          <ul className="tw-rewards-list" data-testid="rewards-tasks">
            {tasks.data.items.map((task) => (
              <TaskRow key={task.id} task={task} />
            ))}
          </ul>
        )}
      </section>
    </Page>
  );
}

function TaskRow({ task }: { task: Task }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const claim = useClaimTask();
  const keys = useIdempotencyKey();
  // The server keeps progress within 0–100; so does the bar, whatever it is given (spec §9).
  const progress = Math.min(100, Math.max(0, task.progress));
  const reward =
    task.reward.kind === 'points'
      ? t('rewards.reward_points', { points: formatDecimal(task.reward.amount, i18n.language) })
      : t('rewards.reward_asset', {
          amount: formatDecimal(task.reward.amount, i18n.language),
          asset: task.reward.asset,
        });

  const onClaim = () => {
    if (claim.isPending) return;
    claim.mutate(
      { task: task.id, idempotencyKey: keys.keyFor({ task: task.id }) },
      {
        onSuccess: (result) => {
          keys.done();
          showToast({ content: result.message, icon: 'success', duration: 2000 });
          navigate('/Success?title=mission&detail=reward&next=/Rewards');
        },
        onError: () => keys.done(),
      },
    );
  };

  return (
    <li className="tw-rewards-task" data-testid={`task-${task.id}`} data-status={task.status}>
      <span className="tw-rewards-icon" aria-hidden>
        {TASK_ICONS[task.id]}
      </span>
      <div className="tw-rewards-body">
        <div className="tw-rewards-row">
          <strong className="tw-rewards-name">{t(`rewards.task.${task.id}`)}</strong>
          <span className="tw-rewards-reward">{reward}</span>
        </div>
        <p className="tw-muted tw-rewards-hint">
          {t(`rewards.hint.${task.id}`, { done: task.done, target: task.target })}
        </p>
        <div className="tw-rewards-progress">
          {/* antd's bar is a plain div, which may not carry a name: the progressbar role does. */}
          <div
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
            aria-label={t('rewards.progress_label', { percent: progress })}
            style={{ flex: 1 }}
          >
            <ProgressBar
              percent={progress}
              style={{ '--fill-color': 'var(--tw-primary)', '--track-color': 'var(--tw-fill)' }}
            />
          </div>
          <span className="tw-rewards-percent" data-testid={`task-${task.id}-progress`}>
            {progress}%
          </span>
        </div>
        {task.status === 'unavailable' && (
          <p className="tw-rewards-unavailable" role="note">
            {t('errors.TASK_UNAVAILABLE')}
          </p>
        )}
      </div>
      <div className="tw-rewards-action">
        {task.status === 'claimed' ? (
          <Tag color="success" fill="outline">
            <CheckCircleOutline aria-hidden /> {t('rewards.claimed')}
          </Tag>
        ) : task.status === 'claimable' ? (
          <Button
            size="small"
            color="primary"
            loading={claim.isPending}
            onClick={onClaim}
            data-testid={`task-${task.id}-claim`}
          >
            {t('rewards.claim')}
          </Button>
        ) : task.status === 'in_progress' ? (
          <Button size="small" fill="outline" onClick={() => navigate(TASK_PATHS[task.id])}>
            {t('rewards.go')}
          </Button>
        ) : (
          <Button size="small" disabled>
            {t('rewards.claim')}
          </Button>
        )}
      </div>
    </li>
  );
}
