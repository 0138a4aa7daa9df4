import {
  articleAdminDetailSchema,
  articleAdminListQuerySchema,
  articleAdminListSchema,
  articleAdminSchema,
  articleCoverSchema,
  articleIdQuerySchema,
  articleListQuerySchema,
  articleListSchema,
  articleRepublishRequestSchema,
  articleSaveRequestSchema,
  articleSchema,
  articleUnpublishRequestSchema,
} from '@tradewind/contract/messages';
import { CATALOG_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import type { FileStore } from '#platform/files.ts';
import { route } from '#platform/http.ts';
import { readSharedSettings } from '../settings/service.ts';
import { readCover, storeCover } from './cover.ts';
import {
  articleForOperators,
  getArticle,
  listArticles,
  listArticlesForOperators,
  saveArticle,
  setArticlePublished,
} from './service.ts';

const tags = ['news'];

export function registerNewsRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; config: Config; fileStore: FileStore },
): void {
  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/news',
      auth: 'none',
      summary: 'Published news or notices, newest first, in your language',
      tags,
      query: articleListQuerySchema,
      response: articleListSchema,
    },
    async ({ query, lang }) =>
      listArticles(deps.db, deps.clock.now(), query.kind, lang, query.cursor),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/news/detail',
      auth: 'none',
      summary: 'One published article with its sanitised body',
      tags,
      query: articleIdQuerySchema,
      response: articleSchema,
    },
    async ({ query, lang }) => getArticle(deps.db, deps.clock.now(), Number(query.id), lang),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/news/save',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary:
        'Create (no id) or edit a news article or notice; bodies are sanitised (audit-logged)',
      tags,
      body: articleSaveRequestSchema,
      response: articleAdminSchema,
    },
    async ({ operator, body }) => saveArticle(deps.db, deps.clock.now(), operator, body),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/news',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary:
        'Every article or notice (scheduled, published, unpublished), newest publish time first',
      tags,
      query: articleAdminListQuerySchema,
      response: articleAdminListSchema,
    },
    async ({ query }) =>
      listArticlesForOperators(deps.db, deps.clock.now(), query.kind, query.cursor),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/news/detail',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'One article with every language, for the editor',
      tags,
      query: articleIdQuerySchema,
      response: articleAdminDetailSchema,
    },
    async ({ query }) => articleForOperators(deps.db, deps.clock.now(), Number(query.id)),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/news/unpublish',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Take an article down at once (audit-logged)',
      tags,
      body: articleUnpublishRequestSchema,
      response: articleAdminDetailSchema,
    },
    async ({ operator, body }) =>
      setArticlePublished(deps.db, deps.clock.now(), operator, Number(body.id), false, body.reason),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/news/republish',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Put an unpublished article back (audit-logged)',
      tags,
      body: articleRepublishRequestSchema,
      response: articleAdminDetailSchema,
    },
    async ({ operator, body }) =>
      setArticlePublished(deps.db, deps.clock.now(), operator, Number(body.id), true),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/news/cover',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary:
        'Upload a cover image (multipart: file); re-encoded, public, audit-logged; returns its URL',
      tags,
      response: articleCoverSchema,
      rateLimit: { max: 30, timeWindow: 60_000 },
    },
    async ({ operator, request }) =>
      storeCover(
        deps,
        deps.clock.now(),
        operator,
        await readCover(request, (await readSharedSettings(deps.db)).uploads.maxBytes),
      ),
  );
}
