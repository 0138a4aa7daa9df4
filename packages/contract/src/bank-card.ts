import * as z from 'zod/mini';
import { idSchema } from './ids.ts';

/** Bank cards a user links for card withdrawals (spec §3 Bank card; /Card, /AddCard). */

export const BANK_CARD_MAX = 5;

/** Ids travel as decimal strings (ids.ts); here too, where the other modules once found it. */
export { idSchema };

const text = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.required', abort: true }),
      z.maxLength(max, { error: 'validation.too_long', abort: true }),
      z.regex(/^[^<>{}\\\p{Cc}]+$/u, { error: 'validation.invalid_format' }),
    );

/** Spaces and hyphens people type to group digits are dropped; letters are allowed for IBAN-style numbers. */
export const accountNumberSchema = z.pipe(
  z.pipe(
    z
      .string({ error: 'validation.required' })
      .check(z.maxLength(64, { error: 'validation.too_long', abort: true })),
    z.transform((value) => value.replace(/[\s-]/g, '').toUpperCase()),
  ),
  z
    .string()
    .check(
      z.minLength(1, { error: 'validation.required', abort: true }),
      z.regex(/^(?=(?:.*\d){4})[0-9A-Z]{6,34}$/, { error: 'validation.account_number_format' }),
    ),
);

export const addBankCardRequestSchema = z.strictObject({
  bankName: text(80),
  accountNumber: accountNumberSchema,
  branchName: text(80),
  /** A sort code, routing number, IFSC, SWIFT/BIC… */
  branchCode: z.pipe(
    z
      .string({ error: 'validation.required' })
      .check(
        z.trim(),
        z.minLength(1, { error: 'validation.required', abort: true }),
        z.regex(/^[A-Za-z0-9-]{2,20}$/, { error: 'validation.branch_code_format' }),
      ),
    z.transform((value) => value.toUpperCase()),
  ),
  /** As on the account: letters in any script, spaces, dots, apostrophes and hyphens. */
  holderName: z
    .string({ error: 'validation.required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.required', abort: true }),
      z.maxLength(80, { error: 'validation.too_long', abort: true }),
      z.regex(/^[\p{L}\p{M}][\p{L}\p{M} .'’-]*$/u, { error: 'validation.holder_name_format' }),
    ),
});
export type AddBankCardRequest = z.infer<typeof addBankCardRequestSchema>;

export const deleteBankCardRequestSchema = z.strictObject({ id: idSchema });

/** "•••• 6789": lists show the last four characters only. */
export function maskAccountNumber(accountNumber: string): string {
  return `•••• ${accountNumber.slice(-4)}`;
}

export const bankCardSchema = z.object({
  id: z.string(),
  bankName: z.string(),
  accountMasked: z.string(),
  branchName: z.string(),
  branchCode: z.string(),
  holderName: z.string(),
  createdAt: z.iso.datetime(),
});
export type BankCard = z.infer<typeof bankCardSchema>;

export const bankCardListSchema = z.object({
  items: z.array(bankCardSchema),
  max: z.number().check(z.int()),
});

/** A name's words, compared without case or width: "MUSTER  demo" → ["muster", "demo"]. */
function nameWords(name: string): string[] {
  return name.normalize('NFKC').toLowerCase().split(/\s+/u).filter(Boolean);
}

/**
 * Whether an account's holder name is the verified identity's (KYC first and last name).
 * Case, spacing and the order of given and family names do not matter ("Demo Muster" is
 * "Muster Demo", "李梅" is "李 梅"); any other difference does, so an account in another
 * person's name is never linked.
 */
export function isHolderNameOf(
  holderName: string,
  identity: { firstName: string; lastName: string },
): boolean {
  const holder = nameWords(holderName);
  const first = nameWords(identity.firstName);
  const last = nameWords(identity.lastName);
  if (holder.length === 0 || first.length + last.length === 0) return false;
  const sorted = (words: string[]) => [...words].sort().join(' ');
  if (sorted(holder) === sorted([...first, ...last])) return true;
  const compact = holder.join('');
  return compact === [...first, ...last].join('') || compact === [...last, ...first].join('');
}
