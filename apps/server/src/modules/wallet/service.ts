import crypto from 'node:crypto';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import {
  ASSETS,
  ASSET_CODES,
  type AssetCode,
  type Balances,
  type TransferRequest,
} from '@tradewind/contract/wallet';
import type { Executor, Tx } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { type AccountBalance, type Ledger, userAccount, userBalances } from '../ledger/service.ts';
import { recordedPriceOf } from '../market/service.ts';
import { assertCanMoveMoney } from '../user/frozen.ts';

/** Parses a wire amount for an asset; more decimals than the asset has is a field error, never rounded. */
export function amountOf(text: string, asset: AssetCode, field = 'amount'): bigint {
  const minor = parseAmount(text, ASSETS[asset].scale);
  if (minor === undefined || minor <= 0n)
    throw new AppError('AMOUNT_PRECISION', { decimals: ASSETS[asset].scale }, 422, field);
  return minor;
}

/**
 * A price in USDT per unit, as a decimal string, from recorded market data (the routes
 * pass `recordedPriceOf` from the market module: fresh ticks only). Without one, only USDT
 * itself is priced; the rest are listed as unpriced rather than guessed.
 */
export type PriceOf = (asset: AssetCode) => string | null;
export const usdtOnly: PriceOf = (asset) => (asset === 'USDT' ? '1' : null);

/** Value in USDT minor units, rounded down: shown value never exceeds what the assets fetch. */
function valueInUsdt(minor: bigint, asset: AssetCode, price: string): bigint {
  const [whole = '0', fraction = ''] = price.split('.');
  const priceScale = fraction.length;
  const priceMinor = BigInt(whole + fraction);
  const usdtScale = ASSETS.USDT.scale;
  // minor × price × 10^usdtScale / (10^assetScale × 10^priceScale)
  const numerator = minor * priceMinor * 10n ** BigInt(usdtScale);
  return numerator / 10n ** BigInt(ASSETS[asset].scale + priceScale);
}

export async function getBalances(
  db: Executor,
  userId: number,
  priceOf: PriceOf = usdtOnly,
): Promise<Balances> {
  return balancesView(await userBalances(db, userId), priceOf);
}

/** The balances reply from a user's account rows (a batch reads many users' rows at once). */
export function balancesView(rows: AccountBalance[], priceOf: PriceOf = usdtOnly): Balances {
  const find = (wallet: 'spot' | 'futures', asset: AssetCode) =>
    rows.find((r) => r.wallet === wallet && r.asset === asset);
  let totalUsdt = 0n;
  const unpriced: string[] = [];
  const spot = ASSET_CODES.map((asset) => {
    const row = find('spot', asset);
    const available = row?.available ?? 0n;
    const locked = row?.locked ?? 0n;
    const price = priceOf(asset);
    let value: bigint | null = null;
    if (price !== null) {
      value = available + locked === 0n ? 0n : valueInUsdt(available + locked, asset, price);
      totalUsdt += value;
    } else if (available + locked > 0n) {
      unpriced.push(asset);
    }
    const scale = ASSETS[asset].scale;
    return {
      asset,
      available: formatAmount(available, scale),
      locked: formatAmount(locked, scale),
      valueUsdt: value === null ? null : formatAmount(value, ASSETS.USDT.scale),
    };
  });
  // Tokens listed after an IEO are spot assets too, shown after the fixed ones and never priced here.
  for (const row of rows) {
    if (row.wallet !== 'spot' || row.asset in ASSETS || row.available + row.locked === 0n) continue;
    const scale = row.scale ?? 0;
    spot.push({
      asset: row.asset,
      available: formatAmount(row.available, scale),
      locked: formatAmount(row.locked, scale),
      valueUsdt: null,
    });
    unpriced.push(row.asset);
  }
  const futures = find('futures', 'USDT');
  const futuresAvailable = futures?.available ?? 0n;
  const futuresLocked = futures?.locked ?? 0n;
  totalUsdt += futuresAvailable + futuresLocked;
  const usdt = (minor: bigint) => formatAmount(minor, ASSETS.USDT.scale);
  return {
    spot,
    futures: {
      asset: 'USDT',
      total: usdt(futuresAvailable + futuresLocked),
      available: usdt(futuresAvailable),
      locked: usdt(futuresLocked),
      // Open contracts arrive with the markets release; until then nothing trades.
      tradingAssets: usdt(futuresLocked),
      floatingPnl: '0',
    },
    totalUsdt: usdt(totalUsdt),
    unpricedAssets: unpriced,
  };
}

/**
 * Spot ↔ futures in USDT, in the money route's transaction: one entry, two postings, and the
 * balances after it. Raises ACCOUNT_FROZEN, VALIDATION_FAILED (field `to`: the same wallet on
 * both sides, which the route's schema refuses first), INSUFFICIENT_BALANCE, AMOUNT_PRECISION.
 */
export async function transfer(
  ledger: Ledger,
  tx: Tx,
  now: Date,
  userId: number,
  request: TransferRequest,
): Promise<{ entryId: string; balances: Balances }> {
  await assertCanMoveMoney(tx, userId);
  if (request.from === request.to) throw new AppError('VALIDATION_FAILED', {}, 422, 'to');
  const amount = amountOf(request.amount, 'USDT');
  const entryId = await ledger.post(tx, now, {
    kind: 'transfer',
    reference: `transfer:${crypto.randomUUID()}`,
    userId,
    postings: [
      { account: userAccount(userId, request.from, 'USDT'), amount: -amount, type: 'transfer_out' },
      { account: userAccount(userId, request.to, 'USDT'), amount, type: 'transfer_in' },
    ],
  });
  return {
    entryId: String(entryId),
    balances: await getBalances(tx, userId, await recordedPriceOf(tx, now)),
  };
}
