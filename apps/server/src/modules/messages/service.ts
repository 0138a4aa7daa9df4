import { type Language, isLanguage } from '@tradewind/contract/languages';
import {
  BROADCAST_LIST_MAX,
  type BroadcastRequest,
  type BroadcastView,
  MESSAGE_BODY_MAX,
  MESSAGE_PAGE_SIZE,
  type Message,
  type MessageCreatedEvent,
  type MessageKind,
  type MessageList,
} from '@tradewind/contract/messages';
import { and, count, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Executor, NamedStatement } from '#platform/db.ts';
import { runNamed } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { type Params, translate } from '#platform/i18n.ts';
import type { Hub } from '#platform/ws.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { operators } from '../operator/tables.ts';
import type { LocalizedText } from '../vote/tables.ts';
import { type UserMessageRow, messageBroadcasts, userMessages } from './tables.ts';

/**
 * In-site messages (spec /Msg, /MsgDetail). Events write them inside their own transaction,
 * set-based (one statement for any number of messages), in each owner's language from the
 * templates `messages.templates.<kind>`; after the commit the owners hear `message.new` on
 * their channel. Raises MESSAGE_NOT_FOUND (a message that is not the caller's, as if absent).
 */

/** A message an event asks for. `ref` names the cause (`contract:42`, `kyc:7`). */
export interface MessageSpec {
  userId: number;
  kind: Exclude<MessageKind, 'broadcast'>;
  ref: string;
  params?: Params;
  /** Parameters whose values are i18n keys, translated into the owner's language (an outcome, a direction). */
  keyParams?: Record<string, string>;
  link?: string | null;
}

/** A message just created, with its owner: what is pushed after the commit. */
export interface CreatedMessage {
  userId: number;
  message: Message;
}

/** The public channel that tells every signed-in client a broadcast went out. */
export const BROADCAST_CHANNEL = 'messages.broadcast';

const USER_LANGUAGES: NamedStatement = {
  name: 'messages_user_languages',
  text: 'select id::text, language from users where id = any($1::bigint[])',
};

const INSERT_MESSAGES: NamedStatement = {
  name: 'messages_insert',
  text: `insert into user_messages (user_id, kind, ref, language, title, body, link, created_at)
         select m.*, $8::timestamptz from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) as m
         returning id::text, user_id::text, kind, title, body, link`,
};

/** A stored language, or English for one we do not know. */
export function languageOf(value: string | undefined): Language {
  return isLanguage(value) ? value : 'en';
}

const templateKey = (kind: MessageKind) => `messages.templates.${kind.replace('.', '_')}`;

/** Renders a message in a language: the template with its parameters, key parameters translated too. */
export function renderMessage(
  spec: Pick<MessageSpec, 'kind' | 'params' | 'keyParams'>,
  language: Language,
): { title: string; body: string } {
  const params: Params = { ...spec.params };
  for (const [name, key] of Object.entries(spec.keyParams ?? {}))
    params[name] = translate(language, key);
  const key = templateKey(spec.kind);
  return {
    title: translate(language, `${key}.title`, params),
    body: translate(language, `${key}.body`, params).slice(0, MESSAGE_BODY_MAX),
  };
}

/**
 * Writes messages in the caller's transaction: two statements whatever their number (the
 * owners' languages, then one insert). Call it in the event's own transaction: the message
 * then exists exactly when the event does, once.
 */
export async function createMessages(
  tx: Executor,
  now: Date,
  specs: readonly MessageSpec[],
): Promise<CreatedMessage[]> {
  if (specs.length === 0) return [];
  const userIds = [...new Set(specs.map((s) => String(s.userId)))];
  const languages = new Map(
    (await runNamed<{ id: string; language: string }>(tx, USER_LANGUAGES, [userIds])).map((r) => [
      Number(r.id),
      languageOf(r.language),
    ]),
  );
  const columns: string[][] = [[], [], [], [], [], []];
  const links: (string | null)[] = [];
  for (const spec of specs) {
    const language = languages.get(spec.userId) ?? 'en';
    const { title, body } = renderMessage(spec, language);
    const row = [String(spec.userId), spec.kind, spec.ref, language, title, body];
    row.forEach((value, i) => columns[i]?.push(value));
    links.push(spec.link ?? null);
  }
  const rows = await runNamed<{
    id: string;
    user_id: string;
    kind: MessageKind;
    title: string;
    body: string;
    link: string | null;
  }>(tx, INSERT_MESSAGES, [...columns, links, now]);
  return rows.map((r) => ({
    userId: Number(r.user_id),
    message: {
      id: r.id,
      kind: r.kind,
      title: r.title,
      body: r.body,
      link: r.link,
      read: false,
      createdAt: now.toISOString(),
    },
  }));
}

/**
 * After the commit: one `message.new` per user, carrying the newest of their new messages
 * and how many there were (a settlement batch can write several for one user).
 */
export function publishMessages(hub: Hub | undefined, created: readonly CreatedMessage[]): void {
  if (!hub || created.length === 0) return;
  const perUser = new Map<number, MessageCreatedEvent>();
  for (const { userId, message } of created) {
    const seen = perUser.get(userId);
    perUser.set(userId, { type: 'message.new', message, count: (seen?.count ?? 0) + 1 });
  }
  for (const [userId, event] of perUser) hub.publishToUser(userId, event);
}

