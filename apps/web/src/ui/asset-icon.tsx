/**
 * A wallet asset's coin icon (bundled from the maintained @web3icons set: `scripts/coin-icons.ts`),
 * served by the app as an image file, so it costs the first screen's scripts nothing. Anything
 * else (an instrument's base: a commodity, a currency, a metal) gets a round badge in its colour
 * with its whole symbol, never cut to three letters.
 */
const ICONS: Record<string, string> = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>('./coins/*.svg', {
      eager: true,
      query: '?no-inline',
      import: 'default',
    }),
  ).map(([file, url]) => [file.slice('./coins/'.length, -'.svg'.length), url]),
);

const COLOURS: Record<string, string> = {
  USDT: '#26a17b',
  BTC: '#f7931a',
  ETH: '#627eea',
  BNB: '#f0b90b',
  SOL: '#9945ff',
  XRP: '#23292f',
  DOGE: '#c2a633',
  TRX: '#eb0029',
  LTC: '#345d9d',
  // Instruments that are not wallet assets (market.ts): commodities, currencies, metals.
  WTI: '#3b3f47',
  NGAS: '#2873c4',
  COPPER: '#b87333',
  EUR: '#0e4fa8',
  GBP: '#6b2c91',
  USD: '#2e7d4f',
  AUD: '#00843d',
  XAU: '#c9a227',
  XAG: '#8f98a3',
};

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const DARK_TEXT = '#14171f';
/** White letters on dark badges, dark letters on light ones (BTC's orange, BNB's yellow): whichever reads at AA. */
const letterColour = (background: string) =>
  (luminance(background) + 0.05) / (luminance(DARK_TEXT) + 0.05) >
  1.05 / (luminance(background) + 0.05)
    ? DARK_TEXT
    : '#fff';

export function AssetIcon({ asset, size = 32 }: { asset: string; size?: number }) {
  const icon = ICONS[asset];
  if (icon)
    return (
      <img
        src={icon}
        alt=""
        aria-hidden
        width={size}
        height={size}
        className="tw-asset-icon"
        style={{ borderRadius: '50%', flex: 'none', display: 'inline-block' }}
      />
    );
  const background = COLOURS[asset] ?? '#8a93a6';
  // The whole symbol fits the circle: smaller type for longer symbols (COPPER, NGAS).
  const scale = asset.length <= 3 ? 0.34 : asset.length === 4 ? 0.27 : 0.2;
  return (
    <span
      aria-hidden
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        flex: 'none',
        width: size,
        height: size,
        borderRadius: '50%',
        background,
        color: letterColour(background),
        fontSize: Math.max(7, Math.round(size * scale)),
        fontWeight: 700,
        letterSpacing: asset.length > 3 ? -0.3 : -0.5,
        overflow: 'hidden',
      }}
    >
      {asset}
    </span>
  );
}
