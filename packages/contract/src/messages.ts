import { z } from 'zod';
import { idSchema } from './bank-card.ts';
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
  link: z.string().nullable(),
  read: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type Message = z.infer<typeof messageSchema>;

export const messageListQuerySchema = z.strictObject({ cursor: idSchema.optional() });
export const messageListSchema = z.object({ items: z.array(messageSchema), nextCursor: z.string().nullable(), unread: z.number().int().nonnegative() });
export type MessageList = z.infer<typeof messageListSchema>;

export const messageIdQuerySchema = z.strictObject({ id: idSchema });
export const unreadCountSchema = z.object({ unread: z.number().int().nonnegative() });
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
  z
    .object({ en: z.string().trim().min(1, { error: 'validation.required' }).max(max, { error: 'validation.too_long' }) })
    .extend(Object.fromEntries(LANGUAGES.filter((l) => l !== 'en').map((l) => [l, z.string().trim().max(max, { error: 'validation.too_long' }).optional()])))
    .strict();

export const broadcastRequestSchema = z.strictObject({
  title: localizedTextSchema(MESSAGE_TITLE_MAX),
  body: localizedTextSchema(MESSAGE_BODY_MAX),
});
export type BroadcastRequest = z.infer<typeof broadcastRequestSchema>;
export const broadcastResultSchema = z.object({ broadcastId: z.string(), recipients: z.number().int().nonnegative() });

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
  cover: z.string().nullable(),
  publishedAt: z.iso.datetime(),
});
export type ArticleSummary = z.infer<typeof articleSummarySchema>;

/** `body` is HTML that the server sanitised with an allow-list when it was saved. */
export const articleSchema = articleSummarySchema.extend({ body: z.string() });
export type Article = z.infer<typeof articleSchema>;

export const articleListQuerySchema = z.strictObject({ kind: z.enum(ARTICLE_KINDS), cursor: idSchema.optional() });
export const articleListSchema = z.object({ items: z.array(articleSummarySchema), nextCursor: z.string().nullable() });
export type ArticleList = z.infer<typeof articleListSchema>;
export const articleIdQuerySchema = z.strictObject({ id: idSchema });

export const articleSaveRequestSchema = z.strictObject({
  /** Absent: a new article. */
  id: idSchema.optional(),
  kind: z.enum(ARTICLE_KINDS),
  title: localizedTextSchema(ARTICLE_TITLE_MAX),
  summary: localizedTextSchema(ARTICLE_SUMMARY_MAX),
  body: localizedTextSchema(ARTICLE_BODY_MAX),
  /** An image URL (https, or a path on this site such as /api/v1/files/…), or null. */
  cover: z
    .string()
    .max(500)
    .regex(/^(https:\/\/|\/)[^\s"'<>]*$/, { error: 'validation.invalid_value' })
    .nullable(),
  publishedAt: z.iso.datetime(),
});
export type ArticleSaveRequest = z.infer<typeof articleSaveRequestSchema>;
export const articleAdminSchema = z.object({ id: z.string(), kind: z.enum(ARTICLE_KINDS), title: z.string(), publishedAt: z.iso.datetime() });

/* Operators: news and notices, broadcasts (the console's content pages). */

/** Texts as stored, per language; English is always there. */
export const localizedTextViewSchema = z.object({
  en: z.string(),
  zh_TW: z.string().optional(),
  zh_CN: z.string().optional(),
  es: z.string().optional(),
  fr: z.string().optional(),
  it: z.string().optional(),
  de: z.string().optional(),
} satisfies Record<(typeof LANGUAGES)[number], z.ZodType>);
export type LocalizedTextView = z.infer<typeof localizedTextViewSchema>;

/** Where an article stands for readers: before its publish time, visible, or taken down by an operator. */
export const ARTICLE_STATES = ['scheduled', 'published', 'unpublished'] as const;
export type ArticleState = (typeof ARTICLE_STATES)[number];

export const ARTICLE_ADMIN_PAGE_SIZE = 50;
export const articleAdminListQuerySchema = z.strictObject({ kind: z.enum(ARTICLE_KINDS, { error: 'validation.invalid_value' }).optional(), cursor: idSchema.optional() });
export const articleAdminItemSchema = z.object({
  id: z.string(),
  kind: z.enum(ARTICLE_KINDS),
  title: z.string(),
  /** Languages with a body. */
  languages: z.array(z.enum(LANGUAGES)),
  cover: z.string().nullable(),
  state: z.enum(ARTICLE_STATES),
  publishedAt: z.iso.datetime(),
  unpublishedAt: z.iso.datetime().nullable(),
  updatedAt: z.iso.datetime(),
});
export type ArticleAdminItem = z.infer<typeof articleAdminItemSchema>;
export const articleAdminListSchema = z.object({ items: z.array(articleAdminItemSchema), nextCursor: z.string().nullable() });
export type ArticleAdminList = z.infer<typeof articleAdminListSchema>;

/** Everything an editor needs: every language's title, summary and (sanitised) body. */
export const articleAdminDetailSchema = articleAdminItemSchema.omit({ title: true, languages: true }).extend({
  title: localizedTextViewSchema,
  summary: localizedTextViewSchema,
  body: localizedTextViewSchema,
});
export type ArticleAdminDetail = z.infer<typeof articleAdminDetailSchema>;

export const articleUnpublishRequestSchema = z.strictObject({ id: idSchema, reason: z.string().trim().max(500, { error: 'validation.too_long' }).optional() });
export const articleRepublishRequestSchema = z.strictObject({ id: idSchema });

export const BROADCAST_LIST_MAX = 50;
export const broadcastViewSchema = z.object({
  id: z.string(),
  title: localizedTextViewSchema,
  body: localizedTextViewSchema,
  recipients: z.number().int().nonnegative(),
  operator: z.string(),
  createdAt: z.iso.datetime(),
});
export type BroadcastView = z.infer<typeof broadcastViewSchema>;
export const broadcastListSchema = z.object({ items: z.array(broadcastViewSchema) });

/** `POST /api/admin/v1/news/cover` (multipart, one `file`): a public image for an article's cover. */
export const articleCoverSchema = z.object({ id: z.string(), url: z.string(), width: z.number().int(), height: z.number().int() });
export type ArticleCover = z.infer<typeof articleCoverSchema>;
