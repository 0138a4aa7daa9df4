import crypto from 'node:crypto';
import {
  type ConvertResponse,
  QUOTE_TTL_MS,
  type Quote,
  type QuoteRequest,
} from '@tradewind/contract/conversion';
import type { Language } from '@tradewind/contract/languages';
import { INSTRUMENTS, instrumentOf } from '@tradewind/contract/market';
import { divCeil, formatAmount } from '@tradewind/contract/money';
import { ASSETS, type AssetCode, QUOTE_ASSET } from '@tradewind/contract/wallet';
import { and, eq } from 'drizzle-orm';
import type { Executor, Tx } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import {
  DuplicateEntryError,
  type Ledger,
  type PostingSpec,
  houseAccount,
  userAccount,
  userBalances,
} from '../ledger/service.ts';
import { latestPrice, recordedPriceOf, sourceLabel } from '../market/service.ts';
import { ticks } from '../market/tables.ts';
import { amountOf, getBalances } from '../wallet/service.ts';
import { conversionQuotes } from './tables.ts';
import { assertCanMoveMoney } from '../user/frozen.ts';
import { requireKyc } from '../kyc/service.ts';

/**
 * Conversion between a coin and USDT (spec §5), at the latest recorded tick, for a fee
 * in basis points of the USDT side. Every rounding favours the house: the USDT value of
 * coins and the coins bought are rounded down, the fee is rounded up.
 */

const BPS = 10_000n;
const pow10 = (n: number) => 10n ** BigInt(n);

export interface ConversionAmounts {
  /** USDT crossing the conversion desk: a sale's gross proceeds, or a purchase's amount after the fee. */
  usdtLegMinor: bigint;
  /** USDT, rounded up. */
  feeMinor: bigint;
  /** In the `to` asset, rounded down; zero or less means the amount is too small. */
  receiveMinor: bigint;
}

/**
 * The figures of a conversion of `amountMinor` of `from`, with `priceMinor` USDT per coin
 * at `priceScale`. Pure, so the rounding is tested case by case.
 */
export function computeConversion(input: {
  from: AssetCode;
  to: AssetCode;
  amountMinor: bigint;
  priceMinor: bigint;
  priceScale: number;
  feeBps: number;
}): ConversionAmounts {
  const { from, to, amountMinor, priceMinor, priceScale } = input;
  const feeBps = BigInt(input.feeBps);
  const usdtScale = ASSETS.USDT.scale;
  if (from !== QUOTE_ASSET && to === QUOTE_ASSET) {
    // Sell: coins × price, rounded down, then the fee off the proceeds, rounded up.
    const coinScale = ASSETS[from].scale;
    const gross = (amountMinor * priceMinor * pow10(usdtScale)) / pow10(coinScale + priceScale);
    const fee = divCeil(gross * feeBps, BPS);
    return { usdtLegMinor: gross, feeMinor: fee, receiveMinor: gross - fee };
  }
  if (from === QUOTE_ASSET && to !== QUOTE_ASSET) {
    // Buy: the fee off the USDT paid, rounded up, then the rest ÷ price, rounded down.
    const coinScale = ASSETS[to].scale;
    const fee = divCeil(amountMinor * feeBps, BPS);
    const net = amountMinor - fee;
    const coins =
      net > 0n ? (net * pow10(coinScale + priceScale)) / (priceMinor * pow10(usdtScale)) : 0n;
    return { usdtLegMinor: net, feeMinor: fee, receiveMinor: coins };
  }
  throw new AppError('CONVERSION_VIA_USDT', {}, 422, 'to');
}

type QuoteRow = typeof conversionQuotes.$inferSelect;

function quoteView(row: QuoteRow, tick: { ts: Date; source: string }, language: Language): Quote {
  const from = row.fromAsset as AssetCode;
  const to = row.toAsset as AssetCode;
  const coin = from === QUOTE_ASSET ? to : from;
  const instrument = instrumentOf(coin);
  if (!instrument) throw new Error(`quote ${row.id} for an asset without an instrument`);
  return {
    id: row.id,
    from,
    to,
    amount: formatAmount(row.amountMinor, ASSETS[from].scale),
    rate: formatAmount(row.priceMinor, INSTRUMENTS[instrument].priceScale),
    fee: formatAmount(row.feeMinor, ASSETS.USDT.scale),
    feeAsset: 'USDT',
    feeBps: row.feeBps,
    receive: formatAmount(row.receiveMinor, ASSETS[to].scale),
    expiresAt: row.expiresAt.toISOString(),
    priceTime: tick.ts.toISOString(),
    source: tick.source,
    sourceLabel: sourceLabel(language, tick.source),
  };
}

/**
 * Prices a conversion at the latest fresh tick and stores the quote for ten seconds.
 * Raises CONVERSION_VIA_USDT, ASSET_UNAVAILABLE, AMOUNT_PRECISION, PRICE_UNAVAILABLE (no
 * tick of the last 5 s: never a stale rate), CONVERSION_TOO_SMALL, INSUFFICIENT_BALANCE
 * (the amount errors and CONVERSION_TOO_SMALL as field errors on `amount`), and KYC_REQUIRED
 * first: conversion is a financial action (spec §5).
 */
