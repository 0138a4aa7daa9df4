import {
  changeContactRequestSchema,
  sendContactCodeRequestSchema,
  sendContactCodeResponseSchema,
} from '@tradewind/contract/contact';
import { okSchema } from '@tradewind/contract/envelope';
import {
  setLanguageRequestSchema,
  updateProfileRequestSchema,
  userProfileSchema,
} from '@tradewind/contract/user';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { route } from '#platform/http.ts';
import {
  type UserDeps,
  changeContact,
  getProfile,
  sendContactCode,
  updateProfile,
} from './service.ts';
import { users } from './tables.ts';

const MINUTE_MS = 60_000;
const tags = ['user'];

export function registerUserRoutes(app: FastifyInstance, deps: UserDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/user/profile',
      auth: 'user',
      summary: 'Your profile',
      tags,
      response: userProfileSchema,
    },
    async ({ auth }) => getProfile(deps.db, auth.userId),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/user/profile',
      auth: 'user',
      summary: 'Change your nickname and/or avatar (an upload of purpose avatar)',
      tags,
      body: updateProfileRequestSchema,
      response: userProfileSchema,
      rateLimit: { max: 20, timeWindow: MINUTE_MS },
    },
    async ({ auth, body }) => updateProfile(deps, auth.userId, body),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/user/contact/codes',
      auth: 'user',
      summary: 'Send a code to a new email or phone, to bind it to your account',
      tags,
      body: sendContactCodeRequestSchema,
      response: sendContactCodeResponseSchema,
      rateLimit: { max: 5, timeWindow: MINUTE_MS },
    },
    async ({ auth, body, request }) =>
      sendContactCode(deps, auth.userId, body, { ip: request.ip, language: request.lang }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/user/contact',
      auth: 'user',
      summary: 'Bind or change your email or phone: the code sent to it and your login password',
      tags,
      body: changeContactRequestSchema,
      response: userProfileSchema,
      rateLimit: { max: 10, timeWindow: MINUTE_MS },
    },
    async ({ auth, body, lang }) => changeContact(deps, auth.userId, body, lang),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/user/language',
      auth: 'user',
      summary: 'Keep your interface language (messages are written in it)',
      tags: ['user'],
      body: setLanguageRequestSchema,
      response: okSchema,
    },
    async ({ auth, body }) => {
      await deps.db.update(users).set({ language: body.language }).where(eq(users.id, auth.userId));
      return { ok: true as const };
    },
  );
}
