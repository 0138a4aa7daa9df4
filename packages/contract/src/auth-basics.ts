import { z } from 'zod';

/**
 * The parts of the sign-in schemas that other schemas share (money passwords, withdrawals),
 * apart from auth.ts so that those do not carry the phone-number metadata auth.ts needs: a
 * page that only asks for a code does not download it.
 */

export const CHANNELS = ['email', 'phone'] as const;
export type Channel = (typeof CHANNELS)[number];

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const CODE_LENGTH = 6;

export const codeSchema = z
  .string({ error: 'validation.required' })
  .regex(/^\d{6}$/, { error: 'validation.code_format' });
