import {
  changePasswordRequestSchema,
  loginRequestSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  revokeSessionRequestSchema,
  sendCodeRequestSchema,
  sendCodeResponseSchema,
  sessionListSchema,
  sessionResponseSchema,
} from '@tradewind/contract/auth';
import { okSchema } from '@tradewind/contract/envelope';
import { loginResponseSchema, revokeOthersResponseSchema } from '@tradewind/contract/security';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route } from '#platform/http.ts';
import {
  type AuthDeps,
  type RequestMeta,
  changePassword,
  login,
  logout,
  register,
  resetPassword,
  revokeOtherSessions,
  revokeSession,
  sendCode,
} from './service.ts';
import { authenticateToken, listSessions } from './sessions.ts';

const MINUTE_MS = 60_000;
const tags = ['auth'];

function meta(request: FastifyRequest): RequestMeta {
  return {
    ip: request.ip,
    device: String(request.headers['user-agent'] ?? ''),
    language: request.lang,
  };
}

export function registerAuthRoutes(app: FastifyInstance, deps: AuthDeps): void {
  app.decorate('authenticate', (authorization: string | undefined) =>
    authenticateToken(deps, authorization),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/auth/codes',
      auth: 'none',
      summary: 'Send a 6-digit verification code by email or SMS',
      tags,
      body: sendCodeRequestSchema,
      response: sendCodeResponseSchema,
      rateLimit: { max: 5, timeWindow: MINUTE_MS },
    },
    async ({ body, request }) => sendCode(deps, body, meta(request)),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/auth/register',
      auth: 'none',
      summary: 'Register by verification code or invitation code, and sign in',
      tags,
      body: registerRequestSchema,
      response: sessionResponseSchema,
      rateLimit: { max: 10, timeWindow: MINUTE_MS },
    },
    async ({ body, request }) => register(deps, body, meta(request)),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/auth/login',
      auth: 'none',
      summary:
        'Sign in with email or phone and password (with two-factor on: a challenge for /auth/login/2fa)',
      tags,
      body: loginRequestSchema,
      response: loginResponseSchema,
      rateLimit: { max: 10, timeWindow: MINUTE_MS },
    },
    async ({ body, request }) => login(deps, body, meta(request)),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/auth/password/reset',
      auth: 'none',
      summary: 'Set a new password with a code (signs out every device)',
      tags,
      body: resetPasswordRequestSchema,
      response: okSchema,
      rateLimit: { max: 10, timeWindow: MINUTE_MS },
    },
    async ({ body }) => {
      await resetPassword(deps, body);
      return { ok: true as const };
    },
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/auth/password/change',
      auth: 'user',
      summary: 'Change the password (signs out the other devices)',
      tags,
      body: changePasswordRequestSchema,
      response: okSchema,
      rateLimit: { max: 10, timeWindow: MINUTE_MS },
    },
    async ({ body, auth }) => {
      await changePassword(deps, auth, body);
      return { ok: true as const };
    },
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/auth/logout',
      auth: 'user',
      summary: 'Sign out this device',
      tags,
      response: okSchema,
    },
    async ({ auth }) => {
      await logout(deps, auth);
      return { ok: true as const };
    },
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/auth/sessions',
      auth: 'user',
      summary: 'Signed-in devices',
      tags,
      response: sessionListSchema,
    },
    async ({ auth }) => ({ items: await listSessions(deps, auth) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/auth/sessions/revoke',
      auth: 'user',
      summary: 'Sign out one of your devices',
      tags,
      body: revokeSessionRequestSchema,
      response: okSchema,
    },
    async ({ body, auth }) => {
      await revokeSession(deps, auth, Number(body.id));
      return { ok: true as const };
    },
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/auth/sessions/revoke-others',
      auth: 'user',
      summary: 'Sign out every device but this one',
      tags,
      response: revokeOthersResponseSchema,
    },
    async ({ auth }) => ({ revoked: await revokeOtherSessions(deps, auth) }),
  );
}
