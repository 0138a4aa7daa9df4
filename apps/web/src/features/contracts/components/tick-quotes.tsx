import type { OrderTick } from '@tradewind/contract/instant';
import { ExclamationCircleFill } from 'antd-mobile-icons';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDateTime, formatDecimal } from '@/lib/format.ts';
import { tickIndex } from '../tick-index.ts';

/** A quote's clock time to the millisecond; the date is the tick's, shown above the table. */
const CLOCK: Intl.DateTimeFormatOptions = {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  fractionalSecondDigits: 3,
  hour12: false,
};

interface TickQuotesProps {
  tick: OrderTick;
  scale: number;
  testId: string;
}

/**
 * The quotes a tick's price is the median of, one row per source, and that median worked out
 * here by the index rule. A recorded price that is not the median of its quotes says so.
 */
export function TickQuotes({ tick, scale, testId }: TickQuotesProps) {
  const { t, i18n } = useTranslation();
  const index = tickIndex(tick, scale);
  if (!tick.quotes || !index) return null;
  const price = (value: string) => formatDecimal(value, i18n.language, scale);
  const clock = (iso: string) => formatDateTime(iso, i18n.language, CLOCK);

  return (
    <div className="tw-quotes" data-testid={`${testId}-quotes`}>
      <table className="tw-quotes-table">
        <caption>{t('contracts.quotes_caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('contracts.quote_source')}</th>
            <th scope="col">{t('contracts.quote_price')}</th>
            <th scope="col">{t('contracts.quote_source_time')}</th>
            <th scope="col">{t('contracts.quote_received')}</th>
          </tr>
        </thead>
        <tbody>
          {tick.quotes.map((quote) => (
            <tr key={quote.source} data-source={quote.source}>
              <th scope="row">
                {t(`market.sources.${quote.source}`, { defaultValue: quote.sourceLabel })}
              </th>
              <td>{price(quote.price)}</td>
              <td>{clock(quote.sourceTime)}</td>
              <td>{clock(quote.receivedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="tw-quotes-median" data-testid={`${testId}-median`}>
        {index.price === null
          ? t('contracts.median_none')
          : t('contracts.median', { count: index.count, price: price(index.price) })}
      </p>
      {!index.agrees && (
        <p className="tw-quotes-warning" role="alert" data-testid={`${testId}-median-disagrees`}>
          <ExclamationCircleFill aria-hidden />
          <span>{t('contracts.median_disagrees', { price: price(tick.price) })}</span>
        </p>
      )}
    </div>
  );
}
