import type { Language } from '@tradewind/contract/languages';
import { parseAmount } from '@tradewind/contract/money';
import {
  ADDRESS_BOOK_MAX,
  type AdminShopOrders,
  type AddressBook,
  type DeliveryAddress,
  type DeliveryAddressInput,
  type PurchaseRequest,
  type PurchaseResult,
  SHOP_ITEMS,
  SHOP_ITEM_IDS,
  SHOP_ORDERS_PAGE_MAX,
  type ShipOrderRequest,
  type Shop,
  type ShopItemId,
  type ShopOrder,
  type ShopOrderStatus,
  type ShopOrders,
} from '@tradewind/contract/shop';
import { ASSETS } from '@tradewind/contract/wallet';
import { and, asc, count, desc, eq, isNull } from 'drizzle-orm';
import type { Db, Executor, Tx } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import type { Ledger } from '../ledger/service.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { operators } from '../operator/tables.ts';
import { addPointsEvent, lockPoints, pointsBalance } from '../points/service.ts';
import { grantReward } from '../rewards/service.ts';
import { productSwitches } from '../settings/service.ts';
import { assertCanMoveMoney } from '../user/frozen.ts';
import {
  type DeliveryAddressRow,
  type ShopOrderRow,
  deliveryAddresses,
  shopOrders,
} from './tables.ts';

/**
 * The points shop and the address book (issue 32). A purchase debits points (a negative points
 * event) in the same transaction as its order and, for a reward item, its payout from the reward
 * budget: all of it happens or none. Other users' addresses and orders are NOT_FOUND, never
 * "forbidden", so ids cannot be probed. Raises SHOP_UNAVAILABLE, POINTS_INSUFFICIENT,
 * ADDRESS_REQUIRED, ADDRESS_NOT_FOUND, ADDRESS_BOOK_FULL, SHOP_ORDER_NOT_FOUND,
 * SHOP_ORDER_SHIPPED, TASK_UNAVAILABLE (reward budget spent).
 */

function addressView(row: DeliveryAddressRow): DeliveryAddress {
  return {
    id: String(row.id),
    name: row.name,
    phone: row.phone,
    region: row.region,
    address: row.address,
  };
}

function orderView(row: ShopOrderRow): ShopOrder {
  return {
    id: String(row.id),
    item: row.item as ShopItemId,
    kind: row.kind as 'reward' | 'physical',
    pointsCost: row.pointsCost,
    status: row.status as ShopOrderStatus,
    address:
      row.address === null
        ? null
        : {
            id: String(row.addressId ?? ''),
            name: row.recipientName ?? '',
            phone: row.recipientPhone ?? '',
            region: row.region ?? '',
            address: row.address,
          },
    trackingNote: row.trackingNote,
    createdAt: row.createdAt.toISOString(),
    shippedAt: row.shippedAt?.toISOString() ?? null,
  };
}

async function shopEnabled(db: Executor): Promise<boolean> {
  return (await productSwitches(db)).shop;
}

/** The catalogue, the user's points and whether the shop sells now (PRODUCT_SHOP_ENABLED). */
export async function shopView(db: Executor, userId: number): Promise<Shop> {
  return {
    enabled: await shopEnabled(db),
    points: await pointsBalance(db, userId),
    items: SHOP_ITEM_IDS.map((id) => {
      const item = SHOP_ITEMS[id];
      return {
        id,
        kind: item.kind,
        pointsCost: item.pointsCost,
        asset: item.kind === 'reward' ? item.asset : null,
        amount: item.kind === 'reward' ? item.amount : null,
      };
    }),
  };
}

export async function listAddresses(db: Executor, userId: number): Promise<AddressBook> {
  const rows = await db
    .select()
    .from(deliveryAddresses)
    .where(and(eq(deliveryAddresses.userId, userId), isNull(deliveryAddresses.deletedAt)))
    .orderBy(desc(deliveryAddresses.id))
    .limit(ADDRESS_BOOK_MAX);
  return { items: rows.map(addressView) };
}

async function ownAddress(db: Executor, userId: number, id: number): Promise<DeliveryAddressRow> {
  const [row] = await db
    .select()
    .from(deliveryAddresses)
    .where(
      and(
        eq(deliveryAddresses.id, id),
        eq(deliveryAddresses.userId, userId),
        isNull(deliveryAddresses.deletedAt),
      ),
    )
    .limit(1);
  if (!row) throw new AppError('ADDRESS_NOT_FOUND', {}, 404);
  return row;
}

type ValidAddress = Required<DeliveryAddressInput>;

/** Adds an address (at most ADDRESS_BOOK_MAX per user) or, with `id`, edits one of the user's own. */
export async function saveAddress(
  db: Db,
  now: Date,
  userId: number,
  input: ValidAddress & { id?: string | undefined },
): Promise<DeliveryAddress> {
  const fields = {
    name: input.name,
    phone: input.phone,
    region: input.region,
    address: input.address,
  };
  return db.transaction(async (tx) => {
    await lockPoints(tx, userId);
    if (input.id !== undefined) {
      await ownAddress(tx, userId, Number(input.id));
      const [row] = await tx
        .update(deliveryAddresses)
        .set({ ...fields, updatedAt: now })
        .where(eq(deliveryAddresses.id, Number(input.id)))
        .returning();
      if (!row) throw new Error('address update returned no row');
      return addressView(row);
    }
    const [kept] = await tx
      .select({ n: count() })
      .from(deliveryAddresses)
      .where(and(eq(deliveryAddresses.userId, userId), isNull(deliveryAddresses.deletedAt)));
    if (Number(kept?.n ?? 0) >= ADDRESS_BOOK_MAX)
      throw new AppError('ADDRESS_BOOK_FULL', { max: ADDRESS_BOOK_MAX }, 409);
    const [row] = await tx
      .insert(deliveryAddresses)
      .values({ userId, ...fields, createdAt: now, updatedAt: now })
      .returning();
    if (!row) throw new Error('address insert returned no row');
    return addressView(row);
  });
}

