import { readFileSync } from 'node:fs';
import type { OrderTick, TickQuote } from '@tradewind/contract/instant';
import * as pythProof from '@tradewind/contract/pyth-proof';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { priceScaleOf, tickIndex } from '@/features/contracts/tick-index.ts';
import {
  type SignatureCheck,
  checkProof,
  checkTickSignatures,
  provesQuote,
  signatureLines,
  tickSignatures,
} from '@/features/contracts/tick-signature.ts';
import { formatTickTime } from '@/lib/format.ts';
import { type Catalogue, type TFunction, translateFrom } from '@/lib/i18n.ts';
import type { Language } from '@tradewind/contract/languages';

/**
 * The verification page's pure parts: the median it works out from a tick's quotes, what a
 * tick offers to check, a signed Pyth update held against the tick's Pyth quote, and the
 * words for each outcome. The signed update is real: Hermes' nine-feed update of 2025-08-05
 * signed by Wormhole guardian set 4 (apps/server/test/fixtures/pyth/README.md), cut to
 * BTC/USD as the server keeps it.
 */

const fixture = (name: string) =>
  readFileSync(new URL(`../../server/test/fixtures/pyth/${name}`, import.meta.url), 'utf8');
const BTC_USD = 'e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43';
const signedBtc = (() => {
  const slice = pythProof.sliceAccumulatorUpdate(
    fixture('hermes-update-9-feeds.hex').trim(),
    BTC_USD,
  );
  if (!slice) throw new Error('the fixture does not carry BTC/USD');
  return bytesToHex(slice);
})();
/** What the fixture's source states for BTC/USD in it: 11331919974145 × 10^-8 at 1754415884. */
const SIGNED_PRICE = '113319.2';
const SIGNED_AT = '2025-08-05T17:44:44.000Z';

const quote = (
  source: string,
  price: string,
  sourceTime: string,
  receivedAt = sourceTime,
): TickQuote => ({ source, sourceLabel: source, price, sourceTime, receivedAt });

function tick(
  ts: string,
  price: string,
  quotes?: TickQuote[],
  proofs?: OrderTick['proofs'],
): OrderTick {
  return {
    id: '7',
    price,
    ts,
    source: quotes?.[0]?.source ?? 'simulated',
    sourceLabel: 'x',
    ...(quotes ? { quotes } : {}),
    ...(proofs ? { proofs } : {}),
  };
}

/** A close tick at the whole second after Pyth's publish time, priced by Binance and Pyth. */
const closeTick = (pyth: TickQuote | null, update = signedBtc, feedId = BTC_USD) => {
  const binance = quote(
    'binance',
    '113320.4',
    '2025-08-05T17:44:44.731Z',
    '2025-08-05T17:44:44.802Z',
  );
  const quotes = pyth ? [binance, pyth] : [binance];
  return tick('2025-08-05T17:44:45.000Z', pyth ? '113319.8' : '113320.4', quotes, [
    { source: 'pyth', feedId, update },
  ]);
};
const pythQuote = (price = SIGNED_PRICE, at = SIGNED_AT) =>
  quote('pyth', price, at, '2025-08-05T17:44:44.950Z');

async function translator(language: Language): Promise<TFunction> {
  const contracts = (await import(`@/features/contracts/locales/${language}.json`)) as {
    default: Catalogue;
  };
  const market = JSON.parse(
    readFileSync(
      new URL(`../../../packages/contract/src/i18n/market/${language}.json`, import.meta.url),
      'utf8',
    ),
  ) as Catalogue;
  const catalogue = { ...contracts.default, ...market };
  return (key, options) => translateFrom(catalogue, language, key, options);
}

