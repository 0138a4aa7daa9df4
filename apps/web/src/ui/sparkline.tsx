/**
 * A 24 h trend line: the hourly closes scaled into a small box, green when the last close is
 * at or above the first, red below (the same colours as the change tags). Decorative: the
 * change tag beside it says the same in words, so screen readers skip it.
 */
export function Sparkline({
  closes,
  width = 56,
  height = 22,
}: {
  closes: readonly string[];
  width?: number;
  height?: number;
}) {
  const values = closes.map(Number).filter((value) => Number.isFinite(value));
  if (values.length < 2)
    return <span aria-hidden style={{ display: 'inline-block', width, height, flex: 'none' }} />;
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const step = width / (values.length - 1);
  const points = values
    .map((value, i) => {
      const y = height - 2 - ((value - low) / span) * (height - 4);
      return `${(i * step).toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
  const rising = (values.at(-1) ?? 0) >= (values[0] ?? 0);
  return (
    <svg
      aria-hidden
      className="tw-sparkline"
      data-trend={rising ? 'up' : 'down'}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      style={{ flex: 'none', overflow: 'visible' }}
    >
      <polyline
        points={points}
        fill="none"
        stroke={rising ? 'var(--tw-up)' : 'var(--tw-down)'}
        strokeWidth="1.5"
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}
