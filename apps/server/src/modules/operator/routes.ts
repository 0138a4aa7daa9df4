import { okSchema } from '@tradewind/contract/envelope';
import {
  ADMIN_ROLES,
  OPERATOR_ROLES,
  auditListSchema,
  auditQuerySchema,
  enrolmentCompleteSchema,
  enrolmentStartSchema,
  enrolmentStartedSchema,
  operatorDisableSchema,
  operatorRequestBodySchema,
  operatorRequestDecidedSchema,
  operatorRequestDecisionSchema,
  operatorRequestListSchema,
  operatorRequestSchema,
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
  completeEnrolment,
  decideOperatorRequest,
  listOperatorRequests,
  requestOperatorChange,
  startEnrolment,
} from './requests.ts';
import {
  authenticateOperator,
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
      method: 'GET',
      url: '/api/admin/v1/operators/requests',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary: 'Operator requests: pending first, then the latest decided',
      tags,
      response: operatorRequestListSchema,
    },
    async () => ({ items: await listOperatorRequests(deps.db) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/operators/requests',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary:
        'Request a new operator, enabling one again or another role; a second admin approves',
      tags,
      body: operatorRequestBodySchema,
      response: operatorRequestSchema,
    },
    async ({ body, operator }) => requestOperatorChange(deps.db, deps.clock.now(), operator, body),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/operators/requests/decide',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary:
        "Approve or reject another admin's operator request; a new operator's enrolment code is shown once",
      tags,
      body: operatorRequestDecisionSchema,
      response: operatorRequestDecidedSchema,
    },
    async ({ body, operator }) => decideOperatorRequest(deps.db, deps.clock.now(), operator, body),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/enrolment/start',
      auth: 'none',
      summary: 'Enrolment: the account a code is for and the TOTP secret to add',
      tags,
      body: enrolmentStartSchema,
      response: enrolmentStartedSchema,
      rateLimit: { max: 10, timeWindow: 60_000 },
    },
    async ({ body }) => startEnrolment(deps.db, deps.clock.now(), body.code),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/enrolment/complete',
      auth: 'none',
      summary: 'Enrolment: set your own password and prove your authenticator; the code is spent',
      tags,
      body: enrolmentCompleteSchema,
      response: okSchema,
      rateLimit: { max: 10, timeWindow: 60_000 },
    },
    async ({ body }) => {
      await completeEnrolment(deps.db, deps.clock.now(), body);
      return { ok: true as const };
    },
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/operators/disable',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary: 'Disable another operator, with a reason (enabling again is a request)',
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
