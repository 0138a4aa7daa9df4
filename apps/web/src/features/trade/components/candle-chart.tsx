import type { Candle, KlineInterval } from '@tradewind/contract/market';
import { LANGUAGE_TAGS, normalizeLanguage } from '@tradewind/contract/languages';
import {
  CandlestickSeries,
  type CandlestickData,
  CrosshairMode,
  HistogramSeries,
  type HistogramData,
  type IChartApi,
  type ISeriesApi,
  LineSeries,
  type LineData,
  LineStyle,
  type Time,
  TickMarkType,
  type UTCTimestamp,
  createChart,
} from 'lightweight-charts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { formatDecimal, truncateDecimal } from '@/lib/format.ts';
import { movingAverage } from '../moving-average.ts';

/**
 * The candlestick chart. This module (with lightweight-charts, about 50 KB gzipped) is its
 * own chunk, loaded by /Detail on demand. Prices become numbers here for drawing only;
 * every figure the user reads as text comes from the decimal strings.
 */

/** The chart's colours, read off the theme's variables (app/styles.css), light or dark as the page is. */
function chartColours(element: Element) {
  const style = getComputedStyle(element);
  const read = (name: string) => style.getPropertyValue(name).trim();
  const up = read('--tw-up');
  const down = read('--tw-down');
  return {
    up: translucent(up),
    down: translucent(down),
    ma7: read('--tw-ma7'),
    ma25: read('--tw-ma25'),
    chart: {
      layout: { background: { color: read('--tw-surface') }, textColor: read('--tw-muted') },
      grid: {
        vertLines: { color: read('--tw-border') },
        horzLines: { color: read('--tw-border') },
      },
    },
    series: { upColor: up, downColor: down, wickUpColor: up, wickDownColor: down },
  };
}

/** A theme colour (#rrggbb) at half opacity, for the volume bars under the candles. */
function translucent(hex: string): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) return hex;
  const [r, g, b] = match.slice(1).map((part) => Number.parseInt(part, 16));
  return `rgba(${r}, ${g}, ${b}, 0.45)`;
}

/** The moving averages drawn over the candles: MA(7) and MA(25) of the closes. */
const AVERAGES = [7, 25] as const;

const toBar = (candle: Candle): CandlestickData<Time> => ({
  time: (candle.t / 1000) as UTCTimestamp,
  open: Number(candle.o),
  high: Number(candle.h),
  low: Number(candle.l),
  close: Number(candle.c),
});

const toTime = (candle: Candle) => (candle.t / 1000) as UTCTimestamp;

const toVolume = (candle: Candle, colours: { up: string; down: string }): HistogramData<Time> => ({
  time: toTime(candle),
  value: Number(candle.v),
  color: Number(candle.c) >= Number(candle.o) ? colours.up : colours.down,
});

/** The drawn points of an average: none where it has no value yet. */
const toLine = (candles: readonly Candle[], values: readonly (string | null)[]): LineData<Time>[] =>
  candles.flatMap((candle, i) => {
    const value = values[i];
    return value === null || value === undefined
      ? []
      : [{ time: toTime(candle), value: Number(value) }];
  });

