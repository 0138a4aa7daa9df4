import {
  bonusCodeDecisionSchema,
  bonusCodeListSchema,
  bonusCodeViewSchema,
  createBonusCodeRequestSchema,
  inviteSummarySchema,
  inviteesQuerySchema,
  inviteesSchema,
  redeemBonusCodeRequestSchema,
  redeemBonusCodeResultSchema,
  rewardBudgetChangeSchema,
  rewardBudgetDecisionSchema,
  rewardBudgetRequestSchema,
  rewardBudgetsSchema,
} from '@tradewind/contract/invite';
import { ADMIN_ROLES, CATALOG_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import type { Ledger } from '../ledger/service.ts';
import {
  decideRewardBudgetChange,
  listRewardBudgets,
  requestRewardBudgetChange,
} from '../rewards/service.ts';
import {
  createBonusCode,
  decideBonusCode,
  inviteSummary,
  listBonusCodes,
  listInvitees,
  redeemBonusCode,
} from './service.ts';

const tags = ['invite'];

export function registerInviteRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; ledger: Ledger; config: Config },
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
        'Create a bonus code (amount, total and per-user limits, window, verified users only, one per identity); one whose total is above the threshold waits for a second admin; audit-logged',
      tags,
      body: createBonusCodeRequestSchema,
      response: bonusCodeViewSchema,
    },
    async ({ operator, body }) => createBonusCode(deps.db, deps.clock.now(), operator, body),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/bonus-codes/decide',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary:
        'Approve or reject (with a reason) a bonus code waiting for approval; never its creator; audit-logged',
      tags,
      body: bonusCodeDecisionSchema,
      response: bonusCodeViewSchema,
    },
    async ({ operator, body }) => decideBonusCode(deps.db, deps.clock.now(), operator, body),
  );

  registerRewardBudgetRoutes(app, deps);
}

/** Reward budgets (issue 29): what every reward the house gives draws on; two admins set them. */
function registerRewardBudgetRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; config: Config },
): void {
  const rewardTags = ['rewards'];
  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/reward-budgets',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary: 'Reward budgets per asset (approved, paid, remaining) and the newest budget changes',
      tags: rewardTags,
      response: rewardBudgetsSchema,
    },
    async () => listRewardBudgets(deps.db),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/reward-budgets',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary: 'Request a reward budget change (a signed amount and why); another admin decides',
      tags: rewardTags,
      body: rewardBudgetRequestSchema,
      response: rewardBudgetChangeSchema,
    },
    async ({ operator, body }) =>
      requestRewardBudgetChange(deps.db, deps.clock.now(), operator, body),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/reward-budgets/decide',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary:
        'Approve or reject (with a reason) a reward budget change; never by whoever requested it',
      tags: rewardTags,
      body: rewardBudgetDecisionSchema,
      response: rewardBudgetChangeSchema,
    },
    async ({ operator, body }) =>
      decideRewardBudgetChange(deps.db, deps.clock.now(), operator, body),
  );
}
