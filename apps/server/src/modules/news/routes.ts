import { ADMIN_ROLES } from '@tradewind/contract/operator';
import { articleAdminSchema, articleIdQuerySchema, articleListQuerySchema, articleListSchema, articleSaveRequestSchema, articleSchema } from '@tradewind/contract/messages';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import { getArticle, listArticles, saveArticle } from './service.ts';

const tags = ['news'];

export function registerNewsRoutes(app: FastifyInstance, deps: { db: Db; clock: Clock }): void {
  route(
    app,
    { method: 'GET', url: '/api/v1/news', auth: 'none', summary: 'Published news or notices, newest first, in your language', tags, query: articleListQuerySchema, response: articleListSchema },
    async ({ query, lang }) => listArticles(deps.db, deps.clock.now(), query.kind, lang, query.cursor),
  );

  route(
    app,
    { method: 'GET', url: '/api/v1/news/detail', auth: 'none', summary: 'One published article with its sanitised body', tags, query: articleIdQuerySchema, response: articleSchema },
    async ({ query, lang }) => getArticle(deps.db, deps.clock.now(), Number(query.id), lang),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/news/save',
      auth: 'operator',
      roles: ['catalog', ...ADMIN_ROLES],
      summary: 'Create (no id) or edit a news article or notice; bodies are sanitised (audit-logged)',
      tags,
      body: articleSaveRequestSchema,
      response: articleAdminSchema,
    },
    async ({ operator, body }) => saveArticle(deps.db, deps.clock.now(), operator, body),
  );
}
