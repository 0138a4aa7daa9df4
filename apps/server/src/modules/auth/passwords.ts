import { type Algorithm, hash } from '@node-rs/argon2';

/**
 * Password hashing, for users' sign-in and money passwords and for operators: a leaf every
 * module that stores a password imports, apart from the sign-in flows in service.ts.
 */

/** The package's const enum cannot be read under verbatimModuleSyntax; 2 is its Argon2id. */
const ARGON2ID = 2 as Algorithm.Argon2id;
/** argon2id with OWASP's minimum (19 MiB, 2 passes). */
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** Verified against when the account does not exist, so a wrong address costs as long as a wrong password. */
export const DUMMY_HASH = await hash('tradewind-dummy-password', ARGON2_OPTIONS);

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}
