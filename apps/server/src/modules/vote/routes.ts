import { castVoteRequestSchema, votePollListSchema, votePollSchema } from '@tradewind/contract/vote';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import { castVote, listPolls } from './service.ts';

const tags = ['vote'];

export function registerVoteRoutes(app: FastifyInstance, deps: { db: Db; clock: Clock }): void {
  route(
    app,
    { method: 'GET', url: '/api/v1/votes', auth: 'user', summary: 'Open, upcoming and recently ended polls with their counts and your vote', tags, response: votePollListSchema },
    async ({ auth, lang }) => ({ items: await listPolls(deps.db, deps.clock.now(), auth.userId, lang) }),
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
}
