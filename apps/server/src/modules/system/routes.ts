import { healthSchema, outboxSchema, publicConfigSchema } from '@tradewind/contract/config';
import { LANGUAGES, DEFAULT_LANGUAGE } from '@tradewind/contract/languages';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import { DEV_ROUTE_PER_MINUTE } from '#platform/rate-limits.ts';
import type { Notifier } from '#platform/notifier.ts';
import { devOutbox } from '#platform/tables.ts';

const OUTBOX_PAGE = 50;

export function registerSystemRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: Config; notifier: Notifier },
): void {
  const { db, config, notifier } = deps;
  const startedAt = process.hrtime.bigint();

  route(
    app,
    {
      method: 'GET',
      url: '/api/health',
      auth: 'none',
      summary:
        'Liveness: the process answers (no database call; /api/ready says whether it can work)',
      tags: ['system'],
      response: healthSchema,
    },
    async () => ({
      status: 'ok' as const,
      role: config.role,
      version: config.version,
      uptimeS: Number((process.hrtime.bigint() - startedAt) / 1_000_000n) / 1000,
    }),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/config',
      auth: 'none',
      summary: 'Public client configuration',
      tags: ['system'],
      response: publicConfigSchema,
    },
    async () => ({
      imgBaseUrl: config.imgBaseUrl,
      languages: [...LANGUAGES],
      defaultLanguage: DEFAULT_LANGUAGE,
      demoMode: config.demoMode,
      version: config.version,
      features: {
        emailSignIn: notifier.available('email'),
        phoneSignIn: notifier.available('phone'),
        devOutbox: config.demoMode,
      },
      chat: config.chat,
    }),
  );

  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());

  // The dev outbox exists only in demo mode: outside it the route is not registered at all.
  if (config.demoMode) {
    route(
      app,
      {
        method: 'GET',
        url: '/api/v1/dev/outbox',
        auth: 'none',
        summary: 'Demo mode only: the codes and notices the notifier sent',
        tags: ['demo'],
        // One address's codes only: a listing of every address's codes would let anyone reset
        // anyone's password. Demo data, but a demo can run where people sign up for real.
        query: z.strictObject({ to: z.string().trim().min(3).max(254) }),
        response: outboxSchema,
        rateLimit: { max: DEV_ROUTE_PER_MINUTE, timeWindow: 60_000 },
      },
      async ({ query }) => {
        const rows = await db
          .select()
          .from(devOutbox)
          .where(eq(devOutbox.to, query.to))
          .orderBy(desc(devOutbox.id))
          .limit(OUTBOX_PAGE);
        return {
          items: rows.map((row) => ({
            id: String(row.id),
            channel: row.channel as 'email' | 'phone',
            to: row.to,
            subject: row.subject,
            body: row.body,
            createdAt: row.createdAt.toISOString(),
          })),
        };
      },
    );
  }
}
