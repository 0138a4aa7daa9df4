import {
  ADMIN_ROLES,
  productSwitchesSchema,
  sharedSettingChangeSchema,
  sharedSettingDecisionSchema,
  sharedSettingRequestSchema,
  sharedSettingsSchema,
} from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import {
  decideSharedSettingChange,
  listSharedSettings,
  productSwitches,
  requestSharedSettingChange,
} from './service.ts';

/** The install-wide settings in the console: one admin requests a change, another approves. */
export function registerSharedSettingRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; config: Pick<Config, 'demoMode'> },
): void {
  const tags = ['settings'];
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/products',
      auth: 'user',
      summary: 'Which products (loans, mining, IEO, shop) take new actions now',
      tags,
      response: productSwitchesSchema,
    },
    async () => productSwitches(deps.db),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/settings/shared',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary: 'Install-wide settings every node applies, and their newest changes',
      tags,
      response: sharedSettingsSchema,
    },
    async () => listSharedSettings(deps.db),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/settings/shared',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary:
        'Request a change of an install-wide setting (a value and why); another admin decides',
      tags,
      body: sharedSettingRequestSchema,
      response: sharedSettingChangeSchema,
    },
    async ({ operator, body }) =>
      requestSharedSettingChange(deps.db, deps.clock.now(), operator, body, deps.config.demoMode),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/settings/shared/decide',
      auth: 'operator',
      roles: ADMIN_ROLES,
      summary:
        'Approve (it applies on every node at once) or reject with a reason a settings change; never by whoever requested it',
      tags,
      body: sharedSettingDecisionSchema,
      response: sharedSettingChangeSchema,
    },
    async ({ operator, body }) =>
      decideSharedSettingChange(deps.db, deps.clock.now(), operator, body, deps.config.demoMode),
  );
}