/** Axis labels in the phone's time zone and the user's language (the library's default is UTC). */
function formatters(language: string) {
  const tag = LANGUAGE_TAGS[normalizeLanguage(language)];
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(tag, { ...options, hour12: false });
  const year = format({ year: 'numeric' });
  const month = format({ month: 'short' });
  const day = format({ day: 'numeric', month: 'short' });
  const time = format({ hour: '2-digit', minute: '2-digit' });
  const seconds = format({ hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const full = format({ month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  const date = (value: Time) => new Date((value as number) * 1000);
  return {
    tickMarkFormatter: (value: Time, type: TickMarkType) => {
      const at = date(value);
      switch (type) {
        case TickMarkType.Year:
          return year.format(at);
        case TickMarkType.Month:
          return month.format(at);
        case TickMarkType.DayOfMonth:
          return day.format(at);
        case TickMarkType.TimeWithSeconds:
          return seconds.format(at);
        default:
          return time.format(at);
      }
    },
    timeFormatter: (value: Time) => full.format(date(value)),
  };
}

/** Axis prices grouped for the language at the instrument's scale (drawing only). */
function priceFormatter(language: string, priceScale: number) {
  const format = new Intl.NumberFormat(LANGUAGE_TAGS[normalizeLanguage(language)], {
    minimumFractionDigits: priceScale,
    maximumFractionDigits: priceScale,
  });
  return (price: number) => format.format(price);
}

interface CandleChartProps {
  candles: readonly Candle[] | undefined;
  priceScale: number;
  interval: KlineInterval;
  language: string;
}

interface Drawn {
  chart: IChartApi;
  candles: ISeriesApi<'Candlestick'>;
  volume: ISeriesApi<'Histogram'>;
  averages: ISeriesApi<'Line'>[];
  colours: ReturnType<typeof chartColours>;
}

/**
 * Candles with their volume below and MA(7) and MA(25) over them, the last price as a dashed
 * line across, and a legend with the candle under the crosshair (the newest when none): its
 * open, high, low, close, volume and averages, as text from the decimal strings.
 */
export default function CandleChart({ candles, priceScale, interval, language }: CandleChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const drawn = useRef<Drawn | null>(null);
  const shown = useRef<readonly Candle[] | undefined>(undefined);
  const [hovered, setHovered] = useState<number | null>(null);
  const averages = useMemo(
    () => AVERAGES.map((length) => movingAverage(candles ?? [], length, priceScale)),
    [candles, priceScale],
  );

  useEffect(() => {
    if (!container.current) return;
    const { tickMarkFormatter, timeFormatter } = formatters(language);
    const box = container.current;
    const colours = chartColours(box);
    const created = createChart(box, {
      autoSize: true,
      layout: { ...colours.chart.layout, fontSize: 11, attributionLogo: true },
      grid: colours.chart.grid,
      rightPriceScale: { borderVisible: false, scaleMargins: { top: 0.08, bottom: 0.24 } },
      // A little room right of the newest candle, so it and its time label are not cut off.
      timeScale: {
        borderVisible: false,
        timeVisible: true,
        secondsVisible: false,
        rightOffset: 4,
        barSpacing: 8,
        tickMarkFormatter,
      },
      localization: {
        locale: LANGUAGE_TAGS[normalizeLanguage(language)],
        timeFormatter,
        priceFormatter: priceFormatter(language, priceScale),
      },
      handleScale: { axisPressedMouseMove: false },
      // The horizontal line follows the finger, as on an exchange's chart: the default magnet
      // snapped it to whichever series was nearest, often a moving average, not a price.
      crosshair: { mode: CrosshairMode.Normal },
    });
    const priceFormat = {
      type: 'price',
      precision: priceScale,
      minMove: Number(`1e-${priceScale}`),
    } as const;
    // Volume on a scale of its own in the bottom fifth, under the candles.
    const volume = created.addSeries(HistogramSeries, {
      priceScaleId: '',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    const lines = AVERAGES.map((_, i) =>
      created.addSeries(LineSeries, {
        color: i === 0 ? colours.ma7 : colours.ma25,
        lineWidth: 1,
        priceFormat,
        lastValueVisible: false,
        priceLineVisible: false,
        crosshairMarkerVisible: false,
      }),
    );
    const candlesticks = created.addSeries(CandlestickSeries, {
      ...colours.series,
      borderVisible: false,
      priceFormat,
      // The last price: its label on the axis and a dashed line across the chart.
      lastValueVisible: true,
      priceLineVisible: true,
      priceLineStyle: LineStyle.Dashed,
      priceLineWidth: 1,
    });
    drawn.current = { chart: created, candles: candlesticks, volume, averages: lines, colours };
    shown.current = undefined;
    created.subscribeCrosshairMove((param) => {
      const at = typeof param.time === 'number' ? param.time * 1000 : null;
      const index = at === null ? -1 : (shown.current ?? []).findIndex((c) => c.t === at);
      setHovered(index >= 0 ? index : null);
    });
    // Light or dark switched while the chart is open (Settings in another tab, the system at dusk).
    const themeWatch = new MutationObserver(() => {
      const now = chartColours(box);
      created.applyOptions(now.chart);
      candlesticks.applyOptions(now.series);
      lines.forEach((line, i) => line.applyOptions({ color: i === 0 ? now.ma7 : now.ma25 }));
      if (drawn.current) drawn.current.colours = now;
      volume.setData((shown.current ?? []).map((candle) => toVolume(candle, now)));
    });
    themeWatch.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-prefers-color-scheme'],
    });
    return () => {
      themeWatch.disconnect();
      created.remove();
      drawn.current = null;
    };
  }, [priceScale, language]);

  useEffect(() => {
    const target = drawn.current;
    if (!target) return;
    const before = shown.current;
    shown.current = candles;
    if (!candles || candles.length === 0) {
      target.candles.setData([]);
      target.volume.setData([]);
      for (const line of target.averages) line.setData([]);
      return;
    }
    // A live message replaced the newest candle or appended one: the rest are the same
    // objects (api/realtime-cache.ts), so the chart updates one bar instead of redrawing.
    const last = candles[candles.length - 1] as Candle;
    const sameHistory =
      before !== undefined &&
      before.length > 0 &&
      (candles.length === before.length || candles.length === before.length + 1) &&
      candles[0] === before[0] &&
      candles[before.length - 2] === before[before.length - 2];
    if (sameHistory) {
      target.candles.update(toBar(last));
      target.volume.update(toVolume(last, target.colours));
      target.averages.forEach((line, i) => {
        const value = averages[i]?.[candles.length - 1];
        if (value !== null && value !== undefined)
          line.update({ time: toTime(last), value: Number(value) });
      });
    } else {
      target.candles.setData(candles.map(toBar));
      target.volume.setData(candles.map((candle) => toVolume(candle, target.colours)));
      target.averages.forEach((line, i) => line.setData(toLine(candles, averages[i] ?? [])));
    }
  }, [candles, averages, priceScale, language, interval]);

  const index = hovered ?? (candles && candles.length > 0 ? candles.length - 1 : null);
  return (
    <div className="tw-chart">
      <ChartLegend
        candle={index === null ? undefined : candles?.[index]}
        averages={averages.map((values) => (index === null ? null : (values[index] ?? null)))}
        priceScale={priceScale}
      />
      <div
        ref={container}
        className="tw-chart-box"
        data-testid="candle-chart"
        data-interval={interval}
      />
    </div>
  );
}

const LEGEND_PRICES = [
  ['o', 'open'],
  ['h', 'high'],
  ['l', 'low'],
  ['c', 'close'],
] as const;

/** The candle under the crosshair (or the newest) in figures: what the bars and lines show. */
function ChartLegend({
  candle,
  averages,
  priceScale,
}: {
  candle: Candle | undefined;
  averages: (string | null)[];
  priceScale: number;
}) {
  const { t, i18n } = useTranslation();
  const price = (value: string | null | undefined) =>
    value === null || value === undefined ? '—' : formatDecimal(value, i18n.language, priceScale);
  const rising = candle ? Number(candle.c) >= Number(candle.o) : true;
  return (
    <dl className="tw-chart-legend" data-testid="chart-legend" aria-live="off">
      {LEGEND_PRICES.map(([part, name]) => (
        <div key={part}>
          <dt>
            <abbr title={t(`trade.chart_${name}`)}>{t(`trade.chart_${name}_short`)}</abbr>
          </dt>
          <dd data-rising={rising} data-testid={`legend-${part}`}>
            {price(candle?.[part])}
          </dd>
        </div>
      ))}
      <div>
        <dt>
          <abbr title={t('trade.chart_volume')}>{t('trade.chart_volume_short')}</abbr>
        </dt>
        <dd data-testid="legend-v">
          {candle ? formatDecimal(truncateDecimal(candle.v, 2), i18n.language) : '—'}
        </dd>
      </div>
      {AVERAGES.map((length, i) => (
        <div key={length} className={`tw-chart-ma tw-chart-ma${length}`}>
          <dt>
            <abbr title={t('trade.chart_ma_full', { length })}>
              {t('trade.chart_ma', { length })}
            </abbr>
          </dt>
          <dd data-testid={`legend-ma${length}`}>{price(averages[i])}</dd>
        </div>
      ))}
    </dl>
  );
}
