import type { Order, OrderTick } from '@tradewind/contract/instant';
import type { Instrument } from '@tradewind/contract/market';
import { Button } from 'antd-mobile';
import { CheckCircleFill, ExclamationCircleFill } from 'antd-mobile-icons';
import { type ReactNode, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDecimal, formatTickTime } from '@/lib/format.ts';
import { formatPrice } from '@/ui/quote-list.tsx';
import { useReplay } from '../api/get-replay.ts';
import { priceScaleOf } from '../tick-index.ts';
import { SignatureCheck } from './signature-check.tsx';
import { TickQuotes } from './tick-quotes.tsx';

interface VerificationProps {
  order: Order;
  instrument: Instrument | undefined;
  rule: string | null;
  /** The rule applied to the two ticks, in words (settled orders). */
  comparison: string | null;
}

/**
 * ARCHITECTURE §1: a user can open any settled order and see the open tick, the close
 * tick, the source quotes each is the median of and the index rule, check the close tick's
 * signature where its source signs, then have the public replay endpoint recompute the
 * result from the recorded ticks.
 */
export function Verification({ order, instrument, rule, comparison }: VerificationProps) {
  const { t, i18n } = useTranslation();
  const [asked, setAsked] = useState(false);
  const replay = useReplay(order.publicId, asked);
  const settled = order.state === 'settled';
  const publicUrl = `/api/v1/contracts/replay?publicId=${encodeURIComponent(order.publicId)}`;
  const scale = priceScaleOf(order.symbol, instrument);

  return (
    <section className="tw-card tw-verify" aria-labelledby="cd-verify">
      <h2 id="cd-verify" className="tw-cd-h2">
        {t('contracts.verify_title')}
      </h2>
      <p className="tw-muted tw-verify-intro">{t('contracts.verify_intro')}</p>
      <TickCard
        title={t('contracts.open_tick')}
        tick={order.openTick}
        instrument={instrument}
        scale={scale}
        testId="open-tick"
      />
      {order.closeTick ? (
        <TickCard
          title={t('contracts.close_tick')}
          tick={order.closeTick}
          instrument={instrument}
          scale={scale}
          testId="close-tick"
        >
          {settled && <SignatureCheck tick={order.closeTick} scale={scale} />}
        </TickCard>
      ) : (
        <div className="tw-tick" data-testid="close-tick">
          <h3>{t('contracts.close_tick')}</h3>
          <p className="tw-muted">
            {settled
              ? t('contracts.close_tick_none')
              : t('contracts.close_tick_pending', {
                  time: formatTickTime(order.deliverAt, i18n.language),
                })}
          </p>
        </div>
      )}
      {comparison && (
        <p className="tw-verify-comparison" data-testid="verify-comparison">
          {comparison}
        </p>
      )}
      <IndexRule />
      {rule && (
        <div className="tw-verify-rule">
          <h3>{t('contracts.rule')}</h3>
          <p>{rule}</p>
        </div>
      )}
      {settled && (
        <div className="tw-verify-replay">
          {!asked || replay.isPending ? (
            <Button
              block
              color="primary"
              fill="outline"
              loading={asked && replay.isPending}
              onClick={() => setAsked(true)}
            >
              {t('contracts.replay_button')}
            </Button>
          ) : replay.isError ? (
            <Button block color="primary" fill="outline" onClick={() => void replay.refetch()}>
              {t('contracts.replay_retry')}
            </Button>
          ) : (
            <div
              className="tw-replay-result"
              data-agrees={replay.data.agrees}
              data-testid="replay-result"
            >
              {replay.data.agrees ? (
                <CheckCircleFill aria-hidden />
              ) : (
                <ExclamationCircleFill aria-hidden />
              )}
              <div>
                <strong>
                  {replay.data.agrees
                    ? t('contracts.replay_agrees')
                    : t('contracts.replay_disagrees')}
                </strong>
                <p>
                  {t('contracts.replay_detail', {
                    outcome: t(`positions.outcome_${replay.data.outcome}`),
                    payout: formatDecimal(replay.data.payout, i18n.language, 2),
                    stored: t(`positions.outcome_${replay.data.stored.outcome}`),
                    storedPayout: formatDecimal(replay.data.stored.payout, i18n.language, 2),
                  })}
                </p>
              </div>
            </div>
          )}
          <a className="tw-link tw-verify-link" href={publicUrl} target="_blank" rel="noreferrer">
            {t('contracts.replay_public_link')}
          </a>
        </div>
      )}
    </section>
  );
}

/** How a tick's price is made from the sources' quotes (docs/prices.md), in words. */
function IndexRule() {
  const { t } = useTranslation();
  return (
    <div className="tw-verify-rule" data-testid="index-rule">
      <h3>{t('contracts.index_rule')}</h3>
      <ul className="tw-index-rule">
        <li>{t('contracts.index_rule_median')}</li>
        <li>{t('contracts.index_rule_quarantine')}</li>
        <li>{t('contracts.index_rule_void')}</li>
      </ul>
    </div>
  );
}

interface TickCardProps {
  title: string;
  tick: OrderTick;
  instrument: Instrument | undefined;
  scale: number;
  testId: string;
  children?: ReactNode;
}

function TickCard({ title, tick, instrument, scale, testId, children }: TickCardProps) {
  const { t, i18n } = useTranslation();
  return (
    <div className="tw-tick" data-testid={testId}>
      <h3>{title}</h3>
      <dl>
        <dt>{t('contracts.tick_price')}</dt>
        <dd data-testid={`${testId}-price`}>
          {formatPrice(tick.price, instrument, i18n.language)}
        </dd>
        <dt>{t('contracts.tick_time')}</dt>
        <dd>{formatTickTime(tick.ts, i18n.language)}</dd>
        <dt>{t('contracts.tick_source')}</dt>
        <dd data-testid={`${testId}-source`}>
          {t(`market.sources.${tick.source}`, { defaultValue: tick.sourceLabel })}
        </dd>
        <dt>{t('contracts.tick_id')}</dt>
        <dd>#{tick.id}</dd>
      </dl>
      <TickQuotes tick={tick} scale={scale} testId={testId} />
      {children}
    </div>
  );
}
