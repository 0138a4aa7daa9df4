import type { Instrument, Ticker } from '@tradewind/contract/market';
import type { ReactNode } from 'react';
import { tickerChannel } from '@tradewind/contract/market';
import { useTranslation } from '@/lib/i18n.ts';
import { Link } from '@/lib/router.tsx';
import { useChannels } from '@/api/realtime.ts';
import { formatDecimal } from '@/lib/format.ts';
import { AssetIcon } from './asset-icon.tsx';
import { ChangeTag } from './change-tag.tsx';

export const pairName = (instrument: Pick<Instrument, 'base' | 'quote'>) =>
  `${instrument.base}/${instrument.quote}`;

/** A price at its instrument's scale, grouped for the language; a dash when none is fresh. */
export function formatPrice(
  price: string | null | undefined,
  instrument: Pick<Instrument, 'priceScale'> | undefined,
  language: string,
): string {
  if (!price) return '—';
  return formatDecimal(price, language, instrument?.priceScale ?? 0);
}

/**
 * Where prices come from, said under every list of them: the simulated feed is demo data
 * and must say so (ARCHITECTURE §6).
 */
export function SourceNote({ tickers }: { tickers: readonly (Ticker | undefined)[] }) {
  const { t } = useTranslation();
  const sources = [
    ...new Set(
      tickers.map((ticker) => ticker?.source).filter((source): source is string => !!source),
    ),
  ];
  if (sources.length === 0) return null;
  return (
    <p className="tw-source-note" data-testid="price-source">
      {t('quotes.source', {
        source: sources
          .map((source) => t(`market.sources.${source}`, { defaultValue: source }))
          .join(', '),
      })}
    </p>
  );
}

interface QuoteListProps {
  instruments: readonly Instrument[];
  tickers: ReadonlyMap<string, Ticker>;
  label: string;
  /** Holds each row's ticker channel so prices move (off when a parent holds them already). */
  live?: boolean;
  /**
   * Drawn under each price (the Trade list's 24 h trend line). A render prop, so the lists
   * that draw none (Home's) do not load its component.
   */
  trend?: (symbol: string) => ReactNode;
}

/** Instruments with their live price and 24 h change; each row opens /Detail. */
export function QuoteList({ instruments, tickers, label, live = true, trend }: QuoteListProps) {
  const { t, i18n } = useTranslation();
  useChannels(live ? instruments.map((instrument) => tickerChannel(instrument.symbol)) : []);
  return (
    <ul className="tw-quotes" aria-label={label}>
      <li className="tw-quotes-head" aria-hidden>
        <span>{t('quotes.name')}</span>
        <span>{t('quotes.price')}</span>
        <span>{t('quotes.change')}</span>
      </li>
      {instruments.map((instrument) => {
        const ticker = tickers.get(instrument.symbol);
        return (
          <li key={instrument.symbol}>
            <Link
              to={`/Detail?symbol=${instrument.symbol}`}
              className="tw-quote-row"
              data-symbol={instrument.symbol}
            >
              <span className="tw-quote-name">
                <AssetIcon asset={instrument.base} size={30} />
                <span>
                  <strong>{pairName(instrument)}</strong>
                  {instrument.name !== pairName(instrument) && (
                    <span className="tw-muted">{instrument.name}</span>
                  )}
                </span>
              </span>
              {trend ? (
                <span
                  className="tw-quote-price"
                  style={{
                    display: 'flex',
                    flexDirection: 'column',
                    alignItems: 'flex-end',
                    gap: 2,
                  }}
                >
                  <span data-testid={`price-${instrument.symbol}`}>
                    {formatPrice(ticker?.price, instrument, i18n.language)}
                  </span>
                  {trend(instrument.symbol)}
                </span>
              ) : (
                <span className="tw-quote-price" data-testid={`price-${instrument.symbol}`}>
                  {formatPrice(ticker?.price, instrument, i18n.language)}
                </span>
              )}
              <ChangeTag pct={ticker?.changePct ?? null} language={i18n.language} />
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** Tickers by symbol, for the lists. */
export function tickerMap(items: readonly Ticker[] | undefined): Map<string, Ticker> {
  return new Map((items ?? []).map((ticker) => [ticker.symbol, ticker]));
}
