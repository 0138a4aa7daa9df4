import {
  claimTaskRequestSchema,
  claimTaskResultSchema,
  tasksSchema,
} from '@tradewind/contract/tasks';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import type { Ledger } from '../ledger/service.ts';
import { claimTask, listTasks } from './service.ts';

const tags = ['tasks'];

export function registerTaskRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; ledger: Ledger },
): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/tasks',
      auth: 'user',
      summary: 'The rewards centre: each task, its progress (0–100) and whether it can be claimed',
      tags,
      response: tasksSchema,
    },
    async ({ auth }) => listTasks(deps.db, deps.clock.now(), auth.userId),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/tasks/claim',
      auth: 'user',
      money: true,
      summary: "Claim a finished task's reward (once per user and task)",
      tags,
      body: claimTaskRequestSchema,
      response: claimTaskResultSchema,
      rateLimit: { max: 30, timeWindow: 60_000 },
    },
    async ({ auth, body, tx, lang }) =>
      claimTask(tx, deps.ledger, deps.clock.now(), auth.userId, body.task, lang),
  );
}
