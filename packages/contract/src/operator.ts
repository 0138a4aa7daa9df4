import * as z from 'zod/mini';

/** Operators are separate accounts, never users with a flag (ARCHITECTURE §8). */
export const OPERATOR_ROLES = ['reviewer', 'catalog', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Queue decisions: everyone who reviews; catalog and settings: their managers; admins can do all. */
export const REVIEW_ROLES: OperatorRole[] = ['reviewer', 'admin'];
export const CATALOG_ROLES: OperatorRole[] = ['catalog', 'admin'];
export const ADMIN_ROLES: OperatorRole[] = ['admin'];

export const operatorLoginSchema = z.strictObject({
  username: z
    .string({ error: 'validation.required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.required' }),
      z.maxLength(64, { error: 'validation.too_long' }),
    ),
  password: z
    .string({ error: 'validation.required' })
    .check(
      z.minLength(1, { error: 'validation.required' }),
      z.maxLength(128, { error: 'validation.too_long' }),
    ),
  /** The authenticator's 6-digit code: every operator signs in with TOTP. */
  code: z
    .string({ error: 'validation.required' })
    .check(z.regex(/^\d{6}$/, { error: 'validation.code_format' })),
});

export const operatorSessionSchema = z.object({
  token: z.string(),
  role: z.enum(OPERATOR_ROLES),
  expiresAt: z.iso.datetime(),
});

/** A reason is required to reject, and recorded with every decision. */
export const decisionSchema = z
  .strictObject({
    decision: z.enum(['approve', 'reject'], { error: 'validation.invalid_value' }),
    reason: z.optional(
      z.string().check(z.trim(), z.maxLength(500, { error: 'validation.too_long' })),
    ),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.decision === 'reject' && !value.reason)
        ctx.addIssue({ code: 'custom', path: ['reason'], message: 'validation.reason_required' });
    }),
  );
export type Decision = z.infer<typeof decisionSchema>;

/**
 * Whose a queue item is, with what a reviewer weighs before deciding: identity verified,
 * account frozen. Their history is on the console's user page, `/admin/users/<uid>`.
 */
export const queueUserSchema = z.object({
  uid: z.string(),
  verified: z.boolean(),
  frozen: z.boolean(),
});
export type QueueUser = z.infer<typeof queueUserSchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  operator: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  before: z.nullable(z.string()),
  after: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
});
export const auditListSchema = z.object({ items: z.array(auditEntrySchema) });
export const auditQuerySchema = z.strictObject({
  action: z.optional(z.string().check(z.maxLength(64))),
  operator: z.optional(z.string().check(z.maxLength(64))),
  targetType: z.optional(z.string().check(z.maxLength(64))),
  targetId: z.optional(z.string().check(z.maxLength(64))),
  beforeId: z.optional(z.string().check(z.regex(/^\d{1,18}$/))),
});

export const operatorSchema = z.object({
  id: z.number().check(z.int()),
  username: z.string(),
  role: z.enum(OPERATOR_ROLES),
  createdAt: z.iso.datetime(),
  disabledAt: z.nullable(z.iso.datetime()),
});
export type Operator = z.infer<typeof operatorSchema>;
export const operatorListSchema = z.object({ items: z.array(operatorSchema) });

/** Letters, digits, dot, dash and underscore: a name that reads the same in the audit log and a shell. */
export const operatorCreateSchema = z.strictObject({
  username: z
    .string({ error: 'validation.required' })
    .check(
      z.trim(),
      z.minLength(3, { error: 'validation.too_short' }),
      z.maxLength(64, { error: 'validation.too_long' }),
      z.regex(/^[A-Za-z0-9._-]+$/, { error: 'validation.invalid_value' }),
    ),
  role: z.enum(OPERATOR_ROLES, { error: 'validation.invalid_value' }),
});

/** Shown once: the generated password and the TOTP secret to put in an authenticator. */
export const operatorCreatedSchema = z.object({
  id: z.number().check(z.int()),
  username: z.string(),
  role: z.enum(OPERATOR_ROLES),
  password: z.string(),
  totpSecret: z.string(),
  otpauthUri: z.string(),
});

export const operatorDisableSchema = z.strictObject({
  id: z.number({ error: 'validation.required' }).check(z.int(), z.positive()),
  disabled: z.boolean({ error: 'validation.required' }),
  reason: z
    .string({ error: 'validation.reason_required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.reason_required' }),
      z.maxLength(500, { error: 'validation.too_long' }),
    ),
});

/** The server's settings as administrators see them: read from the environment at start, secrets hidden. */
export const settingsSchema = z.object({
  items: z.array(
    z.object({
      name: z.string(),
      value: z.nullable(z.string()),
      fromEnv: z.boolean(),
      secret: z.boolean(),
    }),
  ),
  version: z.string(),
  startedAt: z.iso.datetime(),
});
