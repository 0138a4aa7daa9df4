import { okSchema } from '@tradewind/contract/envelope';
import { sessionResponseSchema } from '@tradewind/contract/auth';
import {
  antiPhishingRequestSchema,
  loginSecondStepRequestSchema,
  securityOverviewSchema,
  twoFactorDisableRequestSchema,
  twoFactorEnableRequestSchema,
  twoFactorEnableResponseSchema,
  twoFactorSetupSchema,
} from '@tradewind/contract/security';
import type { FastifyInstance } from 'fastify';
import type { Config } from '#platform/config.ts';
import { route } from '#platform/http.ts';
import { completeLogin } from './login.ts';
import {
  type SecurityDeps,
  disableTwoFactor,
  enableTwoFactor,
  securityOverview,
  setAntiPhishingCode,
  setupTwoFactor,
} from './service.ts';

const MINUTE_MS = 60_000;
const tags = ['security'];

export function registerSecurityRoutes(
  app: FastifyInstance,
  deps: SecurityDeps & { config: Config },
): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/security',
      auth: 'user',
      summary:
        'Security centre: devices, sign-in history, two-factor, anti-phishing code, withdrawal pause',
      tags,
      response: securityOverviewSchema,
    },
    async ({ auth }) => securityOverview(deps, auth),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/auth/login/2fa',
      auth: 'none',
      summary:
        'Sign-in step 2: the challenge from /auth/login and an authenticator or recovery code',
      tags: ['auth', ...tags],
      body: loginSecondStepRequestSchema,
      response: sessionResponseSchema,
      rateLimit: { max: 10, timeWindow: MINUTE_MS },
    },
    async ({ body, request }) =>
      completeLogin(deps, body, {
        ip: request.ip,
        device: String(request.headers['user-agent'] ?? ''),
      }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/security/2fa/setup',
      auth: 'user',
      summary: 'Two-factor enrolment, step 1: a new secret and its otpauth:// URI',
      tags,
      response: twoFactorSetupSchema,
      rateLimit: { max: 10, timeWindow: MINUTE_MS },
    },
    async ({ auth }) => setupTwoFactor(deps, auth),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/security/2fa/enable',
      auth: 'user',
      summary:
        'Two-factor enrolment, step 2: confirm with a code; returns 10 recovery codes once; pauses withdrawals 24 h',
      tags,
      body: twoFactorEnableRequestSchema,
      response: twoFactorEnableResponseSchema,
      rateLimit: { max: 10, timeWindow: MINUTE_MS },
    },
    async ({ auth, body }) => enableTwoFactor(deps, auth, body.code),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/security/2fa/disable',
      auth: 'user',
      summary: 'Turn two-factor off with a code or a recovery code; pauses withdrawals 24 h',
      tags,
      body: twoFactorDisableRequestSchema,
      response: okSchema,
      rateLimit: { max: 10, timeWindow: MINUTE_MS },
    },
    async ({ auth, body }) => {
      await disableTwoFactor(deps, auth, body.code);
      return { ok: true as const };
    },
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/security/anti-phishing',
      auth: 'user',
      summary: 'Set (or clear, with "") the code printed in every email we send you',
      tags,
      body: antiPhishingRequestSchema,
      response: okSchema,
    },
    async ({ auth, body }) => {
      await setAntiPhishingCode(deps, auth, body.code);
      return { ok: true as const };
    },
  );
}
