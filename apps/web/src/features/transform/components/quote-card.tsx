import type { Quote } from '@tradewind/contract/conversion';
import { LANGUAGE_TAGS, type Language } from '@tradewind/contract/languages';
import { QUOTE_TTL_MS } from '@tradewind/contract/conversion';
import { Button, ProgressBar } from 'antd-mobile';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDecimal } from '@/lib/format.ts';

interface QuoteCardProps {
  quote: Quote;
  /** Milliseconds left before the quote expires (never below zero). */
  remainingMs: number;
  expired: boolean;
  confirming: boolean;
  refreshing: boolean;
  onConfirm: () => void;
  onRefresh: () => void;
}

/** The quote: what you pay, at which recorded price, the fee, what you receive, and ten seconds to confirm. */
export function QuoteCard({
  quote,
  remainingMs,
  expired,
  confirming,
  refreshing,
  onConfirm,
  onRefresh,
}: QuoteCardProps) {
  const { t, i18n } = useTranslation();
  const tag = LANGUAGE_TAGS[i18n.language as Language] ?? 'en';
  const coin = quote.from === 'USDT' ? quote.to : quote.from;
  const feePercent = new Intl.NumberFormat(tag, {
    style: 'percent',
    maximumFractionDigits: 2,
  }).format(quote.feeBps / 10_000);
  const priceTime = new Intl.DateTimeFormat(tag, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(new Date(quote.priceTime));
  const seconds = Math.ceil(remainingMs / 1000);
  const fmt = (value: string) => formatDecimal(value, i18n.language);
  const rows: [string, string][] = [
    [t('transform.you_pay'), `${fmt(quote.amount)} ${quote.from}`],
    [t('transform.rate'), `1 ${coin} = ${fmt(quote.rate)} USDT`],
    [t('transform.fee', { percent: feePercent }), `${fmt(quote.fee)} ${quote.feeAsset}`],
  ];
  return (
    <section className="tw-card tw-tf-quote" aria-label={t('transform.quote')} aria-live="polite">
      <dl className="tw-tf-rows">
        {rows.map(([label, value]) => (
          <div key={label} className="tw-tf-row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <div className="tw-tf-row tw-tf-receive">
          <dt>{t('transform.you_receive')}</dt>
          <dd data-testid="quote-receive">
            {fmt(quote.receive)} {quote.to}
          </dd>
        </div>
      </dl>
      <p className="tw-muted tw-tf-source">
        {t('transform.price_recorded', { time: priceTime, source: quote.sourceLabel })}
      </p>
      <ProgressBar
        percent={expired ? 0 : (remainingMs / QUOTE_TTL_MS) * 100}
        style={{ '--fill-color': expired ? 'var(--tw-down)' : 'var(--tw-primary)' }}
        aria-hidden
      />
      <p
        className={expired ? 'tw-tf-expired' : 'tw-muted'}
        role="timer"
        style={{ margin: '6px 0 12px' }}
      >
        {expired ? t('transform.quote_expired') : t('transform.expires_in', { seconds })}
      </p>
      <div className="tw-tf-actions">
        <Button size="large" onClick={onRefresh} loading={refreshing} style={{ flex: 1 }}>
          {t('transform.refresh')}
        </Button>
        <Button
          size="large"
          color="primary"
          onClick={onConfirm}
          loading={confirming}
          disabled={expired}
          style={{ flex: 2 }}
        >
          {t('transform.confirm_convert')}
        </Button>
      </div>
    </section>
  );
}
