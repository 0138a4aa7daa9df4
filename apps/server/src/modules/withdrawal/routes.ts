import { REVIEW_ROLES } from '@tradewind/contract/operator';
import {
  adminWithdrawalSchema,
  cardWithdrawalRequestSchema,
  cryptoWithdrawalRequestSchema,
  withdrawalCompleteRequestSchema,
  withdrawalDetailQuerySchema,
  withdrawalFailRequestSchema,
  withdrawalListQuerySchema,
  withdrawalListSchema,
  withdrawalOptionsSchema,
  withdrawalQueueQuerySchema,
  withdrawalQueueSchema,
  withdrawalReviewRequestSchema,
  withdrawalSchema,
} from '@tradewind/contract/withdrawal';
import type { FastifyInstance } from 'fastify';
import { route } from '#platform/http.ts';
import {
  type WithdrawalDeps,
  completeWithdrawal,
  failWithdrawal,
  getWithdrawal,
  listWithdrawals,
  reviewWithdrawal,
  withdrawalOptions,
  withdrawalQueue,
} from './service.ts';
import { precheckWithdrawal, requestWithdrawal } from './request.ts';

const tags = ['withdrawal'];
const adminTags = ['withdrawal', 'operator'];

export function registerWithdrawalRoutes(app: FastifyInstance, deps: WithdrawalDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/withdrawals/options',
      auth: 'user',
      summary: 'Currencies, networks, minimums, fees, balances, cards and what is still missing',
      tags,
      response: withdrawalOptionsSchema,
    },
    async ({ auth }) => withdrawalOptions(deps.db, auth.userId, deps.clock.now()),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/withdrawals',
      auth: 'user',
      money: true,
      summary: 'Request a crypto withdrawal: amount + fee are locked until review',
      tags,
      body: cryptoWithdrawalRequestSchema,
      response: withdrawalSchema,
      rateLimit: { max: 30, timeWindow: 60_000 },
      secretFields: ['password', 'totpCode'],
      precheck: ({ body, auth, lang }) =>
        precheckWithdrawal(deps, { userId: auth.userId, lang }, { kind: 'crypto', input: body }),
    },
    ({ body, auth, tx, lang }) =>
      requestWithdrawal(deps, tx, { userId: auth.userId, lang }, { kind: 'crypto', input: body }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/withdrawals/card',
      auth: 'user',
      money: true,
      summary:
        'Request a USDT withdrawal to a linked bank card: amount + fee are locked until review',
      tags,
      body: cardWithdrawalRequestSchema,
      response: withdrawalSchema,
      rateLimit: { max: 30, timeWindow: 60_000 },
      secretFields: ['password', 'totpCode'],
      precheck: ({ body, auth, lang }) =>
        precheckWithdrawal(deps, { userId: auth.userId, lang }, { kind: 'card', input: body }),
    },
    ({ body, auth, tx, lang }) =>
      requestWithdrawal(deps, tx, { userId: auth.userId, lang }, { kind: 'card', input: body }),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/withdrawals',
      auth: 'user',
      summary: 'Your withdrawals, newest first',
      tags,
      query: withdrawalListQuerySchema,
      response: withdrawalListSchema,
    },
    async ({ auth, query }) => listWithdrawals(deps.db, auth.userId, query),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/withdrawals/detail',
      auth: 'user',
      summary: 'One of your withdrawals',
      tags,
      query: withdrawalDetailQuerySchema,
      response: withdrawalSchema,
    },
    async ({ auth, query }) => getWithdrawal(deps.db, auth.userId, Number(query.id)),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/withdrawals/queue',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Withdrawals under review and processing, oldest first',
      tags: adminTags,
      query: withdrawalQueueQuerySchema,
      response: withdrawalQueueSchema,
    },
    async ({ query }) => ({ items: await withdrawalQueue(deps, query) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/withdrawals/review',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Approve (→ processing) or reject with a reason (→ review failed, funds released)',
      tags: adminTags,
      body: withdrawalReviewRequestSchema,
      response: adminWithdrawalSchema,
    },
    async ({ body, operator }) =>
      reviewWithdrawal(deps, operator, { ...body, id: Number(body.id) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/withdrawals/complete',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Record the sent transfer (→ success): the amount leaves, the fee is earned',
      tags: adminTags,
      body: withdrawalCompleteRequestSchema,
      response: adminWithdrawalSchema,
    },
    async ({ body, operator }) =>
      completeWithdrawal(deps, operator, { id: Number(body.id), txid: body.txid }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/withdrawals/fail',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'The transfer did not go out (→ failed, funds released), with the reason',
      tags: adminTags,
      body: withdrawalFailRequestSchema,
      response: adminWithdrawalSchema,
    },
    async ({ body, operator }) =>
      failWithdrawal(deps, operator, { id: Number(body.id), reason: body.reason }),
  );
}
