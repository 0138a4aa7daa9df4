import { inviteLink } from '@tradewind/contract/invite';
import { Button, DotLoading, ErrorBlock, InfiniteScroll, Input, Skeleton, Tag } from 'antd-mobile';
import { GiftOutline, LinkOutline, UserAddOutline } from 'antd-mobile-icons';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { useBalances } from '@/api/balances.ts';
import { formatDateTime, formatDecimal } from '@/lib/format.ts';
import { useIdempotencyKey } from '@/lib/idempotency.ts';
import { LoadFailed } from '@/ui/load-failed.tsx';
import { Page } from '@/ui/page.tsx';
import { QrCode } from '@/ui/qr-code.tsx';
import { showToast } from '@/ui/toast.ts';
import { useInvite } from './api/get-invite.ts';
import { useInvitees } from './api/get-invitees.ts';
import { useRedeemBonusCode } from './api/redeem-bonus-code.ts';
import './invite.css';

async function copy(text: string, done: string) {
  await navigator.clipboard?.writeText(text).catch(() => undefined);
  showToast({ content: done, duration: 2000 });
}

/** The user's code, the register link with it prefilled, and its QR code. */
function InviteCard() {
  const { t, i18n } = useTranslation();
  const invite = useInvite();
  const data = invite.data;
  if (!data) {
    return (
      <section className="tw-card">
        <Skeleton.Paragraph lineCount={6} animated />
      </section>
    );
  }
  const link = inviteLink(window.location.origin, data.inviteCode);
  const share = async () => {
    if (navigator.share) {
      await navigator
        .share({
          title: t('invite.share_title'),
          text: t('invite.share_text', { code: data.inviteCode }),
          url: link,
        })
        .catch(() => undefined);
    } else {
      await copy(link, t('success.copied'));
    }
  };
  return (
    <section className="tw-card tw-invite-card" aria-labelledby="invite-code-title">
      <h2 id="invite-code-title" className="tw-invite-title">
        <UserAddOutline aria-hidden /> {t('invite.my_code')}
      </h2>
      <div className="tw-invite-code-row">
        <strong className="tw-invite-code" data-testid="invite-code">
          {data.inviteCode}
        </strong>
        <Button
          size="small"
          fill="outline"
          color="primary"
          onClick={() => copy(data.inviteCode, t('success.copied'))}
        >
          {t('invite.copy_code')}
        </Button>
      </div>
      <dl className="tw-invite-stats">
        <div>
          <dt>{t('invite.invited')}</dt>
          <dd data-testid="invite-count">
            {formatDecimal(String(data.invitedCount), i18n.language)}
          </dd>
        </div>
        <div>
          <dt>{t('invite.verified_friends')}</dt>
          <dd>{formatDecimal(String(data.verifiedCount), i18n.language)}</dd>
        </div>
      </dl>
      <div className="tw-invite-qr">
        <QrCode value={link} label={t('invite.qr_label')} sizePx={168} testId="invite-qr" />
        <p className="tw-muted">{t('invite.qr_hint')}</p>
      </div>
      <p className="tw-invite-link" data-testid="invite-link">
        <LinkOutline aria-hidden /> <span>{link}</span>
      </p>
      <div className="tw-invite-actions">
        <Button
          block
          fill="outline"
          color="primary"
          onClick={() => copy(link, t('success.copied'))}
        >
          {t('invite.copy_link')}
        </Button>
        <Button block color="primary" onClick={share}>
          {t('invite.share')}
        </Button>
      </div>
    </section>
  );
}

