import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { operators } from '../operator/tables.ts';
import { users } from '../user/tables.ts';

/** A user's delivery addresses (issue 32); a deleted one keeps its row for the orders that used it. */
export const deliveryAddresses = pgTable(
  'delivery_addresses',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    region: text('region').notNull(),
    address: text('address').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('delivery_addresses_user_idx').on(t.userId, t.id)],
);

/**
 * A points-shop order. The points it cost are a negative points event written in the same
 * transaction; a reward item's payout is a ledger entry from the reward budget. A physical
 * item copies the address as it was, and waits for an operator to ship it.
 */
export const shopOrders = pgTable(
  'shop_orders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    item: text('item').notNull(),
    kind: text('kind').notNull(),
    pointsCost: integer('points_cost').notNull(),
    pointsEventId: bigint('points_event_id', { mode: 'number' }).notNull(),
    entryId: bigint('entry_id', { mode: 'number' }),
    status: text('status').notNull(),
    addressId: bigint('address_id', { mode: 'number' }).references(() => deliveryAddresses.id),
    recipientName: text('recipient_name'),
    recipientPhone: text('recipient_phone'),
    region: text('region'),
    address: text('address'),
    trackingNote: text('tracking_note'),
    shippedBy: bigint('shipped_by', { mode: 'number' }).references(() => operators.id),
    shippedAt: timestamp('shipped_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('shop_orders_user_idx').on(t.userId, t.id),
    index('shop_orders_status_idx').on(t.status, t.id),
    check('shop_orders_status', sql`${t.status} in ('completed', 'awaiting_shipment', 'shipped')`),
    check('shop_orders_kind', sql`${t.kind} in ('reward', 'physical')`),
    check('shop_orders_cost', sql`${t.pointsCost} > 0`),
    // A reward item is paid by one ledger entry; a physical one goes to an address.
    check(
      'shop_orders_shape',
      sql`case when ${t.kind} = 'reward' then ${t.entryId} is not null and ${t.status} = 'completed' else ${t.address} is not null and ${t.status} <> 'completed' end`,
    ),
    check(
      'shop_orders_shipped',
      sql`(${t.status} = 'shipped') = (${t.shippedAt} is not null and ${t.trackingNote} is not null)`,
    ),
  ],
);

export type ShopOrderRow = typeof shopOrders.$inferSelect;
export type DeliveryAddressRow = typeof deliveryAddresses.$inferSelect;
