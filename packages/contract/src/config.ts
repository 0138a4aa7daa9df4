import * as z from 'zod/mini';
import { LANGUAGES } from './languages.ts';

/** `GET /api/v1/config`: what the client needs before anyone signs in. */
export const publicConfigSchema = z.object({
  /** Host of public images (avatars, news covers); the client stores it as `imgBaseUrl`. */
  imgBaseUrl: z.string(),
  languages: z.array(z.enum(LANGUAGES)),
  defaultLanguage: z.enum(LANGUAGES),
  demoMode: z.boolean(),
  version: z.string(),
  features: z.object({
    emailSignIn: z.boolean(),
    phoneSignIn: z.boolean(),
    devOutbox: z.boolean(),
  }),
  /** Customer-service chat widget (Chatwoot's website SDK); null when the server has none configured. */
  chat: z.nullable(z.object({ scriptUrl: z.string(), siteToken: z.string(), baseUrl: z.string() })),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const outboxMessageSchema = z.object({
  id: z.string(),
  channel: z.enum(['email', 'phone']),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  createdAt: z.iso.datetime(),
});
export const outboxSchema = z.object({ items: z.array(outboxMessageSchema) });
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

export const healthSchema = z.object({
  status: z.literal('ok'),
  role: z.enum(['all', 'api', 'worker']),
  version: z.string(),
  uptimeS: z.number(),
});