export async function createQuote(
  deps: { db: Executor; feeBps: number },
  now: Date,
  userId: number,
  request: QuoteRequest,
  language: Language,
): Promise<Quote> {
  await requireKyc(deps.db, userId);
  const from = request.from as AssetCode;
  const to = request.to as AssetCode;
  if (from === to || (from === QUOTE_ASSET) === (to === QUOTE_ASSET))
    throw new AppError('CONVERSION_VIA_USDT', {}, 422, 'to');
  const coin = from === QUOTE_ASSET ? to : from;
  const instrument = instrumentOf(coin);
  if (!instrument)
    throw new AppError('ASSET_UNAVAILABLE', {}, 422, from === QUOTE_ASSET ? 'to' : 'from');
  const amountMinor = amountOf(request.amount, from);
  const price = await latestPrice(deps.db, instrument, now);
  if (!price) throw new AppError('PRICE_UNAVAILABLE', { asset: coin }, 409);
  const figures = computeConversion({
    from,
    to,
    amountMinor,
    priceMinor: price.priceMinor,
    priceScale: price.priceScale,
    feeBps: deps.feeBps,
  });
  if (figures.receiveMinor <= 0n || figures.usdtLegMinor <= 0n)
    throw new AppError('CONVERSION_TOO_SMALL', {}, 422, 'amount');
  const available =
    (await userBalances(deps.db, userId)).find((b) => b.wallet === 'spot' && b.asset === from)
      ?.available ?? 0n;
  if (available < amountMinor) throw new AppError('INSUFFICIENT_BALANCE');
  const [row] = await deps.db
    .insert(conversionQuotes)
    .values({
      id: crypto.randomBytes(16).toString('base64url'),
      userId,
      fromAsset: from,
      toAsset: to,
      amountMinor,
      usdtLegMinor: figures.usdtLegMinor,
      feeMinor: figures.feeMinor,
      feeBps: deps.feeBps,
      receiveMinor: figures.receiveMinor,
      tickId: price.tickId,
      priceMinor: price.priceMinor,
      createdAt: now,
      expiresAt: new Date(now.getTime() + QUOTE_TTL_MS),
    })
    .returning();
  if (!row) throw new Error('quote insert returned no row');
  return quoteView(row, price, language);
}

/** The ledger entry of a quote: both legs and the fee, each its own posting, so the funds detail explains every unit. */
function conversionPostings(userId: number, row: QuoteRow): PostingSpec[] {
  const from = row.fromAsset as AssetCode;
  const to = row.toAsset as AssetCode;
  const fee: PostingSpec[] =
    row.feeMinor > 0n
      ? [
          {
            account: userAccount(userId, 'spot', 'USDT'),
            amount: -row.feeMinor,
            type: 'conversion_fee',
          },
          { account: houseAccount('fees', 'USDT'), amount: row.feeMinor, type: 'conversion_fee' },
        ]
      : [];
  if (to === QUOTE_ASSET) {
    // Sell: the coins go to the desk, the gross USDT comes back, then the fee leaves it
    // (credited before the fee is taken, so a user holding no USDT can sell).
    return [
      { account: userAccount(userId, 'spot', from), amount: -row.amountMinor, type: 'conversion' },
      { account: houseAccount('conversion', from), amount: row.amountMinor, type: 'conversion' },
      {
        account: houseAccount('conversion', 'USDT'),
        amount: -row.usdtLegMinor,
        type: 'conversion',
      },
      {
        account: userAccount(userId, 'spot', 'USDT'),
        amount: row.usdtLegMinor,
        type: 'conversion',
      },
      ...fee,
    ];
  }
  // Buy: the fee leaves the USDT paid, the rest goes to the desk, the coins come back.
  return [
    ...fee,
    { account: userAccount(userId, 'spot', 'USDT'), amount: -row.usdtLegMinor, type: 'conversion' },
    { account: houseAccount('conversion', 'USDT'), amount: row.usdtLegMinor, type: 'conversion' },
    { account: houseAccount('conversion', to), amount: -row.receiveMinor, type: 'conversion' },
    { account: userAccount(userId, 'spot', to), amount: row.receiveMinor, type: 'conversion' },
  ];
}

/**
 * Executes one of the user's own quotes, once, in the money route's transaction, and replies
 * with the balances after it: NOT_FOUND for an unknown or another user's quote, QUOTE_USED
 * when it was executed already, QUOTE_EXPIRED at or after its expiry, INSUFFICIENT_BALANCE
 * when the funds are no longer there (nothing changes then), ACCOUNT_FROZEN, KYC_REQUIRED.
 */
export async function executeQuote(
  ledger: Ledger,
  tx: Tx,
  now: Date,
  userId: number,
  quoteId: string,
  language: Language,
): Promise<ConvertResponse> {
  await assertCanMoveMoney(tx, userId);
  await requireKyc(tx, userId);
  const [row] = await tx
    .select()
    .from(conversionQuotes)
    .where(and(eq(conversionQuotes.id, quoteId), eq(conversionQuotes.userId, userId)))
    .for('update')
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', {}, 404);
  if (row.executedAt) throw new AppError('QUOTE_USED', {}, 409);
  if (now.getTime() >= row.expiresAt.getTime()) throw new AppError('QUOTE_EXPIRED', {}, 409);
  let entryId: number;
  try {
    entryId = await ledger.post(tx, now, {
      kind: 'conversion',
      reference: `conversion:${row.id}`,
      userId,
      postings: conversionPostings(userId, row),
    });
  } catch (error) {
    if (error instanceof DuplicateEntryError) throw new AppError('QUOTE_USED', {}, 409);
    throw error;
  }
  const [updated] = await tx
    .update(conversionQuotes)
    .set({ executedAt: now, entryId })
    .where(eq(conversionQuotes.id, row.id))
    .returning();
  const [tick] = await tx
    .select({ ts: ticks.ts, source: ticks.source })
    .from(ticks)
    .where(eq(ticks.id, row.tickId))
    .limit(1);
  if (!updated || !tick) throw new Error(`quote ${row.id} vanished while executing`);
  return {
    entryId: String(entryId),
    quote: quoteView(updated, tick, language),
    balances: await getBalances(tx, userId, await recordedPriceOf(tx, now)),
  };
}
