import { creditSchema } from '@tradewind/contract/credit';
import type { FastifyInstance } from 'fastify';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import { creditView } from './service.ts';

export function registerCreditRoutes(app: FastifyInstance, deps: { db: Db }): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/credit',
      auth: 'user',
      summary: 'Your credit score, its rules and the events that made it',
      tags: ['credit'],
      response: creditSchema,
    },
    async ({ auth }) => creditView(deps.db, auth.userId),
  );
}
