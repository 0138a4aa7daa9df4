import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  jsonb,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { assets } from '../ledger/tables.ts';
import { users } from '../user/tables.ts';
import type { LocalizedText } from '../vote/tables.ts';

const minor = (name: string) => numeric(name, { precision: 38, scale: 0, mode: 'bigint' });
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Launchpad projects (spec /IEO). The status is not stored: it follows from the clock and
 * from `allocated_at`, `listed_at` and `cancelled_at`, each set once by a guarded update
 * (`… where allocated_at is null …`), which is what makes allocation and listing run once.
 * Quantities are whole tokens; prices are USDT minor units per token.
 */
export const ieoProjects = pgTable(
  'ieo_projects',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    slug: text('slug').notNull().unique('ieo_projects_slug_key'),
    token: text('token')
      .notNull()
      .references(() => assets.code)
      .unique('ieo_projects_token_key'),
    name: jsonb('name').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    supply: minor('supply').notNull(),
    unitPriceMinor: minor('unit_price_minor').notNull(),
    priceMinMinor: minor('price_min_minor').notNull(),
    priceMaxMinor: minor('price_max_minor').notNull(),
    perUserCap: minor('per_user_cap').notNull(),
    startsAt: at('starts_at').notNull(),
    endsAt: at('ends_at').notNull(),
    listsAt: at('lists_at').notNull(),
    announcedAt: at('announced_at').notNull(),
    allocatedAt: at('allocated_at'),
    listedAt: at('listed_at'),
    cancelledAt: at('cancelled_at'),
    cancelReason: text('cancel_reason'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    check('ieo_projects_period', sql`${t.endsAt} > ${t.startsAt} and ${t.listsAt} >= ${t.endsAt}`),
    check(
      'ieo_projects_prices',
      sql`${t.priceMinMinor} > 0 and ${t.priceMinMinor} <= ${t.unitPriceMinor} and ${t.unitPriceMinor} <= ${t.priceMaxMinor}`,
    ),
    check('ieo_projects_supply', sql`${t.supply} > 0 and ${t.perUserCap} > 0`),
    check('ieo_projects_name_en', sql`jsonb_typeof(${t.name} -> 'en') = 'string'`),
    check('ieo_projects_description_en', sql`jsonb_typeof(${t.description} -> 'en') = 'string'`),
    // Listing follows allocation; a cancelled project is never allocated.
    check(
      'ieo_projects_steps',
      sql`(${t.listedAt} is null or ${t.allocatedAt} is not null) and (${t.cancelledAt} is null or ${t.allocatedAt} is null)`,
    ),
  ],
);

/**
 * One application per user per project (the unique key). `amount_minor` is locked in the
 * user's spot USDT while `status` is APPLYING (0); the allocation fills the allocated columns.
 */
export const ieoApplications = pgTable(
  'ieo_applications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => ieoProjects.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    status: smallint('status').notNull(),
    priceMinor: minor('price_minor').notNull(),
    quantity: minor('quantity').notNull(),
    amountMinor: minor('amount_minor').notNull(),
    allocatedQuantity: minor('allocated_quantity'),
    paidMinor: minor('paid_minor'),
    refundMinor: minor('refund_minor'),
    allocatedAt: at('allocated_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    unique('ieo_applications_project_user_key').on(t.projectId, t.userId),
    index('ieo_applications_user_idx').on(t.userId, t.id),
    check('ieo_applications_status', sql`${t.status} in (0, 6, 7, 8)`),
    check(
      'ieo_applications_amount',
      sql`${t.quantity} > 0 and ${t.priceMinor} > 0 and ${t.amountMinor} = ${t.quantity} * ${t.priceMinor}`,
    ),
    check(
      'ieo_applications_allocation',
      sql`${t.allocatedQuantity} is null or (${t.allocatedQuantity} >= 0 and ${t.allocatedQuantity} <= ${t.quantity} and ${t.paidMinor} = ${t.allocatedQuantity} * ${t.priceMinor} and ${t.refundMinor} = ${t.amountMinor} - ${t.paidMinor})`,
    ),
  ],
);

export type IeoProjectRow = typeof ieoProjects.$inferSelect;
export type IeoApplicationRow = typeof ieoApplications.$inferSelect;
