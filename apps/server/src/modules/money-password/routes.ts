import {
  moneyPasswordStatusSchema,
  sendMoneyPasswordCodeRequestSchema,
  sendMoneyPasswordCodeResponseSchema,
  setMoneyPasswordRequestSchema,
} from '@tradewind/contract/money-password';
import type { FastifyInstance } from 'fastify';
import { route } from '#platform/http.ts';
import {
  type MoneyPasswordDeps,
  moneyPasswordStatus,
  sendMoneyPasswordCode,
  setMoneyPassword,
} from './service.ts';

const MINUTE_MS = 60_000;
const tags = ['money-password'];

export function registerMoneyPasswordRoutes(app: FastifyInstance, deps: MoneyPasswordDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/money-passwords',
      auth: 'user',
      summary: 'Which money passwords are set (withdrawal, trading)',
      tags,
      response: moneyPasswordStatusSchema,
    },
    async ({ auth }) => moneyPasswordStatus(deps.db, deps.clock.now(), auth.userId),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/money-passwords/codes',
      auth: 'user',
      summary: "Send a code to the account's own email or phone, to set or change a money password",
      tags,
      body: sendMoneyPasswordCodeRequestSchema,
      response: sendMoneyPasswordCodeResponseSchema,
      rateLimit: { max: 5, timeWindow: MINUTE_MS },
    },
    async ({ body, auth, request }) =>
      sendMoneyPasswordCode(deps, auth.userId, body, { ip: request.ip, language: request.lang }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/money-passwords',
      auth: 'user',
      summary:
        'Set or change the withdrawal or trading password (6 digits), proven by the login password or a code',
      tags,
      body: setMoneyPasswordRequestSchema,
      response: moneyPasswordStatusSchema,
      rateLimit: { max: 10, timeWindow: MINUTE_MS },
    },
    async ({ body, auth }) => {
      await setMoneyPassword(deps, auth.userId, body);
      return moneyPasswordStatus(deps.db, deps.clock.now(), auth.userId);
    },
  );
}
