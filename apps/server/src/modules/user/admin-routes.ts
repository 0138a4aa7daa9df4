import { ADMIN_ROLES, REVIEW_ROLES } from '@tradewind/contract/operator';
import {
  adjustmentDecisionSchema,
  adjustmentListQuerySchema,
  adjustmentListSchema,
  adjustmentRequestSchema,
  adjustmentSchema,
  adminOrdersSchema,
  adminPostingsSchema,
  adminUserDetailSchema,
  adminUserPageQuerySchema,
  adminUserQuerySchema,
  freezeRequestSchema,
  freezeResultSchema,
  userSearchQuerySchema,
  userSearchSchema,
} from '@tradewind/contract/user-admin';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import type { Hub } from '#platform/ws.ts';
import type { Ledger } from '../ledger/service.ts';
import { publishMessages } from '../messages/service.ts';
import { decideAdjustment, listAdjustments, requestAdjustment } from './adjustments.ts';
import { searchUsers, userDetail, userOrders, userPostings } from './admin.ts';
import { setFrozen } from './freeze.ts';

const tags = ['user', 'operator'];
const url = (path: string) => `/api/admin/v1/users/${path}`;

/** The console's Users section: reviewers may read; only admins freeze and adjust (issue 7). */
export function registerUserAdminRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; ledger: Ledger; hub: Hub },
): void {
  route(
    app,
    {
      method: 'GET',
      url: url('search'),
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Users by uid, email, phone or nickname, newest first',
      tags,
      query: userSearchQuerySchema,
      response: userSearchSchema,
    },
    async ({ query }) => searchUsers(deps.db, query),
  );

  route(
    app,
    {
      method: 'GET',
      url: url('detail'),
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary:
        'One user, read-only: profile, KYC, balances from the ledger, deposits and withdrawals',
      tags,
      query: adminUserQuerySchema,
      response: adminUserDetailSchema,
    },
    async ({ query }) => userDetail(deps.db, deps.clock.now(), Number(query.uid)),
  );

  route(
    app,
    {
      method: 'GET',
      url: url('postings'),
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: "A user's ledger postings, newest first",
      tags,
      query: adminUserPageQuerySchema,
      response: adminPostingsSchema,
    },
    async ({ query }) => userPostings(deps.db, Number(query.uid), query),
  );

  route(
    app,
    {
      method: 'GET',
      url: url('orders'),
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: "A user's contract orders, newest first",
      tags,
      query: adminUserPageQuerySchema,
      response: adminOrdersSchema,
    },
    async ({ query }) => userOrders(deps.db, Number(query.uid), query),
  );

  route(
    app,
    {
      method: 'POST',
      url: url('freeze'),
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary:
        'Freeze an account with a reason: signs the user out, refuses sign-in and every money movement',
      tags,
      body: freezeRequestSchema,
      response: freezeResultSchema,
    },
    async ({ body, operator }) =>
      setFrozen(deps.db, deps.clock.now(), operator, {
        userId: Number(body.uid),
        frozen: true,
        reason: body.reason,
      }),
  );

  route(
    app,
    {
      method: 'POST',
      url: url('unfreeze'),
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary: 'Unfreeze an account, with a reason',
      tags,
      body: freezeRequestSchema,
      response: freezeResultSchema,
    },
    async ({ body, operator }) =>
      setFrozen(deps.db, deps.clock.now(), operator, {
        userId: Number(body.uid),
        frozen: false,
        reason: body.reason,
      }),
  );

  route(
    app,
    {
      method: 'GET',
      url: url('adjustments'),
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary: 'Adjustment requests, newest first',
      tags,
      query: adjustmentListQuerySchema,
      response: adjustmentListSchema,
    },
    async ({ query }) => listAdjustments(deps.db, query),
  );

  route(
    app,
    {
      method: 'POST',
      url: url('adjustments'),
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary:
        'Request a manual adjustment (a signed amount and the reason the user will see); another admin decides',
      tags,
      body: adjustmentRequestSchema,
      response: adjustmentSchema,
    },
    async ({ body, operator }) => requestAdjustment(deps.db, deps.clock.now(), operator, body),
  );

  route(
    app,
    {
      method: 'POST',
      url: url('adjustments/decide'),
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary: 'Approve (one system ledger entry) or reject with a reason; never by the requester',
      tags,
      body: adjustmentDecisionSchema,
      response: adjustmentSchema,
    },
    async ({ body, operator }) => {
      const { adjustment, messages } = await decideAdjustment(
        deps.db,
        deps.ledger,
        deps.clock.now(),
        operator,
        body,
      );
      if (adjustment.status === 'approved')
        deps.hub.publishToUser(Number(adjustment.uid), { type: 'balance.changed' });
      publishMessages(deps.hub, messages);
      return adjustment;
    },
  );
}
