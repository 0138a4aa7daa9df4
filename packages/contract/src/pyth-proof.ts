import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';

/**
 * Checks a Pyth price update without trusting whoever relayed it (decision 0024). Runs
 * in the browser and on the server; no zod, no Node APIs.
 *
 * A Hermes update (`binary.data[i]`) is an accumulator update:
 *
 *     "PNAU" u8 major(1) u8 minor u8 trailingSize [trailing] u8 updateType(0 = WormholeMerkle)
 *     u16 vaaSize [VAA] u8 n, n × { u16 size [message] u8 depth, depth × [20-byte sibling] }
 *
 * The VAA is a Wormhole message: u8 version(1) u32 signerSetIndex u8 count,
 * count × { u8 signerIndex, r(32) s(32) v(1) }, then the signed body: u32 timestamp
 * u32 nonce u16 emitterChain [emitter 32] u64 sequence u8 consistency [payload]. Each
 * signature is secp256k1 over keccak256(keccak256(body)); the signer is the Ethereum
 * address of the recovered key. The payload "AUWV" u8 0 u64 slot u32 ringSize
 * [root 20] commits to a Merkle tree of price messages: a leaf is
 * keccak256(0x00 ‖ message)[0..20], a node keccak256(0x01 ‖ min(a,b) ‖ max(a,b))[0..20].
 * A price message is u8 0 [feedId 32] i64 price u64 conf i32 expo i64 publishTime
 * i64 prevPublishTime i64 emaPrice u64 emaConf (all big-endian).
 *
 * Sources: pyth-network/pyth-crosschain target_chains/ethereum/contracts/contracts/
 * pyth/PythAccumulator.sol, libraries/MerkleTree.sol, wormhole-receiver/ReceiverMessages.sol.
 */

/** A set of keys that signs VAAs: Wormhole's guardians, or the routers of the upgraded Pyth Core. */
export interface PythSignerSet {
  /** The index a VAA header names. */
  index: number;
  /** 20-byte addresses (hex, no 0x), in signer-index order. */
  addresses: readonly string[];
  /** `two-thirds`: more than 2/3 must sign (Wormhole); `half`: more than half (Pyth's routers). */
  quorum: 'two-thirds' | 'half';
  /**
   * The last VAA timestamp (Unix s) this set may sign: a day after the upgrade that replaced
   * it (Wormhole keeps a replaced set valid for 24 h). A retired set's keys are never trusted
   * for a later update, in case they leak after retirement.
   */
  validUntilS?: number;
}

/** A chain and emitter whose messages carry Pyth prices; guardians sign anyone's messages, so the emitter must be checked. */
export interface PythDataSource {
  chain: number;
  /** 32 bytes, hex, no 0x. */
  emitter: string;
}

/** Whom a verifier trusts: the published signer sets and the emitters whose payloads are Pyth's. */
export interface PythTrust {
  name: string;
  signerSets: readonly PythSignerSet[];
  dataSources: readonly PythDataSource[];
}

/**
 * Wormhole mainnet guardian sets 3–7, the ones that have signed Pyth accumulator updates.
 * Each is the payload of an upgrade VAA signed by the set before it, back to the genesis key
 * every Pyth contract starts from (pyth-crosschain contract_manager/src/core/base.ts `stable`;
 * the VAAs are MAINNET_UPGRADE_VAAS in contract_manager/src/core/contracts/wormhole.ts). The
 * tests re-derive every set from that chain of VAAs. A new set means a new entry here.
 */
