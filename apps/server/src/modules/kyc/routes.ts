import {
  kycDecideRequestSchema,
  kycOverviewSchema,
  kycQueueItemSchema,
  kycQueueQuerySchema,
  kycQueueSchema,
  kycSubmitRequestSchema,
} from '@tradewind/contract/kyc';
import { REVIEW_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import type { Hub } from '#platform/ws.ts';
import { type CreatedMessage, publishMessages } from '../messages/service.ts';
import { decideKyc, getKycOverview, listKycQueue, submitKyc } from './service.ts';

const tags = ['kyc'];

export function registerKycRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; hub: Hub; config: Pick<Config, 'kycAutoApprove'> },
): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/kyc',
      auth: 'user',
      summary: 'Your verification status and latest submission',
      tags,
      response: kycOverviewSchema,
    },
    async ({ auth }) => getKycOverview(deps.db, auth.userId),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/kyc',
      auth: 'user',
      summary: 'Send your identity documents for review (one pending at a time)',
      tags,
      body: kycSubmitRequestSchema,
      response: kycOverviewSchema,
      rateLimit: { max: 10, timeWindow: 60_000 },
    },
    async ({ auth, body }) =>
      submitKyc(deps.db, deps.clock.now(), auth.userId, body, {
        autoApprove: deps.config.kycAutoApprove,
      }),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/kyc/queue',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Pending verifications, oldest first',
      tags,
      query: kycQueueQuerySchema,
      response: kycQueueSchema,
    },
    async ({ query }) => listKycQueue(deps.db, query.cursor),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/kyc/decide',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Approve or reject a pending verification (a reason is required to reject)',
      tags,
      body: kycDecideRequestSchema,
      response: kycQueueItemSchema,
    },
    async ({ operator, body }) => {
      const created: CreatedMessage[] = [];
      const decided = await decideKyc(deps.db, deps.clock.now(), operator, body, created);
      deps.hub.publishToUser(Number(decided.uid), { type: 'kyc.decided', status: decided.status });
      publishMessages(deps.hub, created);
      return decided;
    },
  );
}
