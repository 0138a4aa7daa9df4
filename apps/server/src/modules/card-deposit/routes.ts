import {
  cardDepositConfigSchema,
  cardDepositDecideRequestSchema,
  cardDepositListQuerySchema,
  cardDepositListSchema,
  cardDepositQueueItemSchema,
  cardDepositQueueQuerySchema,
  cardDepositQueueSchema,
  cardDepositRequestSchema,
  cardDepositSchema,
} from '@tradewind/contract/card-deposit';
import {
  adminPayeeAccountListSchema,
  adminPayeeAccountSchema,
  payeeAccountSaveSchema,
} from '@tradewind/contract/catalog';
import { CATALOG_ROLES, REVIEW_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import type { Hub } from '#platform/ws.ts';
import type { Ledger } from '../ledger/service.ts';
import { type CreatedMessage, publishMessages } from '../messages/service.ts';
import {
  cardDepositConfig,
  createCardDeposit,
  decideCardDeposit,
  listCardDepositQueue,
  listCardDeposits,
} from './service.ts';
import { listPayeeAccounts, savePayeeAccount, seedConfiguredPayee } from './payees.ts';

const tags = ['card-deposit'];

export function registerCardDepositRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; config: Config; ledger: Ledger; hub: Hub },
): void {
  app.addHook('onReady', () => seedConfiguredPayee(deps.db, deps.clock.now(), deps.config));

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/card-deposits/payees',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Payee accounts for bank-card deposits',
      tags,
      response: adminPayeeAccountListSchema,
    },
    async () => ({ items: await listPayeeAccounts(deps.db) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/card-deposits/payees',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary:
        'Create (no id) or edit a payee account; the first enabled one is shown to users, deposits already reported keep theirs',
      tags,
      body: payeeAccountSaveSchema,
      response: adminPayeeAccountSchema,
    },
    async ({ operator, body }) => savePayeeAccount(deps.db, deps.clock.now(), operator, body),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/card-deposits/config',
      auth: 'user',
      summary: 'Payee account, fee rule and limits of bank-card deposits',
      tags,
      response: cardDepositConfigSchema,
    },
    async () => cardDepositConfig(deps.db, deps.config),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/card-deposits',
      auth: 'user',
      summary: 'Your bank-card deposits, newest first',
      tags,
      query: cardDepositListQuerySchema,
      response: cardDepositListSchema,
    },
    async ({ auth, query }) => listCardDeposits(deps.db, auth.userId, query.cursor),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/card-deposits',
      auth: 'user',
      money: true,
      summary:
        'Report a bank-card payment with its screenshot (credited after an operator confirms it)',
      tags,
      body: cardDepositRequestSchema,
      response: cardDepositSchema,
      rateLimit: { max: 20, timeWindow: 60_000 },
    },
    async ({ auth, body, tx }) =>
      createCardDeposit(tx, deps.clock.now(), deps.config, auth.userId, body),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/card-deposits/queue',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Pending bank-card deposits, oldest first',
      tags,
      query: cardDepositQueueQuerySchema,
      response: cardDepositQueueSchema,
    },
    async ({ query }) => listCardDepositQueue(deps.db, query.cursor),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/card-deposits/decide',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Confirm (credit) or reject (with a reason) a pending bank-card deposit',
      tags,
      body: cardDepositDecideRequestSchema,
      response: cardDepositQueueItemSchema,
    },
    async ({ operator, body }) => {
      const created: CreatedMessage[] = [];
      const decided = await decideCardDeposit(
        deps.db,
        deps.ledger,
        deps.clock.now(),
        operator,
        body,
        created,
      );
      deps.hub.publishToUser(Number(decided.uid), {
        type: 'card_deposit.decided',
        id: decided.id,
        status: decided.status,
      });
      publishMessages(deps.hub, created);
      return decided;
    },
  );
}