export const WORMHOLE_MAINNET_GUARDIAN_SETS: readonly PythSignerSet[] = [
  {
    index: 3,
    quorum: 'two-thirds',
    validUntilS: 1713367800,
    addresses: [
      '58cc3ae5c097b213ce3c81979e1b9f9570746aa5',
      'ff6cb952589bde862c25ef4392132fb9d4a42157',
      '114de8460193bdf3a2fcf81f86a09765f4762fd1',
      '107a0086b32d7a0977926a205131d8731d39cbeb',
      '8c82b2fd82faed2711d59af0f2499d16e726f6b2',
      '11b39756c042441be6d8650b69b54ebe715e2343',
      '54ce5b4d348fb74b958e8966e2ec3dbd4958a7cd',
      '15e7caf07c4e3dc8e7c469f92c8cd88fb8005a20',
      '74a3bf913953d695260d88bc1aa25a4eee363ef0',
      '000ac0076727b35fbea2dac28fee5ccb0fea768e',
      'af45ced136b9d9e24903464ae889f5c8a723fc14',
      'f93124b7c738843cbb89e864c862c38cddcccf95',
      'd2cc37a4dc036a8d232b48f62cdd4731412f4890',
      'da798f6896a3331f64b48c12d1d57fd9cbe70811',
      '71aa1be1d36cafe3867910f99c09e347899c19c3',
      '8192b6e7387ccd768277c17dab1b7a5027c0b3cf',
      '178e21ad2e77ae06711549cfbb1f9c7a9d8096e8',
      '5e1487f35515d02a92753504a8d75471b9f49edb',
      '6fbebc898f403e4773e95feb15e80c9a99c8348d',
    ],
  },
  {
    index: 4,
    quorum: 'two-thirds',
    validUntilS: 1773666404,
    addresses: [
      '5893b5a76c3f739645648885bdccc06cd70a3cd3',
      'ff6cb952589bde862c25ef4392132fb9d4a42157',
      '114de8460193bdf3a2fcf81f86a09765f4762fd1',
      '107a0086b32d7a0977926a205131d8731d39cbeb',
      '8c82b2fd82faed2711d59af0f2499d16e726f6b2',
      '11b39756c042441be6d8650b69b54ebe715e2343',
      '54ce5b4d348fb74b958e8966e2ec3dbd4958a7cd',
      '15e7caf07c4e3dc8e7c469f92c8cd88fb8005a20',
      '74a3bf913953d695260d88bc1aa25a4eee363ef0',
      '000ac0076727b35fbea2dac28fee5ccb0fea768e',
      'af45ced136b9d9e24903464ae889f5c8a723fc14',
      'f93124b7c738843cbb89e864c862c38cddcccf95',
      'd2cc37a4dc036a8d232b48f62cdd4731412f4890',
      'da798f6896a3331f64b48c12d1d57fd9cbe70811',
      '71aa1be1d36cafe3867910f99c09e347899c19c3',
      '8192b6e7387ccd768277c17dab1b7a5027c0b3cf',
      '178e21ad2e77ae06711549cfbb1f9c7a9d8096e8',
      '5e1487f35515d02a92753504a8d75471b9f49edb',
      '6fbebc898f403e4773e95feb15e80c9a99c8348d',
    ],
  },
  {
    index: 5,
    quorum: 'two-thirds',
    validUntilS: 1778068332,
    addresses: [
      '5893b5a76c3f739645648885bdccc06cd70a3cd3',
      'ff6cb952589bde862c25ef4392132fb9d4a42157',
      '114de8460193bdf3a2fcf81f86a09765f4762fd1',
      '107a0086b32d7a0977926a205131d8731d39cbeb',
      '8c82b2fd82faed2711d59af0f2499d16e726f6b2',
      '11b39756c042441be6d8650b69b54ebe715e2343',
      '938f104aeb5581293216ce97d771e0cb721221b1',
      '15e7caf07c4e3dc8e7c469f92c8cd88fb8005a20',
      '74a3bf913953d695260d88bc1aa25a4eee363ef0',
      '000ac0076727b35fbea2dac28fee5ccb0fea768e',
      'af45ced136b9d9e24903464ae889f5c8a723fc14',
      'f93124b7c738843cbb89e864c862c38cddcccf95',
      'd2cc37a4dc036a8d232b48f62cdd4731412f4890',
      'da798f6896a3331f64b48c12d1d57fd9cbe70811',
      'd1f64e26238811de5553c40f64af41ee1b6057cc',
      '43ac8f567a31e7850da532b361988bfe0d3ae11b',
      '178e21ad2e77ae06711549cfbb1f9c7a9d8096e8',
      '5e1487f35515d02a92753504a8d75471b9f49edb',
      '6fbebc898f403e4773e95feb15e80c9a99c8348d',
    ],
  },
  {
    index: 6,
    quorum: 'two-thirds',
    validUntilS: 1783755663,
    addresses: [
      '5893b5a76c3f739645648885bdccc06cd70a3cd3',
      'ff6cb952589bde862c25ef4392132fb9d4a42157',
      '114de8460193bdf3a2fcf81f86a09765f4762fd1',
      '107a0086b32d7a0977926a205131d8731d39cbeb',
      '8c82b2fd82faed2711d59af0f2499d16e726f6b2',
      '42579bffbcf4276e290ab8e4c162bd4052b97970',
      '938f104aeb5581293216ce97d771e0cb721221b1',
      '18e41674ccf26329cd111406c1d05c6c80b23edc',
      '9d16870160e703324d057c3361c34c5befba2c34',
      '000ac0076727b35fbea2dac28fee5ccb0fea768e',
      'af45ced136b9d9e24903464ae889f5c8a723fc14',
      'f93124b7c738843cbb89e864c862c38cddcccf95',
      'd2cc37a4dc036a8d232b48f62cdd4731412f4890',
      'da798f6896a3331f64b48c12d1d57fd9cbe70811',
      'd1f64e26238811de5553c40f64af41ee1b6057cc',
      '3f851ad586a47cef8d04748f33ab0d71395f06b4',
      '178e21ad2e77ae06711549cfbb1f9c7a9d8096e8',
      '7899ceab1dc961dae9defdb7a4f521269a5448fc',
      '6fbebc898f403e4773e95feb15e80c9a99c8348d',
    ],
  },
  {
    index: 7,
    quorum: 'two-thirds',
    addresses: [
      '5893b5a76c3f739645648885bdccc06cd70a3cd3',
      'ff6cb952589bde862c25ef4392132fb9d4a42157',
      '114de8460193bdf3a2fcf81f86a09765f4762fd1',
      '107a0086b32d7a0977926a205131d8731d39cbeb',
      '8c82b2fd82faed2711d59af0f2499d16e726f6b2',
      '42579bffbcf4276e290ab8e4c162bd4052b97970',
      '938f104aeb5581293216ce97d771e0cb721221b1',
      'f3ea0ad4ffb5a178ae4ebc21861651b25bdcbb91',
      '9d16870160e703324d057c3361c34c5befba2c34',
      '000ac0076727b35fbea2dac28fee5ccb0fea768e',
      'af45ced136b9d9e24903464ae889f5c8a723fc14',
      'f93124b7c738843cbb89e864c862c38cddcccf95',
      'd2cc37a4dc036a8d232b48f62cdd4731412f4890',
      'da798f6896a3331f64b48c12d1d57fd9cbe70811',
      'ae565927bb8db25cd8bf3e7bb663d70023e4ea78',
      '3f851ad586a47cef8d04748f33ab0d71395f06b4',
      '178e21ad2e77ae06711549cfbb1f9c7a9d8096e8',
      '7899ceab1dc961dae9defdb7a4f521269a5448fc',
      '61d9800f9fcb4160fb0c6cf3a0902592bac2b434',
    ],
  },
];

