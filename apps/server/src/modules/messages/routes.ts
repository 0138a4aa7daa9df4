import { CATALOG_ROLES } from '@tradewind/contract/operator';
import {
  broadcastListSchema,
  broadcastRequestSchema,
  broadcastResultSchema,
  markReadRequestSchema,
  messageIdQuerySchema,
  messageListQuerySchema,
  messageListSchema,
  messageSchema,
  unreadCountSchema,
} from '@tradewind/contract/messages';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { route } from '#platform/http.ts';
import type { Hub } from '#platform/ws.ts';
import {
  BROADCAST_CHANNEL,
  broadcastMessage,
  listBroadcasts,
  getMessage,
  listMessages,
  markAllRead,
  markRead,
  unreadCount,
} from './service.ts';

const tags = ['messages'];

export function registerMessageRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; hub: Hub },
): void {
  deps.hub.allow((channel) => channel === BROADCAST_CHANNEL);

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/messages',
      auth: 'user',
      summary: 'Your messages, newest first, with the unread count',
      tags,
      query: messageListQuerySchema,
      response: messageListSchema,
    },
    async ({ auth, query }) => listMessages(deps.db, auth.userId, query.cursor),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/messages/unread',
      auth: 'user',
      summary: 'How many of your messages are unread (the badge)',
      tags,
      response: unreadCountSchema,
    },
    async ({ auth }) => ({ unread: await unreadCount(deps.db, auth.userId) }),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/v1/messages/detail',
      auth: 'user',
      summary: 'One of your messages',
      tags,
      query: messageIdQuerySchema,
      response: messageSchema,
    },
    async ({ auth, query }) => getMessage(deps.db, auth.userId, Number(query.id)),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/messages/read',
      auth: 'user',
      summary: 'Mark one of your messages read',
      tags,
      body: markReadRequestSchema,
      response: unreadCountSchema,
    },
    async ({ auth, body }) => ({
      unread: await markRead(deps.db, deps.clock.now(), auth.userId, Number(body.id)),
    }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/messages/read-all',
      auth: 'user',
      summary: 'Mark all your messages read',
      tags,
      response: unreadCountSchema,
    },
    async ({ auth }) => ({ unread: await markAllRead(deps.db, deps.clock.now(), auth.userId) }),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/api/admin/v1/messages/broadcast',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Send a message to every user, in their language (audit-logged)',
      tags,
      body: broadcastRequestSchema,
      response: broadcastResultSchema,
    },
    async ({ operator, body }) =>
      broadcastMessage(deps.db, deps.hub, deps.clock.now(), operator, body),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/api/admin/v1/messages/broadcasts',
      auth: 'operator',
      roles: CATALOG_ROLES,
      summary: 'Broadcasts sent, newest first, in every language',
      tags,
      response: broadcastListSchema,
    },
    async () => ({ items: await listBroadcasts(deps.db) }),
  );
}
