import { REVIEW_ROLES } from '@tradewind/contract/operator';
import {
  addressBookSchema,
  adminShopOrdersQuerySchema,
  adminShopOrdersSchema,
  deleteAddressRequestSchema,
  deliveryAddressSchema,
  purchaseRequestSchema,
  purchaseResultSchema,
  saveAddressRequestSchema,
  shipOrderRequestSchema,
  shopOrderSchema,
  shopOrdersSchema,
  shopSchema,
} from '@tradewind/contract/shop';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import type { Ledger } from '../ledger/service.ts';
import {
  deleteAddress,
  listAddresses,
  listOrders,
  listShopQueue,
  purchase,
  saveAddress,
  shipOrder,
  shopView,
} from './service.ts';

const tags = ['shop'];

export function registerShopRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; ledger: Ledger },
): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/shop',
      auth: 'user',
      summary: 'The points shop: items, their price in points, your points, whether it is open',
      tags,
      response: shopSchema,
    },
    async ({ auth }) => shopView(deps.db, auth.userId),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/shop/purchase',
      auth: 'user',
      money: true,
      summary: 'Buy an item with points (a physical item needs one of your addresses)',
      tags,
      body: purchaseRequestSchema,
      response: purchaseResultSchema,
      rateLimit: { max: 30, timeWindow: 60_000 },
    },
    async ({ auth, body, tx, lang }) =>
      purchase(tx, deps.ledger, deps.clock.now(), auth.userId, body, lang),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/shop/orders',
      auth: 'user',
      summary: 'Your shop orders, newest first, with shipping status and tracking note',
      tags,
      response: shopOrdersSchema,
    },
    async ({ auth }) => listOrders(deps.db, auth.userId),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/shop/addresses',
      auth: 'user',
      summary: 'Your delivery addresses',
      tags,
      response: addressBookSchema,
    },
    async ({ auth }) => listAddresses(deps.db, auth.userId),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/shop/addresses',
      auth: 'user',
      summary: 'Add a delivery address, or edit one of yours (with id)',
      tags,
      body: saveAddressRequestSchema,
      response: deliveryAddressSchema,
    },
    async ({ auth, body }) => saveAddress(deps.db, deps.clock.now(), auth.userId, body),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/shop/addresses/delete',
      auth: 'user',
      summary: 'Delete one of your delivery addresses',
      tags,
      body: deleteAddressRequestSchema,
      response: addressBookSchema,
    },
    async ({ auth, body }) => deleteAddress(deps.db, deps.clock.now(), auth.userId, body.id),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/shop/orders',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Physical shop orders awaiting shipment (oldest first) or shipped',
      tags,
      query: adminShopOrdersQuerySchema,
      response: adminShopOrdersSchema,
    },
    async ({ query }) => listShopQueue(deps.db, query.status),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/shop/orders/ship',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Mark a physical order shipped, with a tracking note the user sees (audited)',
      tags,
      body: shipOrderRequestSchema,
      response: shopOrderSchema,
    },
    async ({ operator, body }) => shipOrder(deps.db, deps.clock.now(), operator, body),
  );
}
