import type { OrderTick, TickQuote } from '@tradewind/contract/instant';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import type { PythProofFailure, PythProofResult, PythTrust } from '@tradewind/contract/pyth-proof';
import { formatDecimal, formatTickTime } from '@/lib/format.ts';
import type { TFunction } from '@/lib/i18n.ts';

/**
 * What the page takes from the verifier. The page loads it only when asked
 * (`import('@tradewind/contract/pyth-proof')`), so @noble/curves stays out of the page's
 * chunk, and hands it in here: this module imports none of it at run time.
 */
export interface PythVerifier {
  verifyPythUpdate(update: string, feedId: string): PythProofResult;
  scalePythPrice(mantissa: bigint, expo: number, scale: number): bigint;
  formatPythPrice(mantissa: bigint, expo: number): string;
  PYTH_TRUSTS: readonly PythTrust[];
}

/** Which source's signatures the page can check: Pyth's, with the verifier above. */
export const CHECKABLE_SOURCES = ['pyth'] as const;

export type TickProof = NonNullable<OrderTick['proofs']>[number];

/** What a tick offers to check, before anything is loaded. */
export type TickSignatures =
  /** The reply left the tick's quotes and signed updates out (a live event): nothing to say yet. */
  | { kind: 'unknown' }
  /** Signed updates the page can check. */
  | { kind: 'proofs'; proofs: TickProof[] }
  /** A source that signs (Pyth) priced the tick, but no signed update was kept with it. */
  | { kind: 'not_kept'; sources: string[] }
  /** None of the tick's sources signs its prices (the demo walk, Binance). */
  | { kind: 'unsigned'; sources: string[] };

const isCheckable = (source: string) => (CHECKABLE_SOURCES as readonly string[]).includes(source);

export function tickSignatures(tick: OrderTick): TickSignatures {
  const proofs = (tick.proofs ?? []).filter((proof) => isCheckable(proof.source));
  if (proofs.length > 0) return { kind: 'proofs', proofs };
  if (!tick.quotes) return { kind: 'unknown' };
  const sources = [...new Set(tick.quotes.map((quote) => quote.source))];
  return sources.some(isCheckable)
    ? { kind: 'not_kept', sources: sources.filter(isCheckable) }
    : { kind: 'unsigned', sources };
}

/** Who signed: Wormhole's guardians for Pyth Core, Pyth's own routers for the upgraded one. */
export type PythSigners = 'guardians' | 'routers';

export type SignatureCheck =
  | { status: 'failed'; source: string; feedId: string; reason: PythProofFailure }
  | {
      status: 'verified';
      source: string;
      feedId: string;
      signers: PythSigners;
      /** The index of the signer set that signed, its size and how many of it signed. */
      signerSet: number;
      signerCount: number | null;
      signatures: number;
      publishTimeMs: number;
      /** The signed price exactly as Pyth states it, and at the instrument's price scale. */
      exactPrice: string;
      priceMinor: bigint;
      /** The tick's quote from the same source, which the signed price and time must equal. */
      quote: TickQuote | null;
      priceMatches: boolean;
      timeMatches: boolean;
    };

const PUBLISHERS: Record<string, PythSigners> = {
  'pyth-core': 'guardians',
  'pyth-core-routers': 'routers',
};

/**
 * Checks one signed update and holds it against the quote the tick lists for its source:
 * the proven price, scaled to the instrument's places as the recorder scales Pyth's prices,
 * must equal the quote's price, and its publish time (Unix seconds) the quote's source time.
 */
export function checkProof(
  proof: TickProof,
  quotes: readonly TickQuote[],
  scale: number,
  verifier: PythVerifier,
): SignatureCheck {
  const result = verifier.verifyPythUpdate(proof.update, proof.feedId);
  if (!result.ok)
    return { status: 'failed', source: proof.source, feedId: proof.feedId, reason: result.reason };
  const priceMinor = verifier.scalePythPrice(result.price, result.expo, scale);
  const publishTimeMs = result.publishTime * 1000;
  const quote = quotes.find((candidate) => candidate.source === proof.source) ?? null;
  const set = verifier.PYTH_TRUSTS.find((trust) => trust.name === result.source)?.signerSets.find(
    (candidate) => candidate.index === result.signedBy,
  );
  return {
    status: 'verified',
    source: proof.source,
    feedId: proof.feedId,
    signers: PUBLISHERS[result.source] ?? 'guardians',
    signerSet: result.signedBy,
    signerCount: set ? set.addresses.length : null,
    signatures: result.signatures,
    publishTimeMs,
    exactPrice: verifier.formatPythPrice(result.price, result.expo),
    priceMinor,
    quote,
    priceMatches: quote !== null && parseAmount(quote.price, scale) === priceMinor,
    timeMatches: quote !== null && Date.parse(quote.sourceTime) === publishTimeMs,
  };
}

/** Every checkable signed update of the tick, checked. */
export function checkTickSignatures(
  tick: OrderTick,
  scale: number,
  verifier: PythVerifier,
): SignatureCheck[] {
  const signatures = tickSignatures(tick);
  if (signatures.kind !== 'proofs') return [];
  return signatures.proofs.map((proof) => checkProof(proof, tick.quotes ?? [], scale, verifier));
}

/** Whether a check proves the tick's quote: signed by the source, the same price at the same time. */
export const provesQuote = (check: SignatureCheck): boolean =>
  check.status === 'verified' && check.priceMatches && check.timeMatches;

/**
 * The check in words: who signed and when (or why it fails), then whether the signed price
 * and time are the tick's quote from that source (or which of them differs).
 */
export function signatureLines(
  check: SignatureCheck,
  scale: number,
  language: string,
  t: TFunction,
): string[] {
  const source = t(`market.sources.${check.source}`, { defaultValue: check.source });
  if (check.status === 'failed')
    return [
      t('contracts.signature_failed', { source }),
      t(`contracts.signature_reason.${check.reason}`),
    ];
  const price = (value: string) => formatDecimal(value, language, scale);
  const time = (ms: number) => formatTickTime(new Date(ms).toISOString(), language);
  const signed = price(formatAmount(check.priceMinor, scale));
  const signers = t(`contracts.signature_signers_${check.signers}`, {
    set: check.signerSet,
    valid: check.signatures,
    total: check.signerCount ?? '?',
  });
  const lines = [
    t('contracts.signature_signed', { source, signers, time: time(check.publishTimeMs) }),
  ];
  if (!check.quote) return [...lines, t('contracts.signature_no_quote', { source, price: signed })];
  if (check.priceMatches && check.timeMatches)
    return [
      ...lines,
      t('contracts.signature_matches', {
        source,
        price: signed,
        exact: formatDecimal(check.exactPrice, language),
      }),
    ];
  if (!check.priceMatches)
    lines.push(
      t('contracts.signature_price_differs', { source, signed, quoted: price(check.quote.price) }),
    );
  if (!check.timeMatches)
    lines.push(
      t('contracts.signature_time_differs', {
        source,
        signed: time(check.publishTimeMs),
        quoted: time(Date.parse(check.quote.sourceTime)),
      }),
    );
  return lines;
}
