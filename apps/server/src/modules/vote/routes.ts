import { CATALOG_ROLES } from '@tradewind/contract/operator';
import {
  castVoteRequestSchema,
  votePollAdminListSchema,
  votePollAdminSchema,
  votePollCloseSchema,
  votePollCreateSchema,
  votePollListSchema,
  votePollSchema,
} from '@tradewind/contract/vote';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import {
  castVote,
  closePoll,
  createPollAsOperator,
  listPolls,
  listPollsForOperators,
} from './service.ts';

const tags = ['vote'];

export function registerVoteRoutes(app: FastifyInstance, deps: { db: Db; clock: Clock }): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/votes',
      auth: 'user',
      summary: 'Open, upcoming and recently ended polls with their counts and your vote',
      tags,
      response: votePollListSchema,
    },
    async ({ auth, lang }) => ({
      items: await listPolls(deps.db, deps.clock.now(), auth.userId, lang),
    }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/votes/cast',
      auth: 'user',
      summary: 'Vote in an open poll, once',
      tags,
      body: castVoteRequestSchema,
      response: votePollSchema,
      rateLimit: { max: 30, timeWindow: 60_000 },
    },
    async ({ auth, body, lang }) => castVote(deps.db, deps.clock.now(), auth.userId, body, lang),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/votes',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Every poll with its results, newest first',
      tags,
      response: votePollAdminListSchema,
    },
    async () => ({ items: await listPollsForOperators(deps.db, deps.clock.now()) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/votes/create',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Create a poll with 2 to 10 options (audit-logged)',
      tags,
      body: votePollCreateSchema,
      response: votePollAdminSchema,
    },
    async ({ operator, body }) => createPollAsOperator(deps.db, deps.clock.now(), operator, body),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/votes/close',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'End an open poll now (audit-logged)',
      tags,
      body: votePollCloseSchema,
      response: votePollAdminSchema,
    },
    async ({ operator, body }) =>
      closePoll(deps.db, deps.clock.now(), operator, Number(body.id), body.reason),
  );
}
