import {
  balancesSchema,
  transferRequestSchema,
  transferResponseSchema,
} from '@tradewind/contract/wallet';
import {
  adminAssetListSchema,
  adminAssetSchema,
  assetSaveSchema,
} from '@tradewind/contract/catalog';
import { CATALOG_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import { listAdminAssets } from '../ledger/asset-settings.ts';
import type { Ledger } from '../ledger/service.ts';
import { recordedPriceOf } from '../market/service.ts';
import { saveAsset } from './catalog.ts';
import { getBalances, transfer } from './service.ts';

const tags = ['wallet'];

export function registerWalletRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; ledger: Ledger },
): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/wallet/balances',
      auth: 'user',
      summary: 'Spot and futures balances',
      tags,
      response: balancesSchema,
    },
    async ({ auth }) =>
      getBalances(deps.db, auth.userId, await recordedPriceOf(deps.db, deps.clock.now())),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/wallet/transfer',
      auth: 'user',
      money: true,
      summary: 'Transfer USDT between your spot and futures accounts',
      tags,
      body: transferRequestSchema,
      response: transferResponseSchema,
    },
    ({ body, auth, tx }) => transfer(deps.ledger, tx, deps.clock.now(), auth.userId, body),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/wallet/assets',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Every asset with its deposit and withdrawal settings',
      tags,
      response: adminAssetListSchema,
    },
    async () => ({ items: await listAdminAssets(deps.db) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/wallet/assets',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary:
        "Save an asset's deposit and withdrawal switches, fee, minimums and confirmations; requests already made keep their fee",
      tags,
      body: assetSaveSchema,
      response: adminAssetSchema,
    },
    async ({ operator, body }) => saveAsset(deps.db, deps.clock.now(), operator, body),
  );
}