function toMessage(row: UserMessageRow): Message {
  return {
    id: String(row.id),
    kind: row.kind as MessageKind,
    title: row.title,
    body: row.body,
    link: row.link,
    read: row.readAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function unreadCount(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(userMessages)
    .where(and(eq(userMessages.userId, userId), isNull(userMessages.readAt)));
  return Number(row?.n ?? 0);
}

/** The user's messages, newest first, a page at a time, with the unread count for the badge. */
export async function listMessages(
  db: Executor,
  userId: number,
  cursor?: string,
  limit = MESSAGE_PAGE_SIZE,
): Promise<MessageList> {
  const rows = await db
    .select()
    .from(userMessages)
    .where(
      and(
        eq(userMessages.userId, userId),
        cursor ? lt(userMessages.id, Number(cursor)) : undefined,
      ),
    )
    .orderBy(desc(userMessages.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map(toMessage),
    nextCursor: rows.length > limit ? String(page[page.length - 1]?.id) : null,
    unread: await unreadCount(db, userId),
  };
}

/** One of the user's messages; someone else's is NOT_FOUND. */
export async function getMessage(db: Executor, userId: number, id: number): Promise<Message> {
  const [row] = await db
    .select()
    .from(userMessages)
    .where(and(eq(userMessages.id, id), eq(userMessages.userId, userId)))
    .limit(1);
  if (!row) throw new AppError('MESSAGE_NOT_FOUND', {}, 404);
  return toMessage(row);
}

/** Marks one of the user's messages read (again: no change); returns the unread count. */
export async function markRead(db: Db, now: Date, userId: number, id: number): Promise<number> {
  const [row] = await db
    .update(userMessages)
    .set({ readAt: sql`coalesce(${userMessages.readAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(userMessages.id, id), eq(userMessages.userId, userId)))
    .returning({ id: userMessages.id });
  if (!row) throw new AppError('MESSAGE_NOT_FOUND', {}, 404);
  return unreadCount(db, userId);
}

export async function markAllRead(db: Db, now: Date, userId: number): Promise<number> {
  await db
    .update(userMessages)
    .set({ readAt: now })
    .where(and(eq(userMessages.userId, userId), isNull(userMessages.readAt)));
  return 0;
}

/**
 * An operator's message to every user, each in their language (English where the
 * operator gave none): one set-based insert, the broadcast's record and the audit entry in
 * one transaction. Clients hear it on the public broadcast channel.
 */
export async function broadcastMessage(
  db: Db,
  hub: Hub | undefined,
  now: Date,
  operator: OperatorContext,
  request: BroadcastRequest,
): Promise<{ broadcastId: string; recipients: number }> {
  const result = await db.transaction(async (tx) => {
    const [record] = await tx
      .insert(messageBroadcasts)
      .values({
        title: request.title as LocalizedText,
        body: request.body as LocalizedText,
        operatorId: operator.operatorId,
        recipients: 0,
        createdAt: now,
      })
      .returning({ id: messageBroadcasts.id });
    if (!record) throw new Error('broadcast insert returned no row');
    const title = JSON.stringify(request.title);
    const body = JSON.stringify(request.body);
    const inserted = await tx.execute(sql`
      insert into user_messages (user_id, kind, ref, language, title, body, created_at)
      select u.id, 'broadcast', ${`broadcast:${record.id}`}, u.language,
             coalesce(nullif(${title}::jsonb ->> u.language, ''), ${title}::jsonb ->> 'en'),
             coalesce(nullif(${body}::jsonb ->> u.language, ''), ${body}::jsonb ->> 'en'),
             ${now.toISOString()}::timestamptz
      from users u`);
    const recipients = Number(
      (inserted as unknown as { rowCount?: number; affectedRows?: number }).rowCount ??
        (inserted as { affectedRows?: number }).affectedRows ??
        0,
    );
    await tx
      .update(messageBroadcasts)
      .set({ recipients })
      .where(eq(messageBroadcasts.id, record.id));
    await audit(tx, now, operator, {
      action: 'message.broadcast',
      targetType: 'message_broadcast',
      targetId: record.id,
      after: { title: request.title.en, recipients },
    });
    return { broadcastId: String(record.id), recipients };
  });
  hub?.publish(BROADCAST_CHANNEL, { type: 'message.new', broadcast: true });
  return result;
}

/** Broadcasts sent, newest first, as they were sent (every language), with who sent them. */
export async function listBroadcasts(db: Executor): Promise<BroadcastView[]> {
  const rows = await db
    .select({ broadcast: messageBroadcasts, operator: operators.username })
    .from(messageBroadcasts)
    .innerJoin(operators, eq(operators.id, messageBroadcasts.operatorId))
    .orderBy(desc(messageBroadcasts.id))
    .limit(BROADCAST_LIST_MAX);
  return rows.map(({ broadcast, operator }) => ({
    id: String(broadcast.id),
    title: broadcast.title,
    body: broadcast.body,
    recipients: broadcast.recipients,
    operator,
    createdAt: broadcast.createdAt.toISOString(),
  }));
}