describe('the median the page works out from a tick’s quotes', () => {
  it('two sources: the mean of the two, rounded down to the instrument’s places, and it is the recorded price', () => {
    const two = closeTick(pythQuote());
    expect(tickIndex(two, 2)).toEqual({ count: 2, price: '113319.8', agrees: true });
    // 113320.41 and 113319.2 average to 113319.805: rounded down to 113319.80.
    const odd = tick(two.ts, '113319.8', [
      quote('binance', '113320.41', '2025-08-05T17:44:44.731Z'),
      pythQuote(),
    ]);
    expect(tickIndex(odd, 2)).toEqual({ count: 2, price: '113319.8', agrees: true });
  });

  it('three sources: the middle one; a recorded price that is not it does not agree', () => {
    const at = '2025-08-05T17:44:45.000Z';
    const quotes = [quote('a', '100.5', at), quote('b', '99', at), quote('c', '250', at)];
    expect(tickIndex(tick(at, '100.5', quotes), 2)).toEqual({
      count: 3,
      price: '100.5',
      agrees: true,
    });
    expect(tickIndex(tick(at, '150', quotes), 2)).toEqual({
      count: 3,
      price: '100.5',
      agrees: false,
    });
  });

  it('a quote older than 5 s or stamped after the instant does not count', () => {
    const at = '2025-08-05T17:44:45.000Z';
    const stale = quote('binance', '90', '2025-08-05T17:44:39.999Z');
    const future = quote('other', '80', '2025-08-05T17:44:45.001Z');
    expect(tickIndex(tick(at, SIGNED_PRICE, [stale, pythQuote(), future]), 2)).toEqual({
      count: 1,
      price: SIGNED_PRICE,
      agrees: true,
    });
    expect(tickIndex(tick(at, '90', [stale]), 2)).toEqual({ count: 0, price: null, agrees: false });
  });

  it('a demo tick lists its one quote; a tick without quotes shows no table', () => {
    const at = '2025-08-05T17:44:45.000Z';
    expect(tickIndex(tick(at, '95010', [quote('simulated', '95010', at)]), 2)).toEqual({
      count: 1,
      price: '95010',
      agrees: true,
    });
    expect(tickIndex(tick(at, '95010'), 2)).toBeNull();
    // More places than the instrument has: not a price the recorder could have kept.
    expect(tickIndex(tick(at, '95010', [quote('simulated', '95010.001', at)]), 2)?.agrees).toBe(
      false,
    );
  });

  it('the price scale comes from the instruments list, or from the contract’s table before it loads', () => {
    expect(priceScaleOf('EURUSD', { priceScale: 5 })).toBe(5);
    expect(priceScaleOf('BTCUSDT', undefined)).toBe(2);
    expect(priceScaleOf('USDJPY', undefined)).toBe(3);
  });
});

describe('what a tick offers to check', () => {
  it('the demo walk and Binance do not sign; Pyth without a kept update is said so; a kept update is offered', () => {
    const at = '2025-08-05T17:44:45.000Z';
    expect(tickSignatures(tick(at, '1', [quote('simulated', '1', at)]))).toEqual({
      kind: 'unsigned',
      sources: ['simulated'],
    });
    // A live event's tick carries neither quotes nor updates: nothing is claimed until the detail arrives.
    expect(tickSignatures(tick(at, '1'))).toEqual({ kind: 'unknown' });
    expect(tickSignatures(tick(at, '1', [quote('binance', '1', at)]))).toEqual({
      kind: 'unsigned',
      sources: ['binance'],
    });
    expect(tickSignatures(tick(at, '1', [quote('binance', '1', at), pythQuote()]))).toEqual({
      kind: 'not_kept',
      sources: ['pyth'],
    });
    expect(tickSignatures(closeTick(pythQuote()))).toMatchObject({
      kind: 'proofs',
      proofs: [{ source: 'pyth', feedId: BTC_USD }],
    });
    // A proof from a source this page has no verifier for is not offered as checkable.
    expect(
      tickSignatures(
        tick(
          at,
          '1',
          [quote('binance', '1', at)],
          [{ source: 'binance', feedId: 'x', update: '00' }],
        ),
      ).kind,
    ).toBe('unsigned');
  });
});

describe('a signed Pyth update held against the close tick’s Pyth quote', () => {
  it('the real update is signed by 13 of set 4’s 19 guardians, and its price and time are the quote’s', () => {
    const [check] = checkTickSignatures(closeTick(pythQuote()), 2, pythProof);
    expect(check).toMatchObject({
      status: 'verified',
      source: 'pyth',
      feedId: BTC_USD,
      signers: 'guardians',
      signerSet: 4,
      signatures: 13,
      signerCount: 19,
      publishTimeMs: Date.parse(SIGNED_AT),
      exactPrice: '113319.19974145',
      priceMinor: 11_331_920n,
      priceMatches: true,
      timeMatches: true,
    });
    expect(provesQuote(check as SignatureCheck)).toBe(true);
  });

  it('the signed price scaled to the instrument: 4 places keep more of it, and then 113319.2 is not it', () => {
    const [check] = checkTickSignatures(closeTick(pythQuote('113319.1997')), 4, pythProof);
    expect(check).toMatchObject({
      status: 'verified',
      priceMinor: 1_133_191_997n,
      priceMatches: true,
    });
    const [rounded] = checkTickSignatures(closeTick(pythQuote()), 4, pythProof);
    expect(rounded).toMatchObject({ status: 'verified', priceMatches: false, timeMatches: true });
  });

  it('a quote one cent off, or one second off, is not proven, and says which differs', () => {
    const [price] = checkTickSignatures(closeTick(pythQuote('113319.1')), 2, pythProof);
    expect(price).toMatchObject({ status: 'verified', priceMatches: false, timeMatches: true });
    expect(provesQuote(price as SignatureCheck)).toBe(false);
    const [time] = checkTickSignatures(
      closeTick(pythQuote(SIGNED_PRICE, '2025-08-05T17:44:43.000Z')),
      2,
      pythProof,
    );
    expect(time).toMatchObject({ status: 'verified', priceMatches: true, timeMatches: false });
    expect(provesQuote(time as SignatureCheck)).toBe(false);
    const [none] = checkTickSignatures(closeTick(null), 2, pythProof);
    expect(none).toMatchObject({
      status: 'verified',
      quote: null,
      priceMatches: false,
      timeMatches: false,
    });
  });

  it('a tampered signature, another feed’s id or garbage fail with the verifier’s reason', () => {
    const bytes = pythProof.parseAccumulatorUpdate(Uint8Array.from(Buffer.from(signedBtc, 'hex')));
    // A byte of the first signature's r: the header, the VAA's size (2), version, set index and count (6), the signer index (1).
    const at = (bytes.header.length + 2 + 6 + 1) * 2;
    const tampered = `${signedBtc.slice(0, at)}${((parseInt(signedBtc.slice(at, at + 2), 16) ^ 0xff) >>> 0).toString(16).padStart(2, '0')}${signedBtc.slice(at + 2)}`;
    expect(
      checkProof(
        { source: 'pyth', feedId: BTC_USD, update: tampered },
        [pythQuote()],
        2,
        pythProof,
      ),
    ).toEqual({ status: 'failed', source: 'pyth', feedId: BTC_USD, reason: 'bad_signature' });
    const eth = 'ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace';
    expect(
      checkProof({ source: 'pyth', feedId: eth, update: signedBtc }, [pythQuote()], 2, pythProof),
    ).toMatchObject({ status: 'failed', reason: 'feed_not_in_update' });
    expect(
      checkProof(
        { source: 'pyth', feedId: BTC_USD, update: 'not hex' },
        [pythQuote()],
        2,
        pythProof,
      ),
    ).toMatchObject({ status: 'failed', reason: 'malformed' });
  });
});

