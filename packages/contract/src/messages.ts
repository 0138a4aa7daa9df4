import * as z from 'zod/mini';
import { idSchema } from './ids.ts';
import { LANGUAGES } from './languages.ts';

/**
 * In-site messages (spec /Msg, /MsgDetail) and news and notices (spec /NewsDetail,
 * /NoticeDetail, Home's news). A message is written once, in its owner's language, when the
 * event happens (a deposit credited, a withdrawal's status, a KYC result, a contract
 * settled, an operator's broadcast), and kept per user with its read time.
 */

export const MESSAGE_KINDS = [
  'deposit.credited',
  'deposit.rejected',
  'withdrawal.processing',
  'withdrawal.success',
  'withdrawal.review_failed',
  'withdrawal.failed',
  'kyc.approved',
  'kyc.rejected',
  'contract.settled',
  'mining.approved',
  'mining.rejected',
  'mining.completed',
  'loan.approved',
  'loan.rejected',
  'loan.disbursed',
  'loan.overdue',
  'loan.repaid',
  'ieo.subscribed',
  'ieo.allocated',
  'ieo.refunded',
  'ieo.listed',
  'ieo.cancelled',
  'account.adjusted',
  'account.sign_in_throttled',
  'broadcast',
  'welcome',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
/** What a message's icon and label go by: `deposit.credited` → `deposit`. */
type GroupOf<Kind> = Kind extends `${infer Group}.${string}` ? Group : Kind;
export type MessageGroup = GroupOf<MessageKind>;
export const messageGroup = (kind: MessageKind) => (kind.split('.')[0] ?? kind) as MessageGroup;

export const MESSAGE_PAGE_SIZE = 20;
export const MESSAGE_TITLE_MAX = 120;
export const MESSAGE_BODY_MAX = 2000;

export const messageSchema = z.object({
  id: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  title: z.string(),
  body: z.string(),
  /** An in-app path the message is about (e.g. `/ContractDetail?id=…`), or null. */
  link: z.nullable(z.string()),
  read: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type Message = z.infer<typeof messageSchema>;

export const messageListQuerySchema = z.strictObject({ cursor: z.optional(idSchema) });
export const messageListSchema = z.object({
  items: z.array(messageSchema),
  nextCursor: z.nullable(z.string()),
  unread: z.number().check(z.int(), z.nonnegative()),
});
export type MessageList = z.infer<typeof messageListSchema>;

export const messageIdQuerySchema = z.strictObject({ id: idSchema });
export const unreadCountSchema = z.object({ unread: z.number().check(z.int(), z.nonnegative()) });
export type UnreadCount = z.infer<typeof unreadCountSchema>;
export const markReadRequestSchema = z.strictObject({ id: idSchema });

/** What the user's WebSocket channel carries when messages are created for them. */
export interface MessageCreatedEvent {
  type: 'message.new';
  message: Message;
  /** How many were created for this user at once (a settlement batch may create several). */
  count: number;
}

/** A text in several languages; English is required and is the fallback. */
export const localizedTextSchema = (max: number) =>
  z.strictObject({
    en: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, { error: 'validation.required' }),
        z.maxLength(max, { error: 'validation.too_long' }),
      ),
    ...Object.fromEntries(
      LANGUAGES.filter((l) => l !== 'en').map((l) => [
        l,
        z.optional(z.string().check(z.trim(), z.maxLength(max, { error: 'validation.too_long' }))),
      ]),
    ),
  });

export const broadcastRequestSchema = z.strictObject({
  title: localizedTextSchema(MESSAGE_TITLE_MAX),
  body: localizedTextSchema(MESSAGE_BODY_MAX),
});
export type BroadcastRequest = z.infer<typeof broadcastRequestSchema>;
export const broadcastResultSchema = z.object({
  broadcastId: z.string(),
  recipients: z.number().check(z.int(), z.nonnegative()),
});

// News and notices.

export const ARTICLE_KINDS = ['news', 'notice'] as const;
export type ArticleKind = (typeof ARTICLE_KINDS)[number];
export const ARTICLE_PAGE_SIZE = 20;
export const ARTICLE_TITLE_MAX = 160;
export const ARTICLE_SUMMARY_MAX = 400;
export const ARTICLE_BODY_MAX = 50_000;

export const articleSummarySchema = z.object({
  id: z.string(),
  kind: z.enum(ARTICLE_KINDS),
  title: z.string(),
  summary: z.string(),
  cover: z.nullable(z.string()),
  publishedAt: z.iso.datetime(),
});
export type ArticleSummary = z.infer<typeof articleSummarySchema>;

/** `body` is HTML that the server sanitised with an allow-list when it was saved. */
export const articleSchema = z.extend(articleSummarySchema, { body: z.string() });
export type Article = z.infer<typeof articleSchema>;

export const articleListQuerySchema = z.strictObject({
  kind: z.enum(ARTICLE_KINDS),
  cursor: z.optional(idSchema),
});
export const articleListSchema = z.object({
  items: z.array(articleSummarySchema),
  nextCursor: z.nullable(z.string()),
});
export type ArticleList = z.infer<typeof articleListSchema>;
export const articleIdQuerySchema = z.strictObject({ id: idSchema });

export const articleSaveRequestSchema = z.strictObject({
  /** Absent: a new article. */
  id: z.optional(idSchema),
  kind: z.enum(ARTICLE_KINDS),
  title: localizedTextSchema(ARTICLE_TITLE_MAX),
  summary: localizedTextSchema(ARTICLE_SUMMARY_MAX),
  body: localizedTextSchema(ARTICLE_BODY_MAX),
  /** An image URL (https, or a path on this site such as /api/v1/files/…), or null. */
  cover: z.nullable(
    z
      .string()
      .check(
        z.maxLength(500),
        z.regex(/^(https:\/\/|\/)[^\s"'<>]*$/, { error: 'validation.invalid_value' }),
      ),
  ),
  publishedAt: z.iso.datetime(),
});
export type ArticleSaveRequest = z.infer<typeof articleSaveRequestSchema>;
export const articleAdminSchema = z.object({
  id: z.string(),
  kind: z.enum(ARTICLE_KINDS),
  title: z.string(),
  publishedAt: z.iso.datetime(),
});

/* Operators: news and notices, broadcasts (the console's content pages). */

/** Texts as stored, per language; English is always there. */
export const localizedTextViewSchema = z.object({
  en: z.string(),
  zh_TW: z.optional(z.string()),
  zh_CN: z.optional(z.string()),
  es: z.optional(z.string()),
  fr: z.optional(z.string()),
  it: z.optional(z.string()),
  de: z.optional(z.string()),
} satisfies Record<(typeof LANGUAGES)[number], z.ZodMiniType>);
export type LocalizedTextView = z.infer<typeof localizedTextViewSchema>;

/** Where an article stands for readers: before its publish time, visible, or taken down by an operator. */
export const ARTICLE_STATES = ['scheduled', 'published', 'unpublished'] as const;
export type ArticleState = (typeof ARTICLE_STATES)[number];

export const ARTICLE_ADMIN_PAGE_SIZE = 50;
export const articleAdminListQuerySchema = z.strictObject({
  kind: z.optional(z.enum(ARTICLE_KINDS, { error: 'validation.invalid_value' })),
  cursor: z.optional(idSchema),
});
export const articleAdminItemSchema = z.object({
  id: z.string(),
  kind: z.enum(ARTICLE_KINDS),
  title: z.string(),
  /** Languages with a body. */
  languages: z.array(z.enum(LANGUAGES)),
  cover: z.nullable(z.string()),
  state: z.enum(ARTICLE_STATES),
  publishedAt: z.iso.datetime(),
  unpublishedAt: z.nullable(z.iso.datetime()),
  updatedAt: z.iso.datetime(),
});
export type ArticleAdminItem = z.infer<typeof articleAdminItemSchema>;
export const articleAdminListSchema = z.object({
  items: z.array(articleAdminItemSchema),
  nextCursor: z.nullable(z.string()),
});
export type ArticleAdminList = z.infer<typeof articleAdminListSchema>;

/** Everything an editor needs: every language's title, summary and (sanitised) body. */
export const articleAdminDetailSchema = z.extend(
  z.omit(articleAdminItemSchema, { title: true, languages: true }),
  {
    title: localizedTextViewSchema,
    summary: localizedTextViewSchema,
    body: localizedTextViewSchema,
  },
);
export type ArticleAdminDetail = z.infer<typeof articleAdminDetailSchema>;

export const articleUnpublishRequestSchema = z.strictObject({
  id: idSchema,
  reason: z.optional(
    z.string().check(z.trim(), z.maxLength(500, { error: 'validation.too_long' })),
  ),
});
export const articleRepublishRequestSchema = z.strictObject({ id: idSchema });

export const BROADCAST_LIST_MAX = 50;
export const broadcastViewSchema = z.object({
  id: z.string(),
  title: localizedTextViewSchema,
  body: localizedTextViewSchema,
  recipients: z.number().check(z.int(), z.nonnegative()),
  operator: z.string(),
  createdAt: z.iso.datetime(),
});
export type BroadcastView = z.infer<typeof broadcastViewSchema>;
export const broadcastListSchema = z.object({ items: z.array(broadcastViewSchema) });

/** `POST /api/admin/v1/news/cover` (multipart, one `file`): a public image for an article's cover. */
export const articleCoverSchema = z.object({
  id: z.string(),
  url: z.string(),
  width: z.number().check(z.int()),
  height: z.number().check(z.int()),
});
export type ArticleCover = z.infer<typeof articleCoverSchema>;
