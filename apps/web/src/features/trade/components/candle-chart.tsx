import type { Candle, KlineInterval } from '@tradewind/contract/market';
import { LANGUAGE_TAGS, normalizeLanguage } from '@tradewind/contract/languages';
import {
  CandlestickSeries,
  type CandlestickData,
  type IChartApi,
  type ISeriesApi,
  type Time,
  TickMarkType,
  type UTCTimestamp,
  createChart,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';

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

const toBar = (candle: Candle): CandlestickData<Time> => ({
  time: (candle.t / 1000) as UTCTimestamp,
  open: Number(candle.o),
  high: Number(candle.h),
  low: Number(candle.l),
  close: Number(candle.c),
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

export default function CandleChart({ candles, priceScale, interval, language }: CandleChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const shown = useRef<readonly Candle[] | undefined>(undefined);

  useEffect(() => {
    if (!container.current) return;
    const { tickMarkFormatter, timeFormatter } = formatters(language);
    const box = container.current;
    const colours = chartColours(box);
    const created = createChart(box, {
      autoSize: true,
      layout: { ...colours.chart.layout, fontSize: 11, attributionLogo: true },
      grid: colours.chart.grid,
      rightPriceScale: { borderVisible: false },
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
    });
    const minMove = Number(`1e-${priceScale}`);
    const candlesticks = created.addSeries(CandlestickSeries, {
      ...colours.series,
      borderVisible: false,
      priceFormat: { type: 'price', precision: priceScale, minMove },
    });
    series.current = candlesticks;
    chart.current = created;
    shown.current = undefined;
    // Light or dark switched while the chart is open (Settings in another tab, the system at dusk).
    const themeWatch = new MutationObserver(() => {
      const now = chartColours(box);
      created.applyOptions(now.chart);
      candlesticks.applyOptions(now.series);
    });
    themeWatch.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-prefers-color-scheme'],
    });
    return () => {
      themeWatch.disconnect();
      created.remove();
      chart.current = null;
      series.current = null;
    };
  }, [priceScale, language]);

  useEffect(() => {
    const target = series.current;
    if (!target) return;
    const before = shown.current;
    shown.current = candles;
    if (!candles || candles.length === 0) {
      target.setData([]);
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
    if (sameHistory) target.update(toBar(last));
    else target.setData(candles.map(toBar));
  }, [candles, priceScale, language, interval]);

  return (
    <div
      ref={container}
      className="tw-chart-box"
      data-testid="candle-chart"
      data-interval={interval}
    />
  );
}
