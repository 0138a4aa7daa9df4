import { readFileSync } from 'node:fs';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  PYTH_CORE_TRUST,
  PYTH_PRO_COMPATIBLE_TRUST,
  type PythSignerSet,
  type PythTrust,
  WORMHOLE_MAINNET_GUARDIAN_SETS,
  formatPythPrice,
  parseAccumulatorUpdate,
  parsePriceMessage,
  parseVaa,
  quorumOf,
  scalePythPrice,
  sliceAccumulatorUpdate,
  verifyPythUpdate,
  verifyVaaSignatures,
} from '../src/pyth-proof.ts';

/** Real recorded Pyth data; where each file comes from is in that folder's README. */
const fixture = (name: string) =>
  readFileSync(new URL(`../../../apps/server/test/fixtures/pyth/${name}`, import.meta.url), 'utf8');

const BTC_USD = 'e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43';
const ETH_BTC = 'c96458d393fe9deb7a7d63a0ac41e2898a67a7750dbd166673279e06c868df0a';

interface HermesJson {
  binary: { encoding: string; data: string[] };
  parsed: {
    id: string;
    price: { price: string; conf: string; expo: number; publish_time: number };
  }[];
}

/** The `data:` payloads of the recorded SSE stream. */
const streamMessages = (): HermesJson[] =>
  fixture('hermes-stream-btc-usd.sse')
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice('data:'.length)) as HermesJson);

const latest = (): HermesJson =>
  JSON.parse(fixture('hermes-latest-btc-usd-eth-btc.json')) as HermesJson;
const nineFeeds = (): string => fixture('hermes-update-9-feeds.hex').trim();

/** Flips the bits of one byte of a hex update. */
function flip(hex: string, byteIndex: number): string {
  const bytes = hexToBytes(hex);
  bytes[byteIndex] = (bytes[byteIndex] ?? 0) ^ 0xff;
  return bytesToHex(bytes);
}

/** Where a part of a real update sits, so tampering hits what the test says it hits. */
function layout(hex: string) {
  const bytes = hexToBytes(hex);
  const parsed = parseAccumulatorUpdate(bytes);
  const vaaStart = parsed.header.length + 2;
  const vaa = parseVaa(parsed.vaa);
  const bodyStart = vaaStart + 6 + vaa.signatures.length * 66;
  const firstUpdate = parsed.updates[0];
  if (!firstUpdate) throw new Error('no update');
  const messageStart = firstUpdate.message.byteOffset - bytes.byteOffset;
  return { vaaStart, bodyStart, payloadEnd: vaaStart + parsed.vaa.length, messageStart, vaa };
}

