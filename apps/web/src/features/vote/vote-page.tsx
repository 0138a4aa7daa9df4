import { useQueryClient } from '@tanstack/react-query';
import {
  type VoteOption,
  type VotePoll,
  type VotePollStatus,
  votePercent,
} from '@tradewind/contract/vote';
import { ErrorBlock, Skeleton, Tag } from 'antd-mobile';
import { CheckCircleFill, HistogramOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDateTime } from '@/lib/format.ts';
import { confirm } from '@/ui/confirm.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { showToast } from '@/ui/toast.ts';
import { castVote } from './api/cast-vote.ts';
import { replacePoll, useVotes, votesQueryKey } from './api/get-votes.ts';

const STATUS_COLOR: Record<VotePollStatus, 'success' | 'warning' | 'default'> = {
  open: 'success',
  upcoming: 'warning',
  ended: 'default',
};

function OptionBar({
  option,
  poll,
  disabled,
  onPick,
}: {
  option: VoteOption;
  poll: VotePoll;
  disabled: boolean;
  onPick: (option: VoteOption) => void;
}) {
  const { t, i18n } = useTranslation();
  const percent = votePercent(option.count, poll.total);
  const chosen = poll.votedOptionId === option.id;
  const count = new Intl.NumberFormat(i18n.language.replace('_', '-')).format(option.count);
  return (
    <li style={{ marginTop: 8 }}>
      <button
        type="button"
        disabled={disabled}
        onClick={() => onPick(option)}
        aria-pressed={chosen}
        aria-label={t('vote.option_label', { option: option.label, count, percent })}
        style={{
          position: 'relative',
          display: 'block',
          width: '100%',
          minHeight: 44,
          padding: 0,
          border: `1px solid ${chosen ? 'var(--tw-primary)' : 'var(--tw-border-strong)'}`,
          borderRadius: 8,
          background: 'var(--tw-fill)',
          overflow: 'hidden',
          cursor: disabled ? 'default' : 'pointer',
          color: 'var(--tw-text)',
          font: 'inherit',
          textAlign: 'left',
        }}
      >
        <span
          aria-hidden
          style={{
            position: 'absolute',
            inset: 0,
            width: `${percent}%`,
            background: 'var(--tw-primary)',
            opacity: chosen ? 0.22 : 0.1,
            transition: 'width 300ms ease',
          }}
        />
        <span
          style={{
            position: 'relative',
            display: 'flex',
            alignItems: 'center',
            gap: 8,
            padding: '11px 12px',
          }}
        >
          {chosen && <CheckCircleFill color="var(--tw-primary)" aria-hidden />}
          <span
            style={{
              flex: 1,
              minWidth: 0,
              overflowWrap: 'anywhere',
              fontWeight: chosen ? 600 : 400,
            }}
          >
            {option.label}
          </span>
          <span
            style={{
              whiteSpace: 'nowrap',
              fontVariantNumeric: 'tabular-nums',
              fontSize: 13,
              color: 'var(--tw-muted)',
            }}
          >
            {count} · {percent}%
          </span>
        </span>
      </button>
    </li>
  );
}

function PollCard({
  poll,
  busy,
  onPick,
}: {
  poll: VotePoll;
  busy: boolean;
  onPick: (poll: VotePoll, option: VoteOption) => void;
}) {
  const { t, i18n } = useTranslation();
  const chosen = poll.options.find((o) => o.id === poll.votedOptionId);
  const canVote = poll.status === 'open' && !chosen && !busy;
  const when =
    poll.status === 'upcoming'
      ? t('vote.starts', { date: formatDateTime(poll.startsAt, i18n.language) })
      : poll.status === 'open'
        ? t('vote.ends', { date: formatDateTime(poll.endsAt, i18n.language) })
        : t('vote.ended', { date: formatDateTime(poll.endsAt, i18n.language) });
  return (
    <section className="tw-card" aria-labelledby={`poll-${poll.id}`} data-poll-id={poll.id}>
      <div
        style={{
          display: 'flex',
          alignItems: 'flex-start',
          justifyContent: 'space-between',
          gap: 8,
        }}
      >
        <h2 id={`poll-${poll.id}`} style={{ fontSize: 16, margin: 0, overflowWrap: 'anywhere' }}>
          {poll.title}
        </h2>
        <Tag color={STATUS_COLOR[poll.status]} fill="outline" style={{ flexShrink: 0 }}>
          {t(`vote.status.${poll.status}`)}
        </Tag>
      </div>
      {poll.description && (
        <p style={{ margin: '6px 0 0', fontSize: 14, color: 'var(--tw-muted)' }}>
          {poll.description}
        </p>
      )}
      <ul style={{ listStyle: 'none', margin: '8px 0 0', padding: 0 }}>
        {poll.options.map((option) => (
          <OptionBar
            key={option.id}
            option={option}
            poll={poll}
            disabled={!canVote}
            onPick={(picked) => onPick(poll, picked)}
          />
        ))}
      </ul>
      <div
        className="tw-muted"
        style={{
          display: 'flex',
          justifyContent: 'space-between',
          flexWrap: 'wrap',
          gap: 4,
          marginTop: 10,
        }}
      >
        <span>
          {t('vote.total', {
            total: new Intl.NumberFormat(i18n.language.replace('_', '-')).format(poll.total),
          })}
        </span>
        <span>{when}</span>
      </div>
      {chosen ? (
        <p style={{ margin: '8px 0 0', fontSize: 13, color: 'var(--tw-primary)' }}>
          {t('vote.you_voted', { option: chosen.label })}
        </p>
      ) : poll.status === 'open' ? (
        <p className="tw-muted" style={{ margin: '8px 0 0' }}>
          {t('vote.tap_to_vote')}
        </p>
      ) : null}
    </section>
  );
}

/** /Vote: polls with their options as bars of count and share; one vote per poll. */
export function VotePage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const votes = useVotes();
  const [busy, setBusy] = useState(false);
  const items = votes.data?.items ?? [];

  const onPick = async (poll: VotePoll, option: VoteOption) => {
    const confirmed = await confirm({
      title: poll.title,
      content: t('vote.confirm', { option: option.label }),
      confirmText: t('vote.submit'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    setBusy(true);
    try {
      replacePoll(queryClient, await castVote({ pollId: poll.id, optionId: option.id }));
      showToast({ content: t('success.vote'), duration: 2000 });
    } catch {
      // The client already showed the reason ("You have already voted."); show the poll as it now is.
      await queryClient.invalidateQueries({ queryKey: votesQueryKey });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={t('routes.Vote')} backTo="/My">
      {votes.isPending ? (
        <div className="tw-card">
          <Skeleton.Paragraph lineCount={5} animated />
        </div>
      ) : votes.isError && items.length === 0 ? (
        <div className="tw-card">
          <LoadFailed
            error={votes.error}
            onRetry={() => void votes.refetch()}
            retrying={votes.isFetching}
          />
        </div>
      ) : items.length === 0 ? (
        <div className="tw-card">
          <ErrorBlock
            status="empty"
            image={<HistogramOutline fontSize={64} color="var(--tw-muted)" />}
            title={t('vote.empty_title')}
            description={t('vote.empty_description')}
          />
        </div>
      ) : (
        items.map((poll) => <PollCard key={poll.id} poll={poll} busy={busy} onPick={onPick} />)
      )}
    </Page>
  );
}
