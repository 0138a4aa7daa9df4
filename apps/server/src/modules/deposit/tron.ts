import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { createBase58check } from '@scure/base';

/**
 * TRON addresses and HD derivation. The server only ever holds the account-level
 * extended public key (m/44'/195'/0'); user addresses are its non-hardened children
 * m/44'/195'/0'/0/i. Whoever holds the mnemonic sweeps the funds; the server never can.
 */

/**
 * The demo key, shipped for demo mode only. It is the account xpub at m/44'/195'/0' of
 * the BIP39 test mnemonic "abandon abandon abandon abandon abandon abandon abandon
 * abandon abandon abandon abandon about" with an empty passphrase (seed 5eb00bbd…e9e38e4).
 * Verify: derive that path from the mnemonic with any BIP32 tool. Its first address,
 * m/44'/195'/0'/0/0, is TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH. Everyone knows this mnemonic,
 * so nothing real may ever be sent to these addresses: they are used only with the
 * simulated chain, never with a real one.
 */
export const DEMO_TRON_XPUB =
  'xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd';

/** TRON mainnet addresses start with the byte 0x41 (base58 "T…"). */
export const TRON_ADDRESS_PREFIX = 0x41;

/** Non-hardened child indexes are 0 … 2^31 − 1. */
export const MAX_DERIVATION_INDEX = 0x7fff_ffff;

const base58check = createBase58check(sha256);

/** Address of a secp256k1 public key: 0x41 + last 20 bytes of keccak256(uncompressed key without 0x04), base58check. */
export function tronAddressFromPublicKey(publicKey: Uint8Array): string {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  const hash = keccak_256(uncompressed.subarray(1));
  const payload = new Uint8Array(21);
  payload[0] = TRON_ADDRESS_PREFIX;
  payload.set(hash.subarray(12), 1);
  return base58check.encode(payload);
}

/** The 21 address bytes, or undefined when the checksum, length or prefix is wrong. */
export function decodeTronAddress(address: string): Uint8Array | undefined {
  try {
    const bytes = base58check.decode(address);
    return bytes.length === 21 && bytes[0] === TRON_ADDRESS_PREFIX ? bytes : undefined;
  } catch {
    return undefined;
  }
}

export function isTronAddress(address: string): boolean {
  return decodeTronAddress(address) !== undefined;
}

/** "41…" hex form (42 characters), as the TRON HTTP API writes addresses. */
export function tronAddressToHex(address: string): string {
  const bytes = decodeTronAddress(address);
  if (!bytes) throw new Error(`not a TRON address: ${address}`);
  return bytesToHex(bytes);
}

/** Base58 form of a "41…" hex address (or of the 20-byte hex an EVM log carries). */
export function tronAddressFromHex(hex: string): string {
  const clean = hex.toLowerCase().replace(/^0x/, '');
  const full = clean.length === 40 ? `41${clean}` : clean;
  if (!/^41[0-9a-f]{40}$/.test(full)) throw new Error(`not a TRON hex address: ${hex}`);
  return base58check.encode(hexToBytes(full));
}

/** The external chain (…/0) of an account xpub, parsed once per key. */
const externalChains = new Map<string, HDKey>();

function externalChain(accountXpub: string): HDKey {
  let node = externalChains.get(accountXpub);
  if (!node) {
    const account = HDKey.fromExtendedKey(accountXpub);
    if (account.privateKey)
      throw new Error('refusing a private extended key: configure the xpub only');
    if (account.depth !== 3)
      throw new Error(
        `expected the account xpub (depth 3, m/44'/195'/0'), got depth ${account.depth}`,
      );
    node = account.deriveChild(0);
    externalChains.set(accountXpub, node);
  }
  return node;
}

/** m/44'/195'/0'/0/index from the account xpub m/44'/195'/0' (public derivation). */
export function deriveTronAddress(accountXpub: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > MAX_DERIVATION_INDEX)
    throw new Error(`derivation index out of range: ${index}`);
  const child = externalChain(accountXpub).deriveChild(index);
  if (!child.publicKey) throw new Error('derived key has no public key');
  return tronAddressFromPublicKey(child.publicKey);
}

/** The key's own BIP32 fingerprint (8 hex digits), recorded with each address. */
export function xpubFingerprint(accountXpub: string): string {
  return HDKey.fromExtendedKey(accountXpub).fingerprint.toString(16).padStart(8, '0');
}