describe('the published signer sets', () => {
  it('guardian sets 3 to 7 are the ones the upgrade VAAs install, each signed by the set before it, back to the genesis key', () => {
    const vaas = fixture('wormhole-guardian-set-upgrades.txt').trim().split('\n');
    expect(vaas).toHaveLength(7);
    let current: PythSignerSet = {
      index: 0,
      quorum: 'two-thirds',
      addresses: ['58cc3ae5c097b213ce3c81979e1b9f9570746aa5'],
    };
    const derived: PythSignerSet[] = [current];
    for (const hex of vaas) {
      const vaa = parseVaa(hexToBytes(hex));
      expect(vaa.signerSetIndex).toBe(current.index);
      expect(verifyVaaSignatures(vaa, current)).toBeNull();
      // A "Core" module guardian-set upgrade (action 2) from the governance emitter.
      expect(vaa.emitterChain).toBe(1);
      expect(vaa.emitter).toBe('0000000000000000000000000000000000000000000000000000000000000004');
      expect(bytesToHex(vaa.payload.subarray(28, 33))).toBe('436f726502');
      const index = new DataView(vaa.payload.buffer, vaa.payload.byteOffset + 35, 4).getUint32(0);
      const count = vaa.payload[39] ?? 0;
      const addresses = Array.from({ length: count }, (_, i) =>
        bytesToHex(vaa.payload.subarray(40 + 20 * i, 60 + 20 * i)),
      );
      const previous = derived.at(-1);
      if (previous) previous.validUntilS = vaa.timestamp + 86_400;
      current = { index, quorum: 'two-thirds', addresses };
      derived.push(current);
    }
    expect(derived.map((set) => set.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(WORMHOLE_MAINNET_GUARDIAN_SETS).toEqual(derived.slice(3));
  });

  it('a set of 19 guardians needs 13 signatures; a set of 5 routers needs 3', () => {
    expect(quorumOf(19, 'two-thirds')).toBe(13);
    expect(quorumOf(5, 'half')).toBe(3);
    expect(quorumOf(1, 'two-thirds')).toBe(1);
  });

  it('the data sources are the Pythnet emitters Pyth’s own contracts accept', () => {
    expect(PYTH_CORE_TRUST.dataSources).toContainEqual({
      chain: 26,
      emitter: 'e101faedac5851e32b9b23b5f9411a8c2bac4aae3ed4dd7b811dd1a72ea4aa71',
    });
    expect(PYTH_PRO_COMPATIBLE_TRUST.signerSets[0]?.addresses).toHaveLength(5);
  });
});

describe('real signed Hermes updates', () => {
  it('each update of the recorded stream is signed by guardian set 4 and proves the price Hermes parsed', () => {
    const messages = streamMessages();
    expect(messages).toHaveLength(2);
    for (const message of messages) {
      const [update] = message.binary.data;
      const [parsed] = message.parsed;
      if (!update || !parsed) throw new Error('fixture is empty');
      const result = verifyPythUpdate(update, parsed.id);
      expect(result).toMatchObject({
        ok: true,
        source: 'pyth-core',
        signedBy: 4,
        signatures: 13,
        feedId: BTC_USD,
      });
      if (!result.ok) continue;
      expect(result.price).toBe(BigInt(parsed.price.price));
      expect(result.conf).toBe(BigInt(parsed.price.conf));
      expect(result.expo).toBe(parsed.price.expo);
      expect(result.publishTime).toBe(parsed.price.publish_time);
    }
    const first = verifyPythUpdate(messages[0]?.binary.data[0] ?? '', BTC_USD);
    expect(first.ok && formatPythPrice(first.price, first.expo)).toBe('61632.6');
    expect(first.ok && first.vaaTimestamp).toBe(1714748301);
  });

  it('one update proves each of the feeds it carries, each by its own Merkle proof', () => {
    const reply = latest();
    const [update] = reply.binary.data;
    if (!update) throw new Error('fixture is empty');
    for (const parsed of reply.parsed) {
      const result = verifyPythUpdate(`0x${update}`, `0x${parsed.id.toUpperCase()}`);
      expect(result).toMatchObject({
        ok: true,
        feedId: parsed.id,
        price: BigInt(parsed.price.price),
        publishTime: parsed.price.publish_time,
      });
    }
    expect(reply.parsed.map((entry) => entry.id)).toEqual([BTC_USD, ETH_BTC]);

    const nine = nineFeeds();
    const feeds = parseAccumulatorUpdate(hexToBytes(nine)).updates.map(
      ({ message }) => parsePriceMessage(message)?.feedId ?? '',
    );
    expect(feeds).toHaveLength(9);
    for (const feedId of feeds)
      expect(verifyPythUpdate(nine, feedId)).toMatchObject({ ok: true, signedBy: 4, feedId });
  });

  it('an update cut down to one feed still verifies, and is a fraction of the size', () => {
    const nine = nineFeeds();
    const btc = sliceAccumulatorUpdate(nine, BTC_USD);
    if (!btc) throw new Error('BTC/USD is in the fixture');
    expect(btc.length).toBeLessThan(hexToBytes(nine).length / 2);
    // The values the fixture's source states for it (HERMES_9_BTC_* in the TON tests).
    expect(verifyPythUpdate(btc, BTC_USD)).toMatchObject({
      ok: true,
      signedBy: 4,
      price: 11_331_919_974_145n,
      conf: 5_098_807_032n,
      expo: -8,
      publishTime: 1_754_415_884,
    });
    expect(
      verifyPythUpdate(btc, 'ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace'),
    ).toEqual({ ok: false, reason: 'feed_not_in_update' });
    expect(sliceAccumulatorUpdate(nine, ETH_BTC)).toBeNull();
    expect(sliceAccumulatorUpdate('nonsense', BTC_USD)).toBeNull();
  });
});

describe('a forged or damaged update is refused with the reason', () => {
  const update = () => streamMessages()[0]?.binary.data[0] ?? '';

  it('a changed price fails its Merkle proof', () => {
    const { messageStart } = layout(update());
    // The price's last byte: message type (1) + feed id (32) + 7 bytes of the i64.
    expect(verifyPythUpdate(flip(update(), messageStart + 40), BTC_USD)).toEqual({
      ok: false,
      reason: 'bad_merkle_proof',
    });
  });

  it('a changed Merkle root, body or signature breaks a signature', () => {
    const { bodyStart, payloadEnd, vaaStart } = layout(update());
    expect(verifyPythUpdate(flip(update(), payloadEnd - 1), BTC_USD)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    // The nonce: signed, though nothing else reads it.
    expect(verifyPythUpdate(flip(update(), bodyStart + 5), BTC_USD)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    // The first signature's r.
    expect(verifyPythUpdate(flip(update(), vaaStart + 7), BTC_USD)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('fewer signatures than the quorum are not enough, however valid', () => {
    const { vaaStart, vaa } = layout(update());
    const bytes = hexToBytes(update());
    // Keep 12 of the 13 signatures: drop the last one and fix the counts.
    const cut = vaaStart + 6 + 12 * 66;
    const shorter = new Uint8Array(bytes.length - 66);
    shorter.set(bytes.subarray(0, cut));
    shorter.set(bytes.subarray(cut + 66), cut);
    const vaaLength = (bytes[vaaStart - 2] ?? 0) * 256 + (bytes[vaaStart - 1] ?? 0) - 66;
    shorter[vaaStart - 2] = vaaLength >> 8;
    shorter[vaaStart - 1] = vaaLength & 0xff;
    shorter[vaaStart + 5] = 12;
    expect(vaa.signatures).toHaveLength(13);
    expect(verifyPythUpdate(shorter, BTC_USD)).toEqual({ ok: false, reason: 'no_quorum' });
  });

  it('signers it does not know, retired signers, and messages from another emitter are refused', () => {
    const withoutSet4: PythTrust = {
      ...PYTH_CORE_TRUST,
      signerSets: WORMHOLE_MAINNET_GUARDIAN_SETS.filter((set) => set.index !== 4),
    };
    expect(verifyPythUpdate(update(), BTC_USD, [withoutSet4])).toEqual({
      ok: false,
      reason: 'unknown_signer_set',
    });
    const retiredEarly: PythTrust = {
      ...PYTH_CORE_TRUST,
      signerSets: WORMHOLE_MAINNET_GUARDIAN_SETS.map((set) =>
        set.index === 4 ? { ...set, validUntilS: 1714748300 } : set,
      ),
    };
    expect(verifyPythUpdate(update(), BTC_USD, [retiredEarly])).toEqual({
      ok: false,
      reason: 'signer_set_expired',
    });
    const otherEmitter: PythTrust = {
      ...PYTH_CORE_TRUST,
      dataSources: [
        { chain: 26, emitter: 'f8cd23c2ab91237730770bbea08d61005cdda0984348f3f6eecb559638c0bba0' },
      ],
    };
    expect(verifyPythUpdate(update(), BTC_USD, [otherEmitter])).toEqual({
      ok: false,
      reason: 'unknown_emitter',
    });
    // The routers' trust does not accept the guardians' emitter either.
    expect(verifyPythUpdate(update(), BTC_USD, [PYTH_PRO_COMPATIBLE_TRUST])).toEqual({
      ok: false,
      reason: 'unknown_emitter',
    });
  });

  it('garbage is malformed, never an exception', () => {
    const good = update();
    expect(verifyPythUpdate(good.slice(0, 600), BTC_USD)).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(verifyPythUpdate(`${good}00`, BTC_USD)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyPythUpdate('zz', BTC_USD)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyPythUpdate('abc', BTC_USD)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyPythUpdate('', BTC_USD)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyPythUpdate(`00${good.slice(2)}`, BTC_USD)).toEqual({
      ok: false,
      reason: 'bad_magic',
    });
    expect(verifyPythUpdate(new Uint8Array(70_000), BTC_USD)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it(
    'a changed byte anywhere a verifier reads (every 19th, tried one by one) never verifies and never throws',
    { timeout: 30_000 },
    () => {
      const good = update();
      const length = hexToBytes(good).length;
      // Every 19th byte from the update type on: signatures, body, payload, message and proof all get hit.
      for (let i = 7; i < length; i += 19) {
        const result = verifyPythUpdate(flip(good, i), BTC_USD);
        expect(result.ok, `byte ${i}`).toBe(false);
      }
    },
  );
});

/**
 * The upgraded Pyth Core's routers sign the same format with their own keys. No update signed
 * by them could be found in public sources, so this builds one with a key set the test makes.
 */
describe('an update signed by a key set the test makes (router format)', () => {
  const keys = Array.from({ length: 5 }, (_, i) =>
    keccak_256(new TextEncoder().encode(`tradewind test router ${i}`)),
  );
  const addressOf = (key: Uint8Array) =>
    bytesToHex(keccak_256(secp256k1.getPublicKey(key, false).subarray(1)).subarray(12));
  const emitter = '11'.repeat(32);
  const trust: PythTrust = {
    name: 'test-routers',
    signerSets: [{ index: 0, quorum: 'half', addresses: keys.map(addressOf) }],
    dataSources: [{ chain: 26, emitter }],
  };
  const feedId = 'a995d00bb36a63cef7fd2c287dc105fc8f3d93779f062f09551b0af3e81ec30b';

  const be = (value: bigint, bytes: number) =>
    hexToBytes(
      BigInt.asUintN(bytes * 8, value)
        .toString(16)
        .padStart(bytes * 2, '0'),
    );
  const concat = (...parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  };
  const h160 = (...parts: Uint8Array[]) => keccak_256(concat(...parts)).subarray(0, 20);
  const priceMessage = (id: string, price: bigint) =>
    concat(
      Uint8Array.of(0),
      hexToBytes(id),
      be(price, 8),
      be(12n, 8),
      be(-5n, 4),
      be(1_790_000_000n, 8),
      be(1_789_999_999n, 8),
      be(price, 8),
      be(13n, 8),
    );

  /** An accumulator update of two feeds signed by `signers` (indexes into `keys`). */
  function build(signers: number[]): Uint8Array {
    const ours = priceMessage(feedId, 115_290n);
    const other = priceMessage('22'.repeat(32), 1n);
    const leafOurs = h160(Uint8Array.of(0), ours);
    const leafOther = h160(Uint8Array.of(0), other);
    const [low, high] =
      bytesToHex(leafOurs) < bytesToHex(leafOther) ? [leafOurs, leafOther] : [leafOther, leafOurs];
    const root = h160(Uint8Array.of(1), low, high);
    const payload = concat(
      new TextEncoder().encode('AUWV'),
      Uint8Array.of(0),
      be(123n, 8),
      be(2n, 4),
      root,
    );
    const body = concat(
      be(1_790_000_001n, 4),
      be(0n, 4),
      be(26n, 2),
      hexToBytes(emitter),
      be(7n, 8),
      Uint8Array.of(1),
      payload,
    );
    const digest = keccak_256(keccak_256(body));
    const signatures = signers.map((index) => {
      const recovered = secp256k1.sign(digest, keys[index] ?? new Uint8Array(32), {
        prehash: false,
        format: 'recovered',
      });
      return concat(Uint8Array.of(index), recovered.subarray(1), recovered.subarray(0, 1));
    });
    const vaa = concat(
      Uint8Array.of(1),
      be(0n, 4),
      Uint8Array.of(signers.length),
      ...signatures,
      body,
    );
    const entry = concat(be(BigInt(ours.length), 2), ours, Uint8Array.of(1), leafOther);
    return concat(
      new TextEncoder().encode('PNAU'),
      Uint8Array.of(1, 0, 0, 0),
      be(BigInt(vaa.length), 2),
      vaa,
      Uint8Array.of(1),
      entry,
    );
  }

  it('three of five routers are a quorum and the price is proven', () => {
    expect(verifyPythUpdate(build([0, 2, 4]), feedId, [trust])).toMatchObject({
      ok: true,
      source: 'test-routers',
      signedBy: 0,
      signatures: 3,
      price: 115_290n,
      expo: -5,
    });
    expect(formatPythPrice(115_290n, -5)).toBe('1.1529');
  });

  it('two of five are not; a signer counted twice or out of order is refused; an outsider’s key is a bad signature', () => {
    expect(verifyPythUpdate(build([1, 3]), feedId, [trust])).toEqual({
      ok: false,
      reason: 'no_quorum',
    });
    expect(verifyPythUpdate(build([1, 1, 3]), feedId, [trust])).toEqual({
      ok: false,
      reason: 'signer_indexes_not_ascending',
    });
    expect(verifyPythUpdate(build([3, 1, 4]), feedId, [trust])).toEqual({
      ok: false,
      reason: 'signer_indexes_not_ascending',
    });
    const outsider: PythTrust = {
      ...trust,
      signerSets: [
        {
          index: 0,
          quorum: 'half',
          addresses: [...keys.slice(0, 4).map(addressOf), '33'.repeat(20)],
        },
      ],
    };
    expect(verifyPythUpdate(build([0, 1, 4]), feedId, [outsider])).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });
});

describe('exact decimal prices', () => {
  it('a mantissa and exponent become an integer at the instrument scale, rounded half away from zero, never through a float', () => {
    const cases: [bigint, number, number, bigint][] = [
      [6_163_260_000_000n, -8, 2, 6_163_260n],
      [6_163_260_500_000n, -8, 2, 6_163_261n],
      [6_163_260_499_999n, -8, 2, 6_163_260n],
      [115_290n, -5, 5, 115_290n],
      [151_234n, -3, 3, 151_234n],
      [2_650_125n, -3, 2, 265_013n],
      [-2_650_125n, -3, 2, -265_013n],
      [7n, 2, 2, 70_000n],
      // 9007199254740993 is not a double: a float would lose the last digit.
      [9_007_199_254_740_993n, -8, 8, 9_007_199_254_740_993n],
    ];
    for (const [mantissa, expo, scale, expected] of cases)
      expect(scalePythPrice(mantissa, expo, scale)).toBe(expected);
    expect(formatPythPrice(4_959_503n, -8)).toBe('0.04959503');
    expect(formatPythPrice(-1_500n, -3)).toBe('-1.5');
    expect(formatPythPrice(12n, 2)).toBe('1200');
    expect(() => scalePythPrice(1n, 2 ** 31, 2)).toThrow(RangeError);
    expect(() => formatPythPrice(1n, -1_000)).toThrow(RangeError);
  });
});
