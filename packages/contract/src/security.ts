import * as z from 'zod/mini';
import { codeSchema, sessionResponseSchema } from './auth-basics.ts';

/**
 * Security centre (/Security): signed-in devices, sign-in history, TOTP two-factor,
 * the anti-phishing code and the 24 h withdrawal lock after a credential change.
 */

/** RFC 6238 defaults, which every authenticator app reads: SHA-1, 6 digits, 30 s steps. */
export const TOTP_STEP_S = 30;
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
/** After the password changes or two-factor is switched on or off, withdrawals wait this long. */
export const WITHDRAWAL_LOCK_MS = 24 * 3_600_000;
export const SIGN_IN_HISTORY_LIMIT = 50;
export const ANTI_PHISHING_MIN_LENGTH = 4;
export const ANTI_PHISHING_MAX_LENGTH = 20;

/** Recovery codes: two groups of five lower-case base32 letters and digits, "abcde-23456". */
export const RECOVERY_CODE_PATTERN = /^[a-z2-7]{5}-[a-z2-7]{5}$/;

/** A code the user types: the 6 digits of their app, or one of their recovery codes. */
export const secondFactorSchema = z
  .pipe(
    z.string({ error: 'validation.required' }).check(z.trim(), z.toLowerCase()),
    z.transform((value) =>
      value.includes('-') ? value.replace(/0/g, 'o').replace(/1/g, 'l') : value,
    ),
  )
  .check(
    z.refine((value) => /^\d{6}$/.test(value) || RECOVERY_CODE_PATTERN.test(value), {
      error: 'validation.two_factor_format',
    }),
  );

/** Where an IP address is, without asking anyone: the coarse hint the device list shows. */
export const NETWORK_KINDS = ['loopback', 'private', 'public', 'unknown'] as const;
export type NetworkKind = (typeof NETWORK_KINDS)[number];

function ipv4Parts(ip: string): number[] | undefined {
  const parts = ip.split('.').map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255)
    ? parts
    : undefined;
}

/**
 * A coarse, honest hint from the address alone: loopback, a private (local) network, or
 * the public prefix (/24 for IPv4, /48 for IPv6). No geolocation database is consulted,
 * so no city or country is claimed.
 */
export function networkHint(rawIp: string): { kind: NetworkKind; prefix: string } {
  const ip = rawIp.replace(/^::ffff:/i, '');
  const v4 = ipv4Parts(ip);
  if (v4) {
    const [a = 0, b = 0, c = 0] = v4;
    const prefix = `${a}.${b}.${c}.0/24`;
    if (a === 127) return { kind: 'loopback', prefix };
    if (
      a === 10 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    ) {
      return { kind: 'private', prefix };
    }
    return { kind: 'public', prefix };
  }
  if (ip.includes(':')) {
    const lower = ip.toLowerCase();
    if (lower === '::1') return { kind: 'loopback', prefix: '::1/128' };
    const head = lower.split('::')[0] ?? '';
    const groups = head.split(':').filter(Boolean);
    const prefix = `${[...groups, '0', '0', '0'].slice(0, 3).join(':')}::/48`;
    if (/^f[cd]/.test(lower) || /^fe[89ab]/.test(lower)) return { kind: 'private', prefix };
    return { kind: 'public', prefix };
  }
  return { kind: 'unknown', prefix: '' };
}

const networkSchema = z.object({ kind: z.enum(NETWORK_KINDS), prefix: z.string() });

export const securitySessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  ip: z.string(),
  network: networkSchema,
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime(),
  current: z.boolean(),
});
export type SecuritySession = z.infer<typeof securitySessionSchema>;

export const SIGN_IN_RESULTS = [
  'success',
  'wrong_password',
  'wrong_code',
  'frozen',
  'awaiting_code',
] as const;
export type SignInResult = (typeof SIGN_IN_RESULTS)[number];

export const signInEventSchema = z.object({
  id: z.string(),
  result: z.enum(SIGN_IN_RESULTS),
  /** How the second step was passed, when there was one. */
  method: z.enum(['password', 'totp', 'recovery_code']),
  device: z.string(),
  ip: z.string(),
  network: networkSchema,
  at: z.iso.datetime(),
});
export type SignInEvent = z.infer<typeof signInEventSchema>;

export const WITHDRAWAL_LOCK_REASONS = [
  'password_changed',
  'password_reset',
  'two_factor_enabled',
  'two_factor_disabled',
] as const;
export type WithdrawalLockReason = (typeof WITHDRAWAL_LOCK_REASONS)[number];

export const withdrawalLockSchema = z.nullable(
  z.object({ until: z.iso.datetime(), reason: z.enum(WITHDRAWAL_LOCK_REASONS) }),
);
export type WithdrawalLock = z.infer<typeof withdrawalLockSchema>;

export const securityOverviewSchema = z.object({
  twoFactorEnabled: z.boolean(),
  recoveryCodesLeft: z.number().check(z.int()),
  antiPhishingCode: z.nullable(z.string()),
  withdrawalLock: withdrawalLockSchema,
  withdrawPasswordSet: z.boolean(),
  tradePasswordSet: z.boolean(),
  sessions: z.array(securitySessionSchema),
  signIns: z.array(signInEventSchema),
});
export type SecurityOverview = z.infer<typeof securityOverviewSchema>;

export const revokeOthersResponseSchema = z.object({ revoked: z.number().check(z.int()) });

/** Enrolment, step 1: a new secret, shown once as text and as an otpauth:// URI for the QR. */
export const twoFactorSetupSchema = z.object({ secret: z.string(), uri: z.string() });
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** Enrolment, step 2: a code from the app proves it holds the secret. */
export const twoFactorEnableRequestSchema = z.strictObject({ code: codeSchema });
export const twoFactorEnableResponseSchema = z.object({
  recoveryCodes: z.array(z.string()),
  withdrawalLock: withdrawalLockSchema,
});

export const twoFactorDisableRequestSchema = z.strictObject({ code: secondFactorSchema });

export const antiPhishingRequestSchema = z.strictObject({
  code: z.union([
    z
      .string({ error: 'validation.required' })
      .check(
        z.trim(),
        z.regex(
          new RegExp(`^[A-Za-z0-9]{${ANTI_PHISHING_MIN_LENGTH},${ANTI_PHISHING_MAX_LENGTH}}$`),
          { error: 'validation.anti_phishing_format' },
        ),
      ),
    z.literal(''),
  ]),
});
export type AntiPhishingRequest = z.infer<typeof antiPhishingRequestSchema>;

/** Sign-in, step 2 (when two-factor is on): the challenge the password step returned and a code. */
export const loginChallengeSchema = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z.string(),
  expiresAt: z.iso.datetime(),
});
export type LoginChallenge = z.infer<typeof loginChallengeSchema>;

export const loginSecondStepRequestSchema = z.strictObject({
  challenge: z
    .string({ error: 'validation.required' })
    .check(z.regex(/^[A-Za-z0-9_-]{43}$/, { error: 'validation.invalid_value' })),
  code: secondFactorSchema,
});
export type LoginSecondStepRequest = z.infer<typeof loginSecondStepRequestSchema>;

/** What the password step answers: a session, or (two-factor on) a challenge for step 2. */
export const loginResponseSchema = z.union([sessionResponseSchema, loginChallengeSchema]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;