/** Redeem a bonus code: the reward goes to the spot account, shown at once. */
function BonusCodeCard() {
  const { t, i18n } = useTranslation();
  const [code, setCode] = useState('');
  const [reward, setReward] = useState<{ amount: string; asset: string } | null>(null);
  const redeem = useRedeemBonusCode();
  const keys = useIdempotencyKey();
  const balances = useBalances();
  const usdt = balances.data?.spot.find((s) => s.asset === 'USDT')?.available;
  const normalized = code.trim().toUpperCase();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!normalized || redeem.isPending) return;
    setReward(null);
    redeem.mutate(
      { code: normalized, idempotencyKey: keys.keyFor({ code: normalized }) },
      {
        onSuccess: (result) => {
          keys.done();
          setCode('');
          setReward({ amount: result.amount, asset: result.asset });
          showToast({ content: result.message, icon: 'success', duration: 2000 });
        },
        // A refusal ("Cannot participate in the activity at this time…") was shown by the client; a new try is a new request.
        onError: () => keys.done(),
      },
    );
  };

  return (
    <section className="tw-card" aria-labelledby="bonus-code-title">
      <h2 id="bonus-code-title" className="tw-invite-title">
        <GiftOutline aria-hidden /> {t('invite.bonus_title')}
      </h2>
      <p className="tw-muted tw-invite-note">{t('invite.bonus_hint')}</p>
      <form className="tw-invite-redeem" onSubmit={submit}>
        <Input
          aria-label={t('invite.bonus_placeholder')}
          placeholder={t('invite.bonus_placeholder')}
          value={code}
          onChange={setCode}
          maxLength={32}
          clearable
          autoComplete="off"
          data-testid="bonus-code-input"
        />
        <Button
          type="submit"
          color="primary"
          loading={redeem.isPending}
          disabled={!normalized}
          data-testid="bonus-code-redeem"
        >
          {t('invite.redeem')}
        </Button>
      </form>
      {reward && (
        <p className="tw-invite-reward" role="status" data-testid="bonus-code-reward">
          {t('invite.reward_line', {
            amount: formatDecimal(reward.amount, i18n.language),
            asset: reward.asset,
          })}
        </p>
      )}
      <p className="tw-muted tw-invite-balance">
        {t('invite.spot_usdt')}{' '}
        <strong data-testid="bonus-spot-usdt">
          {usdt === undefined ? '—' : formatDecimal(usdt, i18n.language)}
        </strong>
      </p>
    </section>
  );
}

/** Who registered with the user's code: masked contact, join date, verified or not. */
function InviteesCard() {
  const { t, i18n } = useTranslation();
  const invitees = useInvitees();
  const items = invitees.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className="tw-card" aria-labelledby="invitees-title">
      <h2 id="invitees-title" className="tw-invite-title">
        {t('invite.invitees_title')}
      </h2>
      {invitees.isPending ? (
        <Skeleton.Paragraph lineCount={3} animated />
      ) : invitees.isError && items.length === 0 ? (
        <LoadFailed
          error={invitees.error}
          onRetry={() => void invitees.refetch()}
          retrying={invitees.isFetching}
        />
      ) : items.length === 0 ? (
        <ErrorBlock
          status="empty"
          title={t('invite.no_invitees')}
          description={t('invite.no_invitees_hint')}
          style={{ '--image-height': '80px' }}
        />
      ) : (
        <>
          <ul className="tw-invitees" data-testid="invitees">
            {items.map((invitee, index) => (
              <li key={`${invitee.joinedAt}-${index}`}>
                <span className="tw-invitee-main">
                  <span className="tw-invitee-contact">{invitee.contact}</span>
                  <small className="tw-muted">
                    {t('invite.joined', { date: formatDateTime(invitee.joinedAt, i18n.language) })}
                  </small>
                </span>
                <Tag color={invitee.verified ? 'success' : 'default'} fill="outline">
                  {invitee.verified ? t('invite.verified') : t('invite.not_verified')}
                </Tag>
              </li>
            ))}
          </ul>
          {/* The list ends the way the app's other lists do: "No more data" (spec §8). */}
          <InfiniteScroll
            loadMore={async () => void (await invitees.fetchNextPage({ throwOnError: true }))}
            hasMore={invitees.hasNextPage}
          >
            {(hasMore, failed, retry) =>
              failed ? (
                <button type="button" className="tw-link" onClick={retry}>
                  {t('invite.retry')}
                </button>
              ) : hasMore ? (
                <DotLoading />
              ) : (
                <span className="tw-muted" data-testid="invitees-end">
                  {t('invite.no_more')}
                </span>
              )
            }
          </InfiniteScroll>
        </>
      )}
    </section>
  );
}

/** /Invite: invitation code, share link and QR, bonus codes, and the people invited. */
export function InvitePage() {
  const { t } = useTranslation();
  return (
    <Page title={t('routes.Invite')} backTo="/My">
      <InviteCard />
      <BonusCodeCard />
      <InviteesCard />
    </Page>
  );
}
