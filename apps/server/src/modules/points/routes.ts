import {
  checkinResultSchema,
  checkinStateSchema,
  pointsHistoryQuerySchema,
  pointsHistorySchema,
} from '@tradewind/contract/points';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import { checkIn, checkinState, pointsHistory } from './service.ts';

const tags = ['points'];

export function registerPointsRoutes(app: FastifyInstance, deps: { db: Db; clock: Clock }): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/points/checkin',
      auth: 'user',
      summary: "Today's check-in state, streak and points",
      tags,
      response: checkinStateSchema,
    },
    async ({ auth, lang }) => checkinState(deps.db, deps.clock.now(), auth.userId, lang),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/points/checkin',
      auth: 'user',
      summary: 'Check in for today (once per UTC day)',
      tags,
      response: checkinResultSchema,
      rateLimit: { max: 30, timeWindow: 60_000 },
    },
    async ({ auth, lang }) => checkIn(deps.db, deps.clock.now(), auth.userId, lang),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/points/history',
      auth: 'user',
      summary: 'Your points events, newest first',
      tags,
      query: pointsHistoryQuerySchema,
      response: pointsHistorySchema,
    },
    async ({ auth, query }) => pointsHistory(deps.db, auth.userId, query),
  );
}
