import * as z from 'zod/mini';

/**
 * Product switches (issue 32): an operator can turn a product off. Its entries then say the
 * feature is under development and the server refuses new actions of it; what users already
 * hold (open loans, running rentals, IEO commitments) still settles. A module of its own: Home
 * reads it on the first screen, without the console's contract.
 */
export const PRODUCTS = ['loans', 'mining', 'ieo', 'shop'] as const;
export type Product = (typeof PRODUCTS)[number];

/** GET /api/v1/products: which products are on. */
export const productSwitchesSchema = z.object({
  loans: z.boolean(),
  mining: z.boolean(),
  ieo: z.boolean(),
  shop: z.boolean(),
});
export type ProductSwitches = z.infer<typeof productSwitchesSchema>;
