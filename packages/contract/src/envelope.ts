import * as z from 'zod/mini';

/**
 * Every reply is `{code, message, data, errors?}` (ARCHITECTURE §7).
 * `code` 0 is success; the others are the numbers in `ERROR_CODES`.
 */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
  errors?: FieldErrors;
}

/** Per-field messages for forms: `{field: [message]}`; nested fields are joined with dots. */
export type FieldErrors = Record<string, string[]>;

export const fieldErrorsSchema = z.record(z.string(), z.array(z.string()));

export function envelopeSchema<T extends z.core.$ZodType>(data: T) {
  return z.object({
    code: z.number().check(z.int()),
    message: z.string(),
    data,
    errors: z.optional(fieldErrorsSchema),
  });
}

export const okSchema = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof okSchema>;
