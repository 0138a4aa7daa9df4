import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  type AddressProblem,
  type WithdrawalNetwork,
  checkAddress,
  toChecksumAddress,
} from '../src/withdrawal-address.ts';
import { cryptoWithdrawalRequestSchema } from '../src/withdrawal.ts';

const base58check = createBase58check(sha256);

/** Vectors from TRON's docs, BIP 173 / BIP 350, and EIP-55. */
const VALID: [WithdrawalNetwork, string][] = [
  ['TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
  ['TRC20', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'],
  ['TRC20', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb'],
  ['BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
  ['BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ['BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
  ['BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  ['BTC', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4'],
  ['BTC', 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3'],
  ['BTC', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
  ['BTC', 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y'],
  ['BTC', 'BC1SW50QGDZ25J'],
  ['BTC', 'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs'],
  ['ETH', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
  ['ETH', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'],
  ['ETH', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB'],
  ['ETH', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb'],
  ['ETH', '0x52908400098527886e0f7030069857d2e4169ee7'],
  ['ETH', '0x52908400098527886E0F7030069857D2E4169EE7'],
];

const INVALID: [WithdrawalNetwork, string, AddressProblem][] = [
  // TRON
  ['TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', 'checksum'],
  ['TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6', 'format'],
  ['TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj60', 'format'],
  ['TRC20', 'tr7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'format'],
  ['TRC20', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'network'],
  ['TRC20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'network'],
  ['TRC20', '', 'format'],
  // A correct base58check string that starts with T but carries version 0x42, not TRON's 0x41.
  ['TRC20', base58check.encode(Uint8Array.from([0x42, ...new Array(20).fill(7)])), 'format'],
  // Bitcoin base58
  ['BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', 'checksum'],
  ['BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz', 'checksum'],
  ['BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN0', 'format'],
  ['BTC', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'format'],
  ['BTC', '2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc', 'format'],
  // Bitcoin segwit
  ['BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'checksum'],
  ['BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kV8f3t4', 'format'],
  ['BTC', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'format'],
  ['BTC', 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx', 'checksum'],
  ['BTC', 'bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du', 'format'],
  ['BTC', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav', 'format'],
  ['BTC', 'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'format'],
  ['BTC', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'network'],
  ['BTC', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'network'],
  // Ethereum
  ['ETH', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'checksum'],
  ['ETH', '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'checksum'],
  ['ETH', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'format'],
  ['ETH', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA', 'format'],
  ['ETH', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd', 'format'],
  ['ETH', '0xZaAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'format'],
  ['ETH', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'network'],
  ['ETH', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'network'],
  ['ETH', `0x${'a'.repeat(200)}`, 'format'],
];

describe('receiving addresses', () => {
  it.each(VALID)('%s accepts %s', (network, address) => {
    expect(checkAddress(network, address)).toEqual({ ok: true });
  });

  it.each(INVALID)('%s refuses %s (%s)', (network, address, problem) => {
    expect(checkAddress(network, address)).toEqual({ ok: false, problem });
  });

  it('EIP-55 spells the checksum from keccak-256 of the lower-case hex', () => {
    expect(toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
    expect(toChecksumAddress('0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359')).toBe(
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    );
  });
});

describe('the withdrawal request schema', () => {
  const base = {
    asset: 'USDT',
    network: 'TRC20',
    address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    amount: '10',
    password: '480316',
  };
  const messages = (value: unknown) => {
    const result = cryptoWithdrawalRequestSchema.safeParse(value);
    return result.success
      ? []
      : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('accepts a valid request and trims the address', () => {
    expect(messages({ ...base, address: `  ${base.address} ` })).toEqual([]);
    expect(
      cryptoWithdrawalRequestSchema.parse({ ...base, address: ` ${base.address}` }).address,
    ).toBe(base.address);
  });

  it('explains a refused address with the problem', () => {
    expect(messages({ ...base, address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u' })).toEqual([
      'address: validation.address_checksum',
    ]);
    expect(messages({ ...base, address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })).toEqual([
      'address: validation.address_wrong_network',
    ]);
    expect(messages({ ...base, address: 'hello' })).toEqual([
      'address: validation.address_invalid',
    ]);
  });

  it('USDT leaves on TRC20 only; BTC and ETH on their own chains', () => {
    expect(messages({ ...base, network: 'ETH' })).toEqual([
      'network: validation.network_unsupported',
    ]);
    expect(messages({ ...base, asset: 'BTC', network: 'TRC20' })).toEqual([
      'network: validation.network_unsupported',
    ]);
    expect(
      messages({
        ...base,
        asset: 'ETH',
        network: 'ETH',
        address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      }),
    ).toEqual([]);
    expect(messages({ ...base, asset: 'DOGE' })).toEqual(['asset: validation.invalid_value']);
  });

  it('the password is 6 digits', () => {
    expect(messages({ ...base, password: '12345' })).toEqual([
      'password: validation.money_password_format',
    ]);
    expect(messages({ ...base, password: '' })).toEqual(['password: validation.required']);
  });
});
