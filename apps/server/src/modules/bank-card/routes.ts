import {
  BANK_CARD_MAX,
  addBankCardRequestSchema,
  bankCardListSchema,
  bankCardSchema,
  deleteBankCardRequestSchema,
} from '@tradewind/contract/bank-card';
import { okSchema } from '@tradewind/contract/envelope';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import { addBankCard, deleteBankCard, listBankCards, toBankCard } from './service.ts';

const tags = ['bank-card'];

export function registerBankCardRoutes(app: FastifyInstance, deps: { db: Db; clock: Clock }): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/bank-cards',
      auth: 'user',
      summary: 'Your linked bank cards',
      tags,
      response: bankCardListSchema,
    },
    async ({ auth }) => ({
      items: (await listBankCards(deps.db, auth.userId)).map(toBankCard),
      max: BANK_CARD_MAX,
    }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/bank-cards',
      auth: 'user',
      summary: `Link a bank card (at most ${BANK_CARD_MAX})`,
      tags,
      body: addBankCardRequestSchema,
      response: bankCardSchema,
      rateLimit: { max: 20, timeWindow: 60_000 },
    },
    async ({ body, auth }) =>
      toBankCard(await addBankCard(deps.db, deps.clock.now(), auth.userId, body)),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/bank-cards/delete',
      auth: 'user',
      summary: 'Unlink one of your bank cards',
      tags,
      body: deleteBankCardRequestSchema,
      response: okSchema,
    },
    async ({ body, auth }) => {
      await deleteBankCard(deps.db, deps.clock.now(), auth.userId, Number(body.id));
      return { ok: true as const };
    },
  );
}
