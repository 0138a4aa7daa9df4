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
  NGAS: '#2f7fd1',
  COPPER: '#b87333',
  EUR: '#0e4fa8',
  GBP: '#6b2c91',
  USD: '#2e7d4f',
  AUD: '#00843d',
  XAU: '#c9a227',
  XAG: '#8f98a3',
};

export function AssetIcon({ asset, size = 32 }: { asset: string; size?: number }) {
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
        background: COLOURS[asset] ?? '#8a93a6',
        color: '#fff',
        fontSize: size * 0.34,
        fontWeight: 700,
        letterSpacing: -0.5,
      }}
    >
      {asset.slice(0, 3)}
    </span>
  );
}
