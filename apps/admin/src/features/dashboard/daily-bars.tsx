/** One coloured series of a day-by-day chart; values are for drawing only (amounts stay strings everywhere else). */
export interface BarSeries {
  label: string;
  color: string;
  /** Bars below the axis in another colour (a house loss in red). */
  negativeColor?: string;
  values: number[];
}

const HEIGHT = 120;
const GAP = 2;

/**
 * A small bar chart in inline SVG, one slot per day: the series side by side in each slot,
 * positive values above the axis and negative ones below (a house loss). No chart library.
 */
export function DailyBars({
  days,
  series,
  testId,
}: {
  days: string[];
  series: BarSeries[];
  testId?: string;
}) {
  const all = series.flatMap((s) => s.values);
  const top = Math.max(0, ...all);
  const bottom = Math.min(0, ...all);
  const span = top - bottom || 1;
  const axis = (top / span) * HEIGHT;
  const slot = 100 / Math.max(days.length, 1);
  const bar = (slot - GAP * 0.1) / Math.max(series.length, 1);
  return (
    <figure style={{ margin: 0 }} data-testid={testId}>
      <svg
        viewBox={`0 0 100 ${HEIGHT}`}
        preserveAspectRatio="none"
        width="100%"
        height={HEIGHT}
        role="img"
        aria-label={series.map((s) => s.label).join(', ')}
      >
        <line
          x1={0}
          x2={100}
          y1={axis}
          y2={axis}
          stroke="#d9d9d9"
          strokeWidth={0.5}
          vectorEffect="non-scaling-stroke"
        />
        {days.map((day, i) =>
          series.map((s, j) => {
            const value = s.values[i] ?? 0;
            if (value === 0) return null;
            const h = (Math.abs(value) / span) * HEIGHT;
            return (
              <rect
                key={`${day}-${s.label}`}
                x={i * slot + j * bar}
                width={Math.max(bar - 0.15, 0.2)}
                y={value > 0 ? axis - h : axis}
                height={Math.max(h, 0.5)}
                fill={value < 0 && s.negativeColor ? s.negativeColor : s.color}
              >
                <title>{`${day} ${s.label}: ${value}`}</title>
              </rect>
            );
          }),
        )}
      </svg>
      <figcaption
        style={{ display: 'flex', justifyContent: 'space-between', fontSize: 12, color: '#8c8c8c' }}
      >
        <span>{days[0]}</span>
        <span style={{ display: 'flex', gap: 12 }}>
          {series.map((s) => (
            <span key={s.label}>
              <span
                style={{
                  display: 'inline-block',
                  width: 10,
                  height: 10,
                  background: s.color,
                  marginInlineEnd: 4,
                  verticalAlign: 'middle',
                }}
              />
              {s.label}
            </span>
          ))}
        </span>
        <span>{days.at(-1)}</span>
      </figcaption>
    </figure>
  );
}
