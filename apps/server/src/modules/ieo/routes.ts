import {
  ieoActionRequestSchema,
  ieoActionResultSchema,
  ieoAdminApplicationsSchema,
  ieoAdminProjectListSchema,
  ieoApplicationListSchema,
  ieoApplicationSchema,
  ieoCancelRequestSchema,
  ieoDetailQuerySchema,
  ieoDetailSchema,
  ieoProjectEditSchema,
  ieoProjectInputSchema,
  ieoProjectListSchema,
  ieoProjectSchema,
  ieoSubscribeRequestSchema,
} from '@tradewind/contract/ieo';
import { CATALOG_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import { Sweeper } from '#platform/sweeper.ts';
import type { Hub } from '#platform/ws.ts';
import type { Ledger } from '../ledger/service.ts';
import { type CreatedMessage, publishMessages } from '../messages/service.ts';
import {
  applicationsForOperators,
  cancelProject,
  createProject,
  editProject,
  listApplications,
  listProjects,
  listProjectsForOperators,
  operatorProjectView,
  projectDetail,
  runAllocation,
  runDueIeo,
  runListing,
  subscribe,
} from './service.ts';

const tags = ['ieo'];
const adminTags = ['ieo', 'operator'];
/** How often the worker looks for projects due for allocation or listing. */
const IEO_JOB_INTERVAL_MS = 30_000;

export interface IeoDeps {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  hub: Hub;
}

export function registerIeoRoutes(app: FastifyInstance, deps: IeoDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/ieo/projects',
      auth: 'user',
      summary: 'Launchpad projects: subscribing first, then upcoming, then the rest',
      tags,
      response: ieoProjectListSchema,
    },
    async ({ lang }) => ({ items: await listProjects(deps.db, deps.clock.now(), lang) }),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/ieo/detail',
      auth: 'user',
      summary: 'A project and your application to it',
      tags,
      query: ieoDetailQuerySchema,
      response: ieoDetailSchema,
    },
    async ({ auth, query, lang }) =>
      projectDetail(deps.db, deps.clock.now(), auth.userId, Number(query.id), lang),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/ieo/applications',
      auth: 'user',
      summary: 'Your applications, newest first',
      tags,
      response: ieoApplicationListSchema,
    },
    async ({ auth, lang }) => ({ items: await listApplications(deps.db, auth.userId, lang) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/ieo/subscribe',
      auth: 'user',
      money: true,
      summary:
        'Apply for tokens: offer price × quantity is locked in spot USDT until the allocation',
      tags,
      body: ieoSubscribeRequestSchema,
      response: ieoApplicationSchema,
      rateLimit: { max: 30, timeWindow: 60_000 },
    },
    async ({ auth, body, tx, lang, afterCommit }) => {
      const created: CreatedMessage[] = [];
      const application = await subscribe(
        deps.ledger,
        tx,
        deps.clock.now(),
        auth.userId,
        body,
        lang,
        created,
      );
      afterCommit(() => {
        publishMessages(deps.hub, created);
        deps.hub.publishToUser(auth.userId, { type: 'balance.changed' });
      });
      return application;
    },
  );

  const admin = (url: string) => `/api/admin/v1/ieo/${url}`;

  route(
    app,
    {
      method: 'GET',
      url: admin('projects'),
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Every project, with status and application counts',
      tags: adminTags,
      response: ieoAdminProjectListSchema,
    },
    async () => ({ items: await listProjectsForOperators(deps.db, deps.clock.now()) }),
  );

  route(
    app,
    {
      method: 'GET',
      url: admin('applications'),
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: "A project's applications and, once allocated, the allocation's totals",
      tags: adminTags,
      query: ieoDetailQuerySchema,
      response: ieoAdminApplicationsSchema,
    },
    async ({ query }) => applicationsForOperators(deps.db, deps.clock.now(), Number(query.id)),
  );

  route(
    app,
    {
      method: 'POST',
      url: admin('create'),
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Create a project and its token asset',
      tags: adminTags,
      body: ieoProjectInputSchema,
      response: ieoProjectSchema,
    },
    async ({ body, operator }) => {
      const now = deps.clock.now();
      return operatorProjectView(deps.db, now, await createProject(deps.db, now, operator, body));
    },
  );

  route(
    app,
    {
      method: 'POST',
      url: admin('edit'),
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Edit a project that has not started',
      tags: adminTags,
      body: ieoProjectEditSchema,
      response: ieoProjectSchema,
    },
    async ({ body, operator }) => {
      const now = deps.clock.now();
      await editProject(deps.db, now, operator, body);
      return operatorProjectView(deps.db, now, Number(body.id));
    },
  );

  route(
    app,
    {
      method: 'POST',
      url: admin('cancel'),
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Cancel a project before its allocation; every commitment is refunded',
      tags: adminTags,
      body: ieoCancelRequestSchema,
      response: ieoProjectSchema,
    },
    async ({ body, operator }) => {
      const now = deps.clock.now();
      await cancelProject(deps, now, operator, Number(body.id), body.reason);
      return operatorProjectView(deps.db, now, Number(body.id));
    },
  );

  route(
    app,
    {
      method: 'POST',
      url: admin('allocate'),
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Run the allocation of an ended subscription (once)',
      tags: adminTags,
      body: ieoActionRequestSchema,
      response: ieoActionResultSchema,
    },
    async ({ body, operator }) => {
      const now = deps.clock.now();
      const { ran } = await runAllocation(deps, now, Number(body.id), operator);
      return { ran, project: await operatorProjectView(deps.db, now, Number(body.id)) };
    },
  );

  route(
    app,
    {
      method: 'POST',
      url: admin('list'),
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Credit allocated tokens at the listing time (once)',
      tags: adminTags,
      body: ieoActionRequestSchema,
      response: ieoActionResultSchema,
    },
    async ({ body, operator }) => {
      const now = deps.clock.now();
      const { ran } = await runListing(deps, now, Number(body.id), operator);
      return { ran, project: await operatorProjectView(deps.db, now, Number(body.id)) };
    },
  );
}

/** The clock-driven job: allocates ended subscriptions and lists due projects. */
export function registerIeoWorker(app: FastifyInstance, deps: IeoDeps): void {
  const sweeper = new Sweeper(
    'ieo job',
    () => runDueIeo(deps, deps.clock.now()),
    IEO_JOB_INTERVAL_MS,
    app.log,
    (ok) => app.services.metrics.jobRound('ieo', ok),
  );
  app.addHook('onReady', async () => sweeper.start());
  app.addHook('onClose', () => sweeper.stop());
}
