import { isValidPhoneNumber } from 'libphonenumber-js/min';
import * as z from 'zod/mini';

/**
 * The points shop (issue 32): items bought with points. A reward item pays an asset from the
 * approved reward budget through the ledger; a physical item is shipped to an address from the
 * user's address book. Buying debits points in the same transaction as the order.
 */

export const SHOP_ITEM_IDS = ['usdt_1', 'usdt_5', 'stickers', 'mug', 'tshirt'] as const;
export type ShopItemId = (typeof SHOP_ITEM_IDS)[number];

export type ShopItemDefinition =
  | { kind: 'reward'; pointsCost: number; asset: 'USDT'; amount: string }
  | { kind: 'physical'; pointsCost: number };

export const SHOP_ITEMS: Record<ShopItemId, ShopItemDefinition> = {
  usdt_1: { kind: 'reward', pointsCost: 150, asset: 'USDT', amount: '1' },
  usdt_5: { kind: 'reward', pointsCost: 600, asset: 'USDT', amount: '5' },
  stickers: { kind: 'physical', pointsCost: 150 },
  mug: { kind: 'physical', pointsCost: 800 },
  tshirt: { kind: 'physical', pointsCost: 1500 },
};

/** Addresses one user may keep. */
export const ADDRESS_BOOK_MAX = 10;
/** Shop orders listed at once (the user's, and the console's queue page). */
export const SHOP_ORDERS_PAGE_MAX = 50;

/** Receiving areas (ISO 3166-1 alpha-2); the screens name them in the user's language. */
export const SHIPPING_REGIONS = [
  'AU',
  'AT',
  'BE',
  'BR',
  'CA',
  'CH',
  'CN',
  'DE',
  'ES',
  'FR',
  'GB',
  'HK',
  'ID',
  'IE',
  'IN',
  'IT',
  'JP',
  'KR',
  'MO',
  'MX',
  'MY',
  'NL',
  'NZ',
  'PH',
  'PT',
  'SG',
  'TH',
  'TW',
  'US',
  'VN',
] as const;
export type ShippingRegion = (typeof SHIPPING_REGIONS)[number];

/** A phone in international form (+…), or 6–15 digits as dialled at home. */
export function isValidDeliveryPhone(value: string): boolean {
  const compact = value.replace(/[\s()-]/g, '');
  if (compact.startsWith('+')) return isValidPhoneNumber(compact);
  return /^\d{6,15}$/.test(compact);
}

/** Spec §5: name filled, phone valid, address not empty, a receiving area chosen. */
export const deliveryAddressInputSchema = z.object({
  name: z
    ._default(z.string({ error: 'validation.address_name_required' }), '')
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.address_name_required' }),
      z.maxLength(60, { error: 'validation.too_long' }),
    ),
  phone: z
    ._default(z.string({ error: 'validation.address_phone_invalid' }), '')
    .check(
      z.trim(),
      z.maxLength(24, { error: 'validation.address_phone_invalid' }),
      z.refine(isValidDeliveryPhone, { error: 'validation.address_phone_invalid' }),
    ),
  address: z
    ._default(z.string({ error: 'validation.address_required' }), '')
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.address_required' }),
      z.maxLength(300, { error: 'validation.too_long' }),
    ),
  region: z._default(z.string({ error: 'validation.address_region_required' }), '').check(
    z.refine((value) => (SHIPPING_REGIONS as readonly string[]).includes(value), {
      error: 'validation.address_region_required',
    }),
  ),
});
export type DeliveryAddressInput = z.input<typeof deliveryAddressInputSchema>;

const idSchema = z
  .string({ error: 'validation.required' })
  .check(z.regex(/^\d{1,18}$/, { error: 'validation.invalid_value' }));

export const saveAddressRequestSchema = z.extend(deliveryAddressInputSchema, {
  /** Present to edit that address, absent to add one. */
  id: z.optional(idSchema),
});
export type SaveAddressRequest = z.input<typeof saveAddressRequestSchema>;

export const deleteAddressRequestSchema = z.strictObject({ id: idSchema });

export const deliveryAddressSchema = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.string(),
  region: z.string(),
  address: z.string(),
});
export type DeliveryAddress = z.infer<typeof deliveryAddressSchema>;

export const addressBookSchema = z.object({ items: z.array(deliveryAddressSchema) });
export type AddressBook = z.infer<typeof addressBookSchema>;

export const shopItemSchema = z.object({
  id: z.enum(SHOP_ITEM_IDS),
  kind: z.enum(['reward', 'physical']),
  pointsCost: z.number().check(z.int(), z.positive()),
  /** What a reward item pays; null for physical items. */
  asset: z.nullable(z.string()),
  amount: z.nullable(z.string()),
});
export type ShopItem = z.infer<typeof shopItemSchema>;

export const shopSchema = z.object({
  /** PRODUCT_SHOP_ENABLED: when off the shop shows "under development" and sells nothing. */
  enabled: z.boolean(),
  points: z.number().check(z.int()),
  items: z.array(shopItemSchema),
});
export type Shop = z.infer<typeof shopSchema>;

export const purchaseRequestSchema = z.strictObject({
  item: z.enum(SHOP_ITEM_IDS, { error: 'validation.invalid_value' }),
  /** Required for a physical item: one of the user's addresses. */
  addressId: z.optional(idSchema),
});
export type PurchaseRequest = z.infer<typeof purchaseRequestSchema>;

/** completed: a reward item, paid at once; awaiting_shipment → shipped for physical items. */
export const SHOP_ORDER_STATUSES = ['completed', 'awaiting_shipment', 'shipped'] as const;
export type ShopOrderStatus = (typeof SHOP_ORDER_STATUSES)[number];

export const shopOrderSchema = z.object({
  id: z.string(),
  item: z.enum(SHOP_ITEM_IDS),
  kind: z.enum(['reward', 'physical']),
  pointsCost: z.number().check(z.int()),
  status: z.enum(SHOP_ORDER_STATUSES),
  /** The address as it was when ordered (a later edit of the address book does not move it). */
  address: z.nullable(deliveryAddressSchema),
  trackingNote: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
  shippedAt: z.nullable(z.iso.datetime()),
});
export type ShopOrder = z.infer<typeof shopOrderSchema>;

export const shopOrdersSchema = z.object({ items: z.array(shopOrderSchema) });
export type ShopOrders = z.infer<typeof shopOrdersSchema>;

export const purchaseResultSchema = z.object({
  order: shopOrderSchema,
  points: z.number().check(z.int()),
});
export type PurchaseResult = z.infer<typeof purchaseResultSchema>;

export const adminShopOrdersQuerySchema = z.strictObject({
  status: z._default(
    z.enum(['awaiting_shipment', 'shipped'], { error: 'validation.invalid_value' }),
    'awaiting_shipment',
  ),
});

export const adminShopOrderSchema = z.extend(shopOrderSchema, {
  uid: z.string(),
  shippedBy: z.nullable(z.string()),
});
export type AdminShopOrder = z.infer<typeof adminShopOrderSchema>;
export const adminShopOrdersSchema = z.object({ items: z.array(adminShopOrderSchema) });
export type AdminShopOrders = z.infer<typeof adminShopOrdersSchema>;

export const shipOrderRequestSchema = z.strictObject({
  id: idSchema,
  trackingNote: z
    .string({ error: 'validation.required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.required' }),
      z.maxLength(200, { error: 'validation.too_long' }),
    ),
});
export type ShipOrderRequest = z.infer<typeof shipOrderRequestSchema>;
