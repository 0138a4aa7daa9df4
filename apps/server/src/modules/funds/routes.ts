import {
  XLSX_CONTENT_TYPE,
  fundsEventsPageSchema,
  fundsFilterSchema,
  fundsPageSchema,
  fundsQuerySchema,
} from '@tradewind/contract/funds';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { fileRoute, route } from '#platform/http.ts';
import { listFundsEvents } from './events.ts';
import { exportFunds, listFunds } from './service.ts';

const tags = ['funds'];

export function registerFundsRoutes(app: FastifyInstance, deps: { db: Db; clock: Clock }): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/funds/postings',
      auth: 'user',
      summary: 'Your funds detail: your ledger postings, newest first, filtered, a page at a time',
      tags,
      query: fundsQuerySchema,
      response: fundsPageSchema,
    },
    async ({ auth, query }) => listFunds(deps.db, auth.userId, query),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/funds/events',
      auth: 'user',
      summary:
        'Your funds detail by event: one row per ledger entry with your postings of it and its net change per account, newest first, filtered, a page at a time',
      tags,
      query: fundsQuerySchema,
      response: fundsEventsPageSchema,
    },
    async ({ auth, query }) => listFundsEvents(deps.db, auth.userId, query),
  );

  fileRoute(
    app,
    {
      method: 'GET',
      url: '/api/v1/funds/postings/export',
      auth: 'user',
      summary: 'Your funds detail with the same filters, as an .xlsx file',
      tags,
      query: fundsFilterSchema,
      produces: XLSX_CONTENT_TYPE,
      rateLimit: { max: 10, timeWindow: 60_000 },
    },
    async ({ auth, query, lang }) =>
      exportFunds(deps.db, auth.userId, query, lang, deps.clock.now()),
  );
}
