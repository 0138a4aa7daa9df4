import { userProfileSchema } from '@tradewind/contract/user';
import type { FastifyInstance } from 'fastify';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import { getProfile } from './service.ts';

export function registerUserRoutes(app: FastifyInstance, deps: { db: Db }): void {
  route(
    app,
    { method: 'GET', url: '/api/v1/user/profile', auth: 'user', summary: 'Your profile', tags: ['user'], response: userProfileSchema },
    async ({ auth }) => getProfile(deps.db, auth.userId),
  );
}