/** Deletes one of the user's addresses; orders that used it keep their copy. */
export async function deleteAddress(
  db: Db,
  now: Date,
  userId: number,
  id: string,
): Promise<AddressBook> {
  await ownAddress(db, userId, Number(id));
  await db
    .update(deliveryAddresses)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(deliveryAddresses.id, Number(id)), eq(deliveryAddresses.userId, userId)));
  return listAddresses(db, userId);
}

/**
 * Buys an item inside `tx` (the request's idempotency transaction). The user's row is locked
 * first, so two purchases of one user queue and each sees the points the other spent.
 */
export async function purchase(
  tx: Tx,
  ledger: Ledger,
  now: Date,
  userId: number,
  input: PurchaseRequest,
  _language: Language,
): Promise<PurchaseResult> {
  if (!(await shopEnabled(tx))) throw new AppError('SHOP_UNAVAILABLE', {}, 409);
  const item = SHOP_ITEMS[input.item];
  const balance = await lockPoints(tx, userId);
  let address: DeliveryAddressRow | null = null;
  if (item.kind === 'physical') {
    if (input.addressId === undefined) throw new AppError('ADDRESS_REQUIRED', {}, 422, 'addressId');
    address = await ownAddress(tx, userId, Number(input.addressId));
  }
  if (balance < item.pointsCost) throw new AppError('POINTS_INSUFFICIENT', {}, 409);
  const pointsEventId = await addPointsEvent(tx, now, {
    userId,
    kind: 'shop_purchase',
    amount: -item.pointsCost,
  });
  let entryId: number | null = null;
  if (item.kind === 'reward') {
    await assertCanMoveMoney(tx, userId);
    const amountMinor = parseAmount(item.amount, ASSETS[item.asset].scale);
    if (amountMinor === undefined) throw new Error(`bad shop amount ${item.amount}`);
    try {
      entryId = await grantReward(tx, ledger, now, {
        kind: 'reward',
        reference: `shop:${pointsEventId}`,
        userId,
        asset: item.asset,
        amountMinor,
        memo: input.item,
      });
    } catch (error) {
      if (error instanceof AppError && error.errorName === 'REWARD_BUDGET_EXCEEDED')
        throw new AppError('TASK_UNAVAILABLE', {}, 409);
      throw error;
    }
  }
  const [row] = await tx
    .insert(shopOrders)
    .values({
      userId,
      item: input.item,
      kind: item.kind,
      pointsCost: item.pointsCost,
      pointsEventId,
      entryId,
      status: item.kind === 'reward' ? 'completed' : 'awaiting_shipment',
      addressId: address?.id ?? null,
      recipientName: address?.name ?? null,
      recipientPhone: address?.phone ?? null,
      region: address?.region ?? null,
      address: address?.address ?? null,
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('shop order insert returned no row');
  const after = await pointsBalance(tx, userId);
  if (after < 0) throw new Error(`points went below zero for user ${userId}`);
  return { order: orderView(row), points: after };
}

export async function listOrders(db: Executor, userId: number): Promise<ShopOrders> {
  const rows = await db
    .select()
    .from(shopOrders)
    .where(eq(shopOrders.userId, userId))
    .orderBy(desc(shopOrders.id))
    .limit(SHOP_ORDERS_PAGE_MAX);
  return { items: rows.map(orderView) };
}

/** The console's queue: physical orders awaiting shipment (oldest first) or shipped (newest first). */
export async function listShopQueue(
  db: Executor,
  status: 'awaiting_shipment' | 'shipped',
): Promise<AdminShopOrders> {
  const rows = await db
    .select({ row: shopOrders, shippedBy: operators.username })
    .from(shopOrders)
    .leftJoin(operators, eq(operators.id, shopOrders.shippedBy))
    .where(eq(shopOrders.status, status))
    .orderBy(status === 'awaiting_shipment' ? asc(shopOrders.id) : desc(shopOrders.id))
    .limit(SHOP_ORDERS_PAGE_MAX);
  return {
    items: rows.map(({ row, shippedBy }) => ({
      ...orderView(row),
      uid: String(row.userId),
      shippedBy,
    })),
  };
}

/** Marks a physical order shipped with a tracking note, audited. Shipping twice: SHOP_ORDER_SHIPPED. */
export async function shipOrder(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: ShipOrderRequest,
): Promise<ShopOrder> {
  const id = Number(input.id);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(shopOrders)
      .where(and(eq(shopOrders.id, id), eq(shopOrders.kind, 'physical')))
      .for('update');
    if (!row) throw new AppError('SHOP_ORDER_NOT_FOUND', {}, 404);
    if (row.status !== 'awaiting_shipment') throw new AppError('SHOP_ORDER_SHIPPED', {}, 409);
    const [updated] = await tx
      .update(shopOrders)
      .set({
        status: 'shipped',
        trackingNote: input.trackingNote,
        shippedBy: operator.operatorId,
        shippedAt: now,
      })
      .where(eq(shopOrders.id, id))
      .returning();
    if (!updated) throw new Error('shop order update returned no row');
    await audit(tx, now, operator, {
      action: 'shop_order.ship',
      targetType: 'shop_order',
      targetId: id,
      before: orderView(row),
      after: orderView(updated),
      reason: input.trackingNote,
    });
    return orderView(updated);
  });
}
