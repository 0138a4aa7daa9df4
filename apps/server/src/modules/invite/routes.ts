import {
  bonusCodeListSchema,
  bonusCodeViewSchema,
  createBonusCodeRequestSchema,
  inviteSummarySchema,
  inviteesQuerySchema,
  inviteesSchema,
  redeemBonusCodeRequestSchema,
  redeemBonusCodeResultSchema,
} from '@tradewind/contract/invite';
import { CATALOG_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import type { Ledger } from '../ledger/service.ts';
import {
  createBonusCode,
  inviteSummary,
  listBonusCodes,
  listInvitees,
  redeemBonusCode,
} from './service.ts';

const tags = ['invite'];

export function registerInviteRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; ledger: Ledger },
): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/invite',
      auth: 'user',
      summary: 'Your invitation code and how many people registered with it',
      tags,
      response: inviteSummarySchema,
    },
    async ({ auth }) => inviteSummary(deps.db, auth.userId),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/invite/invitees',
      auth: 'user',
      summary: 'People who registered with your code, newest first (contact masked)',
      tags,
      query: inviteesQuerySchema,
      response: inviteesSchema,
    },
    async ({ auth, query }) => listInvitees(deps.db, auth.userId, query),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/bonus-codes/redeem',
      auth: 'user',
      money: true,
      summary: 'Redeem a bonus code: its reward is credited to your spot account',
      tags,
      body: redeemBonusCodeRequestSchema,
      response: redeemBonusCodeResultSchema,
      // Codes are short: limit guessing.
      rateLimit: { max: 10, timeWindow: 60_000 },
    },
    async ({ auth, body, lang, tx }) =>
      redeemBonusCode(tx, deps.ledger, deps.clock.now(), auth.userId, body.code, lang),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/bonus-codes',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Bonus codes, newest first, with their redemption counts',
      tags,
      response: bonusCodeListSchema,
    },
    async () => ({ items: await listBonusCodes(deps.db) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/bonus-codes',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary:
        'Create a bonus code (amount, total and per-user limits, window, verified users only); audit-logged',
      tags,
      body: createBonusCodeRequestSchema,
      response: bonusCodeViewSchema,
    },
    async ({ operator, body }) => createBonusCode(deps.db, deps.clock.now(), operator, body),
  );
}