/** Pyth Core on Pythnet, signed by Wormhole's guardians: the emitters Pyth's own contracts accept (base.ts, `stable`). */
export const PYTH_CORE_TRUST: PythTrust = {
  name: 'pyth-core',
  signerSets: WORMHOLE_MAINNET_GUARDIAN_SETS,
  dataSources: [
    { chain: 26, emitter: 'e101faedac5851e32b9b23b5f9411a8c2bac4aae3ed4dd7b811dd1a72ea4aa71' },
    { chain: 26, emitter: 'f8cd23c2ab91237730770bbea08d61005cdda0984348f3f6eecb559638c0bba0' },
    { chain: 1, emitter: '6bb14509a612f01fbbc4cffeebd4bbfb492a86df717ebe92eb6df432a3f00a25' },
  ],
};

/**
 * The upgraded Pyth Core (from 2026-08-18): five routers sign the same update format, quorum
 * more than half (base.ts, `pro-compatible-production`; the receiver is
 * ReceiverImplementationHalf.sol). Its first set is installed at index 0 of its own receiver.
 */
export const PYTH_PRO_COMPATIBLE_TRUST: PythTrust = {
  name: 'pyth-core-routers',
  signerSets: [
    {
      index: 0,
      quorum: 'half',
      addresses: [
        '41534bb176e461a3fb30479400f210549ecce638',
        '6502987b62f21cab7eb5ccd8f0173084b60d5b41',
        '44a3e8f6a382412cf6bb90a3f8106e68977476c9',
        'd9d7d4529577864352c9a6539a48238fcd447052',
        '1663a5a822336ece48559b1dfb1e93a017a7dac3',
      ],
    },
  ],
  dataSources: [
    { chain: 26, emitter: '507974686e6574507974686e6574507974686e6574507974686e657450797468' },
  ],
};

