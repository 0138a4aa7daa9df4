import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, bech32m, createBase58check } from '@scure/base';

/**
 * Receiving-address checks per withdrawal network, shared by the server (which refuses)
 * and the web form (which explains before sending). Only mainnet addresses are accepted:
 * a testnet address would lose the funds as surely as a typo.
 */

export const WITHDRAWAL_NETWORKS = ['TRC20', 'BTC', 'ETH'] as const;
export type WithdrawalNetwork = (typeof WITHDRAWAL_NETWORKS)[number];

/** Why an address was refused: unreadable, a checksum that does not match (a typo), or an address of another network. */
export type AddressProblem = 'format' | 'checksum' | 'network';

export type AddressCheck = { ok: true } | { ok: false; problem: AddressProblem };

/** Longer than any address of these networks (bech32 caps at 90). */
export const ADDRESS_MAX_LENGTH = 100;

const base58check = createBase58check(sha256);
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** The 21-byte payload (version byte + 20-byte hash) of a base58check string, or why it has none. */
function base58Payload(address: string): Uint8Array | 'format' | 'checksum' {
  if (!BASE58.test(address)) return 'format';
  try {
    return base58check.decode(address);
  } catch (error) {
    // The characters are base58, so an undecodable string failed its 4-byte checksum.
    return error instanceof Error && /checksum/i.test(error.message) ? 'checksum' : 'format';
  }
}

/** TRON: base58check of 0x41 followed by the 20-byte account hash ("T…", 34 characters). */
function checkTron(address: string): AddressCheck {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return { ok: false, problem: 'format' };
  const payload = base58Payload(address);
  if (typeof payload === 'string') return { ok: false, problem: payload };
  if (payload.length !== 21 || payload[0] !== 0x41) return { ok: false, problem: 'format' };
  return { ok: true };
}

/** Bitcoin mainnet: P2PKH (version 0x00, "1…") or P2SH (0x05, "3…") in base58check. */
function checkBtcBase58(address: string): AddressCheck {
  if (!/^[13][1-9A-HJ-NP-Za-km-z]{24,33}$/.test(address)) return { ok: false, problem: 'format' };
  const payload = base58Payload(address);
  if (typeof payload === 'string') return { ok: false, problem: payload };
  if (payload.length !== 21 || (payload[0] !== 0x00 && payload[0] !== 0x05))
    return { ok: false, problem: 'format' };
  return { ok: true };
}

/**
 * Bitcoin mainnet segwit (BIP 173 / BIP 350): "bc1…", one case throughout, witness version
 * 0 in bech32 with a 20- or 32-byte program, versions 1–16 in bech32m with 2–40 bytes.
 */
function checkBtcSegwit(address: string): AddressCheck {
  if (address !== address.toLowerCase() && address !== address.toUpperCase())
    return { ok: false, problem: 'format' };
  const lower = address.toLowerCase();
  if (!/^bc1[02-9ac-hj-np-z]{8,87}$/.test(lower)) return { ok: false, problem: 'format' };
  for (const [coder, isBech32m] of [
    [bech32, false],
    [bech32m, true],
  ] as const) {
    const decoded = coder.decodeUnsafe(lower, 90);
    if (!decoded || decoded.prefix !== 'bc' || decoded.words.length === 0) continue;
    const [version = -1, ...rest] = decoded.words;
    const program = coder.fromWordsUnsafe(rest);
    if (!program || version > 16) return { ok: false, problem: 'format' };
    // Version 0 must be bech32, every later version bech32m: the wrong one is a corrupted address.
    if ((version === 0) === isBech32m) return { ok: false, problem: 'checksum' };
    if (version === 0 && program.length !== 20 && program.length !== 32)
      return { ok: false, problem: 'format' };
    if (program.length < 2 || program.length > 40) return { ok: false, problem: 'format' };
    return { ok: true };
  }
  return { ok: false, problem: 'checksum' };
}

function checkBtc(address: string): AddressCheck {
  return /^bc1/i.test(address) ? checkBtcSegwit(address) : checkBtcBase58(address);
}

const HEX_40 = /^0x[0-9a-fA-F]{40}$/;

/** The EIP-55 spelling of a 20-byte hex address: a letter is upper case where the keccak-256 nibble of the lower-case hex is ≥ 8. */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    const byte = hash[i >> 1] as number;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    const char = hex[i] as string;
    out += nibble >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

/** Ethereum: "0x" + 40 hex digits; mixed case must be the EIP-55 checksum, one case carries none. */
function checkEth(address: string): AddressCheck {
  if (!HEX_40.test(address)) return { ok: false, problem: 'format' };
  const digits = address.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return { ok: true };
  return toChecksumAddress(address) === address ? { ok: true } : { ok: false, problem: 'checksum' };
}

const CHECKS: Record<WithdrawalNetwork, (address: string) => AddressCheck> = {
  TRC20: checkTron,
  BTC: checkBtc,
  ETH: checkEth,
};

/**
 * Checks a receiving address for a network. An address that is valid on one of the
 * other networks is reported as `network`, so the user is told to check the network
 * rather than the address.
 */
export function checkAddress(network: WithdrawalNetwork, address: string): AddressCheck {
  if (address.length === 0 || address.length > ADDRESS_MAX_LENGTH)
    return { ok: false, problem: 'format' };
  const result = CHECKS[network](address);
  if (result.ok || result.problem === 'checksum') return result;
  const elsewhere = WITHDRAWAL_NETWORKS.some(
    (other) => other !== network && CHECKS[other](address).ok,
  );
  return elsewhere ? { ok: false, problem: 'network' } : result;
}

/** The i18n key (`validation.*`) that explains a refused address. */
export const ADDRESS_PROBLEM_MESSAGES: Record<AddressProblem, string> = {
  format: 'validation.address_invalid',
  checksum: 'validation.address_checksum',
  network: 'validation.address_wrong_network',
};
