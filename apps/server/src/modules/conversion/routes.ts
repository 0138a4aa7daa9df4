import {
  convertRequestSchema,
  convertResponseSchema,
  quoteRequestSchema,
  quoteSchema,
} from '@tradewind/contract/conversion';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import { readSharedSettings } from '../settings/service.ts';
import type { Ledger } from '../ledger/service.ts';
import { createQuote, executeQuote } from './service.ts';

const tags = ['conversion'];

export function registerConversionRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; config: Config; ledger: Ledger },
): void {
  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/convert/quote',
      auth: 'user',
      summary:
        'Quote a conversion between a coin and USDT at the latest recorded price (valid 10 s)',
      tags,
      body: quoteRequestSchema,
      response: quoteSchema,
      // Each quote is a stored row: a person needs a few a minute, not hundreds.
      rateLimit: { max: 60, timeWindow: 60_000 },
    },
    async ({ body, auth, lang }) =>
      createQuote(
        // The install's fee (modules/settings); the quote keeps it, so the conversion applies it.
        { db: deps.db, feeBps: (await readSharedSettings(deps.db)).convertFeeBps },
        deps.clock.now(),
        auth.userId,
        body,
        lang,
      ),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/convert',
      auth: 'user',
      money: true,
      summary: 'Execute one of your unexpired quotes, exactly once',
      tags,
      body: convertRequestSchema,
      response: convertResponseSchema,
    },
    ({ body, auth, tx, lang }) =>
      executeQuote(deps.ledger, tx, deps.clock.now(), auth.userId, body.quoteId, lang),
  );
}
