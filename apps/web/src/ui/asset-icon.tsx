/** A currency's (or an instrument base's) round badge: its colour and first letters, no image download needed. */
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
  const background = COLOURS[asset] ?? '#8a93a6';
  return (
    <span
      aria-hidden
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        width: size,
        height: size,
        borderRadius: '50%',
        background,
        color: letterColour(background),
        fontSize: size * 0.34,
        fontWeight: 700,
        letterSpacing: -0.5,
      }}
    >
      {asset.slice(0, 3)}
    </span>
  );
}
