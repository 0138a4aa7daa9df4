import * as z from 'zod/mini';

/** Ids travel as decimal strings (spec: no path parameters; ids go in the body or the query). */
export const idSchema = z
  .string({ error: 'validation.required' })
  .check(z.regex(/^[1-9]\d{0,17}$/, { error: 'validation.invalid_value' }));
