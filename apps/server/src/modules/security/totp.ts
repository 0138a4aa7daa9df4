import crypto from 'node:crypto';
import { TOTP_DIGITS, TOTP_STEP_S } from '@tradewind/contract/security';

/** RFC 6238 TOTP (HMAC-SHA-1, RFC 4226 truncation) with node:crypto; RFC 4648 base32 for the secret. */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 4226 HOTP: the dynamic truncation of HMAC-SHA-1(key, counter). */
export function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = crypto.createHmac('sha1', key).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0xf;
  const binary =
    (((mac[offset] ?? 0) & 0x7f) << 24) |
    ((mac[offset + 1] ?? 0) << 16) |
    ((mac[offset + 2] ?? 0) << 8) |
    (mac[offset + 3] ?? 0);
  return String(binary % 10 ** digits).padStart(digits, '0');
}

export const totpStep = (nowMs: number) => Math.floor(nowMs / 1000 / TOTP_STEP_S);

export function totp(secretBase32: string, nowMs: number): string {
  return hotp(base32Decode(secretBase32), totpStep(nowMs));
}

/**
 * The step a code belongs to, looking one step either side of now (a phone clock 30 s off
 * still works), or undefined. Compared in constant time.
 */
export function matchTotp(secretBase32: string, code: string, nowMs: number): number | undefined {
  const key = base32Decode(secretBase32);
  const now = totpStep(nowMs);
  let found: number | undefined;
  for (const step of [now - 1, now, now + 1]) {
    const expected = Buffer.from(hotp(key, step));
    const given = Buffer.from(code.padEnd(expected.length, ' ').slice(0, expected.length));
    if (crypto.timingSafeEqual(expected, given) && code.length === expected.length) found ??= step;
  }
  return found;
}

/** 160 random bits, the RFC 4226 recommended key length. */
export function newTotpSecret(): string {
  return base32Encode(crypto.randomBytes(20));
}

export function otpauthUri(secret: string, account: string, issuer = 'Tradewind'): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const params = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_S),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}