/** Every publisher a settled tick may come from; the emitter in the signed body picks which one applies. */
export const PYTH_TRUSTS: readonly PythTrust[] = [PYTH_CORE_TRUST, PYTH_PRO_COMPATIBLE_TRUST];

export const PYTH_PROOF_FAILURES = [
  'malformed',
  'bad_magic',
  'unsupported_version',
  'unsupported_update_type',
  'unknown_emitter',
  'unknown_signer_set',
  'signer_set_expired',
  'no_quorum',
  'signer_indexes_not_ascending',
  'bad_signature',
  'bad_payload',
  'bad_merkle_proof',
  'feed_not_in_update',
] as const;
export type PythProofFailure = (typeof PYTH_PROOF_FAILURES)[number];

/** One price message, decoded. Prices are mantissas: the value is `price × 10^expo`. */
export interface PythPriceMessage {
  feedId: string;
  price: bigint;
  conf: bigint;
  expo: number;
  /** Unix seconds. */
  publishTime: number;
  prevPublishTime: number;
  emaPrice: bigint;
  emaConf: bigint;
}

export type PythProofResult =
  | (PythPriceMessage & {
      ok: true;
      /** The trust (publisher) whose signers signed it. */
      source: string;
      /** Index of the signer set that signed it. */
      signedBy: number;
      /** Number of valid signatures (at least the quorum). */
      signatures: number;
      /** The VAA's own timestamp and Pythnet slot. */
      vaaTimestamp: number;
      slot: bigint;
    })
  | { ok: false; reason: PythProofFailure };

/** An update larger than this is refused unread: Hermes' single-feed updates are about 1.4 KB. */
export const MAX_PYTH_UPDATE_BYTES = 64 * 1024;

const ACCUMULATOR_MAGIC = 0x504e4155; // "PNAU"
const WORMHOLE_MERKLE_MAGIC = 0x41555756; // "AUWV"
const ACCUMULATOR_MAJOR_VERSION = 1;
const UPDATE_TYPE_WORMHOLE_MERKLE = 0;
const MESSAGE_TYPE_PRICE_FEED = 0;
const VAA_VERSION = 1;
const SIGNATURE_BYTES = 66;
const MERKLE_LEAF_PREFIX = 0;
const MERKLE_NODE_PREFIX = 1;
const HASH_BYTES = 20;

class ProofError extends Error {
  constructor(readonly reason: PythProofFailure) {
    super(reason);
  }
}

