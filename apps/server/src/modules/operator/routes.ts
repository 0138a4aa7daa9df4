import { okSchema } from '@tradewind/contract/envelope';
import {
  ADMIN_ROLES,
  OPERATOR_ROLES,
  auditListSchema,
  auditQuerySchema,
  operatorCreateSchema,
  operatorCreatedSchema,
  operatorDisableSchema,
  operatorListSchema,
  operatorLoginSchema,
  operatorSessionSchema,
  settingsSchema,
} from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import {
  audit,
  authenticateOperator,
  createOperator,
  listAudit,
  listOperators,
  operatorLogin,
  operatorLogout,
  setOperatorDisabled,
} from './service.ts';

const tags = ['operator'];

/** The operator API under /api/admin/v1. Each domain adds its review routes with `auth: 'operator'` and its roles. */
export function registerOperatorRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; config: Pick<Config, 'settings' | 'version'> },
): void {
  const startedAt = deps.clock.now().toISOString();
  app.decorate('authenticateOperator', (authorization: string | undefined) =>
    authenticateOperator(deps, authorization),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/auth/login',
      auth: 'none',
      summary: 'Operator sign-in',
      tags,
      body: operatorLoginSchema,
      response: operatorSessionSchema,
      rateLimit: { max: 10, timeWindow: 60_000 },
    },
    async ({ body }) => operatorLogin(deps, body),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/auth/logout',
      auth: 'operator',
      roles: OPERATOR_ROLES,
      summary: 'Operator sign-out',
      tags,
      response: okSchema,
    },
    async ({ request }) => {
      await operatorLogout(deps, request.headers.authorization);
      return { ok: true as const };
    },
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/me',
      auth: 'operator',
      roles: OPERATOR_ROLES,
      summary: 'The signed-in operator',
      tags,
      response: z.object({ username: z.string(), role: z.enum(OPERATOR_ROLES) }),
    },
    async ({ operator }) => ({ username: operator.username, role: operator.role }),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/audit',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary: 'The audit log, newest first, filterable',
      tags,
      query: auditQuerySchema,
      response: auditListSchema,
    },
    async ({ query }) => ({ items: await listAudit(deps.db, query) }),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/operators',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary: 'Operators, oldest first',
      tags,
      response: operatorListSchema,
    },
    async () => ({ items: await listOperators(deps.db) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/operators',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary: 'Create an operator; the password and TOTP secret are shown once',
      tags,
      body: operatorCreateSchema,
      response: operatorCreatedSchema,
    },
    async ({ body, operator }) =>
      deps.db.transaction(async (tx) => {
        const now = deps.clock.now();
        const created = await createOperator(tx, now, body);
        await audit(tx, now, operator, {
          action: 'operator.create',
          targetType: 'operator',
          targetId: created.id,
          after: { username: created.username, role: created.role },
        });
        return created;
      }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/operators/disable',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary: 'Disable or enable another operator, with a reason',
      tags,
      body: operatorDisableSchema,
      response: okSchema,
    },
    async ({ body, operator }) => {
      await setOperatorDisabled(deps.db, deps.clock.now(), operator, body);
      return { ok: true as const };
    },
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/settings',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary: 'The server settings in effect (read-only; keys and credentials hidden)',
      tags,
      response: settingsSchema,
    },
    async () => ({ items: deps.config.settings, version: deps.config.version, startedAt }),
  );
}