describe('the check in words', () => {
  const [verified] = checkTickSignatures(closeTick(pythQuote()), 2, pythProof) as [SignatureCheck];
  const [offPrice] = checkTickSignatures(
    closeTick(pythQuote('113319.1', '2025-08-05T17:44:43.000Z')),
    2,
    pythProof,
  ) as [SignatureCheck];
  const failed: SignatureCheck = {
    status: 'failed',
    source: 'pyth',
    feedId: BTC_USD,
    reason: 'no_quorum',
  };

  it('en: signed by Pyth, by whom and when, and that it is the close tick’s Pyth quote', async () => {
    const t = await translator('en');
    const at = formatTickTime(SIGNED_AT, 'en');
    expect(signatureLines(verified, 2, 'en', t)).toEqual([
      `Signed by Pyth (Wormhole guardian set 4, 13 of 19 signatures) at ${at}.`,
      'Price 113,319.20 (113,319.19974145 as signed) and its time match the close tick’s Pyth quote.',
    ]);
    expect(signatureLines(offPrice, 2, 'en', t)).toEqual([
      `Signed by Pyth (Wormhole guardian set 4, 13 of 19 signatures) at ${at}.`,
      'The signed price 113,319.20 differs from the close tick’s Pyth quote, 113,319.10.',
      `The signed time ${at} differs from the time of the close tick’s Pyth quote, ${formatTickTime('2025-08-05T17:44:43.000Z', 'en')}.`,
    ]);
    expect(signatureLines(failed, 2, 'en', t)).toEqual([
      'Not shown to be signed by Pyth.',
      'It has too few signatures for a quorum.',
    ]);
  });

  it('zh_CN and de say the same in their words and number formats', async () => {
    const zh = await translator('zh_CN');
    expect(signatureLines(verified, 2, 'zh_CN', zh)).toEqual([
      `由 Pyth 签名（Wormhole 守护者集 4，19 个签名中有 13 个），时间 ${formatTickTime(SIGNED_AT, 'zh_CN')}。`,
      '价格 113,319.20（签名值 113,319.19974145）及其时间与平仓报价中的 Pyth 报价一致。',
    ]);
    const de = await translator('de');
    expect(signatureLines(verified, 2, 'de', de)[1]).toBe(
      'Kurs 113.319,20 (signiert: 113.319,19974145) und seine Zeit stimmen mit dem Pyth-Kurs des Schluss-Ticks überein.',
    );
    expect(signatureLines(failed, 2, 'de', de)).toEqual([
      'Nicht nachweislich von Pyth signiert.',
      'Sie hat zu wenige Signaturen für ein Quorum.',
    ]);
  });

  it('every reason the verifier gives has its words in every language', async () => {
    for (const language of ['en', 'de', 'es', 'fr', 'it', 'zh_CN', 'zh_TW'] as const) {
      const t = await translator(language);
      for (const reason of pythProof.PYTH_PROOF_FAILURES) {
        const [, why] = signatureLines(
          { status: 'failed', source: 'pyth', feedId: BTC_USD, reason },
          2,
          language,
          t,
        );
        expect(why, `${language} ${reason}`).not.toBe(`contracts.signature_reason.${reason}`);
      }
    }
  });
});