/** A bounds-checked big-endian reader: reading past the end is `malformed`, never garbage. */
class Reader {
  private offset = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get position(): number {
    return this.offset;
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  take(length: number): Uint8Array {
    if (length < 0 || length > this.remaining) throw new ProofError('malformed');
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  u8(): number {
    return this.take(1)[0] ?? 0;
  }

  u16(): number {
    const b = this.take(2);
    return ((b[0] ?? 0) << 8) | (b[1] ?? 0);
  }

  u32(): number {
    return Number(this.uint(4));
  }

  i32(): number {
    return Number(BigInt.asIntN(32, this.uint(4)));
  }

  u64(): bigint {
    return this.uint(8);
  }

  i64(): bigint {
    return BigInt.asIntN(64, this.uint(8));
  }

  private uint(length: number): bigint {
    let value = 0n;
    for (const byte of this.take(length)) value = (value << 8n) | BigInt(byte);
    return value;
  }
}

export interface PythVaaSignature {
  signerIndex: number;
  r: bigint;
  s: bigint;
  recovery: number;
}

export interface PythVaa {
  signerSetIndex: number;
  signatures: PythVaaSignature[];
  /** The signed part: everything after the signatures. */
  body: Uint8Array;
  timestamp: number;
  emitterChain: number;
  emitter: string;
  sequence: bigint;
  payload: Uint8Array;
}

export interface PythAccumulatorUpdate {
  /** Everything before the VAA's size: magic, versions, trailing header, update type. */
  header: Uint8Array;
  vaa: Uint8Array;
  /** `encoded` is the update's own bytes (size, message, depth, proof), for re-packing. */
  updates: { message: Uint8Array; proof: Uint8Array[]; encoded: Uint8Array }[];
}

/** Splits an accumulator update into its VAA and its (message, Merkle proof) pairs; checks no signature. */
export function parseAccumulatorUpdate(bytes: Uint8Array): PythAccumulatorUpdate {
  const reader = new Reader(bytes);
  if (reader.u32() !== ACCUMULATOR_MAGIC) throw new ProofError('bad_magic');
  if (reader.u8() !== ACCUMULATOR_MAJOR_VERSION) throw new ProofError('unsupported_version');
  reader.u8(); // Minor versions only add trailing header bytes, which are skipped.
  reader.take(reader.u8());
  if (reader.u8() !== UPDATE_TYPE_WORMHOLE_MERKLE) throw new ProofError('unsupported_update_type');
  const header = bytes.subarray(0, reader.position);
  const vaa = reader.take(reader.u16());
  const count = reader.u8();
  const updates: PythAccumulatorUpdate['updates'] = [];
  for (let i = 0; i < count; i++) {
    const start = reader.position;
    const message = reader.take(reader.u16());
    const depth = reader.u8();
    const proof: Uint8Array[] = [];
    for (let j = 0; j < depth; j++) proof.push(reader.take(HASH_BYTES));
    updates.push({ message, proof, encoded: bytes.subarray(start, reader.position) });
  }
  if (reader.remaining !== 0) throw new ProofError('malformed');
  return { header, vaa, updates };
}

/**
 * The same signed update cut down to one feed: the VAA and that feed's message and proof.
 * It verifies exactly as the whole does (the VAA signs the root, not the list), at a
 * fraction of the size when Hermes packs many feeds into one update. Null if the update is
 * unreadable or does not carry the feed.
 */
export function sliceAccumulatorUpdate(
  update: Uint8Array | string,
  feedId: string,
): Uint8Array | null {
  try {
    const parsed = parseAccumulatorUpdate(toBytes(update));
    const wanted = normalizeHex(feedId);
    const entry = parsed.updates.find(
      ({ message }) => parsePriceMessage(message)?.feedId === wanted,
    );
    if (!entry) return null;
    const out = new Uint8Array(
      parsed.header.length + 2 + parsed.vaa.length + 1 + entry.encoded.length,
    );
    let offset = 0;
    out.set(parsed.header, offset);
    offset += parsed.header.length;
    out[offset++] = parsed.vaa.length >> 8;
    out[offset++] = parsed.vaa.length & 0xff;
    out.set(parsed.vaa, offset);
    offset += parsed.vaa.length;
    out[offset++] = 1;
    out.set(entry.encoded, offset);
    return out;
  } catch {
    return null;
  }
}

/** Decodes a VAA; checks no signature. */
export function parseVaa(bytes: Uint8Array): PythVaa {
  const reader = new Reader(bytes);
  if (reader.u8() !== VAA_VERSION) throw new ProofError('unsupported_version');
  const signerSetIndex = reader.u32();
  const count = reader.u8();
  const signatures: PythVaaSignature[] = [];
  for (let i = 0; i < count; i++) {
    const signerIndex = reader.u8();
    const r = bytesToBigInt(reader.take(32));
    const s = bytesToBigInt(reader.take(32));
    signatures.push({ signerIndex, r, s, recovery: reader.u8() });
  }
  const body = bytes.subarray(1 + 4 + 1 + count * SIGNATURE_BYTES);
  const timestamp = reader.u32();
  reader.u32(); // nonce
  const emitterChain = reader.u16();
  const emitter = bytesToHex(reader.take(32));
  const sequence = reader.u64();
  reader.u8(); // consistency level
  const payload = reader.take(reader.remaining);
  return { signerSetIndex, signatures, body, timestamp, emitterChain, emitter, sequence, payload };
}

/** The number of signatures a set of `size` signers needs, as Pyth's receivers compute it. */
export function quorumOf(size: number, quorum: PythSignerSet['quorum']): number {
  return quorum === 'half'
    ? Math.floor(size / 2) + 1
    : Math.floor((Math.floor((size * 10) / 3) * 2) / 10) + 1;
}

/** The Ethereum-style address (hex) of the key that produced `signature` over `digest`. */
function recoverAddress(digest: Uint8Array, signature: PythVaaSignature): string {
  const point = new secp256k1.Signature(
    signature.r,
    signature.s,
    signature.recovery,
  ).recoverPublicKey(digest);
  return bytesToHex(keccak_256(point.toBytes(false).subarray(1)).subarray(12));
}

/** Checks the VAA's signatures against `set`: ascending signer indexes, each a valid signature by that signer, a quorum of them. */
export function verifyVaaSignatures(vaa: PythVaa, set: PythSignerSet): PythProofFailure | null {
  if (set.addresses.length === 0) return 'unknown_signer_set';
  if (vaa.signatures.length < quorumOf(set.addresses.length, set.quorum)) return 'no_quorum';
  const digest = keccak_256(keccak_256(vaa.body));
  let last = -1;
  for (const signature of vaa.signatures) {
    // Ascending indexes mean no signer is counted twice toward the quorum.
    if (signature.signerIndex <= last) return 'signer_indexes_not_ascending';
    last = signature.signerIndex;
    const expected = set.addresses[signature.signerIndex];
    // Recovery ids 2 and 3 are never produced in practice and ecrecover refuses them too.
    if (expected === undefined || signature.recovery > 1) return 'bad_signature';
    let recovered: string;
    try {
      recovered = recoverAddress(digest, signature);
    } catch {
      return 'bad_signature';
    }
    if (recovered !== expected.toLowerCase()) return 'bad_signature';
  }
  return null;
}

function merkleHash(...parts: (Uint8Array | number)[]): Uint8Array {
  const length = parts.reduce<number>(
    (sum, part) => sum + (typeof part === 'number' ? 1 : part.length),
    0,
  );
  const input = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    if (typeof part === 'number') input[offset++] = part;
    else {
      input.set(part, offset);
      offset += part.length;
    }
  }
  return keccak_256(input).subarray(0, HASH_BYTES);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return a.length - b.length;
}

/** The root a message and its proof lead to. */
export function merkleRootOf(message: Uint8Array, proof: readonly Uint8Array[]): Uint8Array {
  let digest = merkleHash(MERKLE_LEAF_PREFIX, message);
  for (const sibling of proof) {
    const [low, high] = compareBytes(digest, sibling) <= 0 ? [digest, sibling] : [sibling, digest];
    digest = merkleHash(MERKLE_NODE_PREFIX, low, high);
  }
  return digest;
}

/** The Merkle root a Pyth VAA payload commits to. */
export function parseMerklePayload(payload: Uint8Array): { slot: bigint; root: Uint8Array } {
  try {
    const reader = new Reader(payload);
    if (reader.u32() !== WORMHOLE_MERKLE_MAGIC || reader.u8() !== UPDATE_TYPE_WORMHOLE_MERKLE)
      throw new ProofError('bad_payload');
    const slot = reader.u64();
    reader.u32(); // ring size
    // Later fields may follow the root; they are not part of what is checked.
    return { slot, root: reader.take(HASH_BYTES) };
  } catch {
    throw new ProofError('bad_payload');
  }
}

/** Decodes a price message (type 0); other message types (TWAP) are null. */
export function parsePriceMessage(message: Uint8Array): PythPriceMessage | null {
  const reader = new Reader(message);
  if (reader.u8() !== MESSAGE_TYPE_PRICE_FEED) return null;
  return {
    feedId: bytesToHex(reader.take(32)),
    price: reader.i64(),
    conf: reader.u64(),
    expo: reader.i32(),
    publishTime: Number(reader.i64()),
    prevPublishTime: Number(reader.i64()),
    emaPrice: reader.i64(),
    emaConf: reader.u64(),
  };
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

/** A feed id or update as Hermes spells it (hex, with or without 0x), normalized to lowercase hex without 0x. */
export function normalizeHex(text: string): string {
  return (text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text).toLowerCase();
}

function toBytes(update: Uint8Array | string): Uint8Array {
  if (typeof update !== 'string') return update;
  const hex = normalizeHex(update);
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/.test(hex)) throw new ProofError('malformed');
  return hexToBytes(hex);
}

function signerSetFor(trust: PythTrust, vaa: PythVaa): PythSignerSet | PythProofFailure {
  const set = trust.signerSets.find((candidate) => candidate.index === vaa.signerSetIndex);
  if (!set) return 'unknown_signer_set';
  if (set.validUntilS !== undefined && vaa.timestamp > set.validUntilS) return 'signer_set_expired';
  return set;
}

function verify(bytes: Uint8Array, feedId: string, trusts: readonly PythTrust[]): PythProofResult {
  if (bytes.length > MAX_PYTH_UPDATE_BYTES) return { ok: false, reason: 'malformed' };
  const update = parseAccumulatorUpdate(bytes);
  const vaa = parseVaa(update.vaa);
  const trust = trusts.find((candidate) =>
    candidate.dataSources.some(
      (source) => source.chain === vaa.emitterChain && normalizeHex(source.emitter) === vaa.emitter,
    ),
  );
  if (!trust) return { ok: false, reason: 'unknown_emitter' };
  const set = signerSetFor(trust, vaa);
  if (typeof set === 'string') return { ok: false, reason: set };
  const failure = verifyVaaSignatures(vaa, set);
  if (failure) return { ok: false, reason: failure };
  const { slot, root } = parseMerklePayload(vaa.payload);
  const wanted = normalizeHex(feedId);
  for (const { message, proof } of update.updates) {
    const price = parsePriceMessage(message);
    if (price?.feedId !== wanted) continue;
    if (compareBytes(merkleRootOf(message, proof), root) !== 0)
      return { ok: false, reason: 'bad_merkle_proof' };
    return {
      ok: true,
      ...price,
      source: trust.name,
      signedBy: set.index,
      signatures: vaa.signatures.length,
      vaaTimestamp: vaa.timestamp,
      slot,
    };
  }
  return { ok: false, reason: 'feed_not_in_update' };
}

/**
 * Verifies a signed Pyth update for one feed: the VAA is signed by a quorum of a trusted
 * signer set, comes from a trusted emitter, and its Merkle root proves the feed's price
 * message. Returns the proven price or why not; never throws on bad input.
 */
export function verifyPythUpdate(
  update: Uint8Array | string,
  feedId: string,
  trusts: readonly PythTrust[] = PYTH_TRUSTS,
): PythProofResult {
  try {
    return verify(toBytes(update), feedId, trusts);
  } catch (error) {
    if (error instanceof ProofError) return { ok: false, reason: error.reason };
    return { ok: false, reason: 'malformed' };
  }
}

/** Exponents Pyth's feeds use lie well inside this; anything beyond is refused, not computed (10n ** 2^31 would hang). */
export const MAX_PYTH_EXPO = 32;

function assertExpo(expo: number): void {
  if (!Number.isInteger(expo) || Math.abs(expo) > MAX_PYTH_EXPO)
    throw new RangeError(`Pyth exponent out of range: ${expo}`);
}

/**
 * A Pyth mantissa and exponent (`price × 10^expo`) as an integer at `scale` decimals,
 * exactly: digits beyond the scale are rounded half away from zero. Never through a float.
 * Throws a RangeError for an exponent beyond ±MAX_PYTH_EXPO.
 */
export function scalePythPrice(mantissa: bigint, expo: number, scale: number): bigint {
  assertExpo(expo);
  const shift = expo + scale;
  if (shift >= 0) return mantissa * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  const quotient = mantissa / divisor;
  const remainder = mantissa % divisor;
  const negative = mantissa < 0n;
  const twice = (negative ? -remainder : remainder) * 2n;
  if (twice < divisor) return quotient;
  return negative ? quotient - 1n : quotient + 1n;
}

/** A Pyth mantissa and exponent as a plain decimal string, e.g. (6163260000000n, -8) → "61632.6". */
export function formatPythPrice(mantissa: bigint, expo: number): string {
  assertExpo(expo);
  const negative = mantissa < 0n;
  const digits = (negative ? -mantissa : mantissa).toString();
  if (expo >= 0) return `${negative ? '-' : ''}${digits}${'0'.repeat(expo)}`;
  const places = -expo;
  const padded = digits.padStart(places + 1, '0');
  const whole = padded.slice(0, padded.length - places);
  const fraction = padded.slice(padded.length - places).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
