import { okSchema } from '@tradewind/contract/envelope';
import { setLanguageRequestSchema, userProfileSchema } from '@tradewind/contract/user';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import { getProfile } from './service.ts';
import { users } from './tables.ts';

export function registerUserRoutes(app: FastifyInstance, deps: { db: Db }): void {
  route(
    app,
    { method: 'GET', url: '/api/v1/user/profile', auth: 'user', summary: 'Your profile', tags: ['user'], response: userProfileSchema },
    async ({ auth }) => getProfile(deps.db, auth.userId),
  );

  route(
    app,
    { method: 'POST', url: '/api/v1/user/language', auth: 'user', summary: 'Keep your interface language (messages are written in it)', tags: ['user'], body: setLanguageRequestSchema, response: okSchema },
    async ({ auth, body }) => {
      await deps.db.update(users).set({ language: body.language }).where(eq(users.id, auth.userId));
      return { ok: true as const };
    },
  );
}
