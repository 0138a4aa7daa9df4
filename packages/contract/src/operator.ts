import * as z from 'zod/mini';
import { PASSWORD_MAX_LENGTH } from './auth-basics.ts';
import { idDecisionSchema, requestReason } from './decision.ts';
import type { Product } from './products.ts';

export { PRODUCTS, type Product, type ProductSwitches, productSwitchesSchema } from './products.ts';

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
  /** False until the operator redeems their enrolment code (they cannot sign in before). */
  enrolled: z.boolean(),
});
export type Operator = z.infer<typeof operatorSchema>;
export const operatorListSchema = z.object({ items: z.array(operatorSchema) });

const reasonText = z
  .string({ error: 'validation.reason_required' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'validation.reason_required' }),
    z.maxLength(500, { error: 'validation.too_long' }),
  );

/** Letters, digits, dot, dash and underscore: a name that reads the same in the audit log and a shell. */
export const operatorUsernameSchema = z
  .string({ error: 'validation.required' })
  .check(
    z.trim(),
    z.minLength(3, { error: 'validation.too_short' }),
    z.maxLength(64, { error: 'validation.too_long' }),
    z.regex(/^[A-Za-z0-9._-]+$/, { error: 'validation.invalid_value' }),
  );

/**
 * What one admin asks and a second approves (two-person rule): a new operator, enabling a
 * disabled one again, or another role for one.
 */
export const OPERATOR_REQUEST_KINDS = ['create', 'enable', 'role'] as const;
export type OperatorRequestKind = (typeof OPERATOR_REQUEST_KINDS)[number];
export const OPERATOR_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;

export const operatorRequestCreateSchema = z.strictObject({
  kind: z.enum(['create'], { error: 'validation.invalid_value' }),
  username: operatorUsernameSchema,
  role: z.enum(OPERATOR_ROLES, { error: 'validation.invalid_value' }),
  reason: reasonText,
});
export const operatorRequestChangeSchema = z
  .strictObject({
    kind: z.enum(['enable', 'role'], { error: 'validation.invalid_value' }),
    id: z.number({ error: 'validation.required' }).check(z.int(), z.positive()),
    role: z.optional(z.enum(OPERATOR_ROLES, { error: 'validation.invalid_value' })),
    reason: reasonText,
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.kind === 'role' && !value.role)
        ctx.addIssue({ code: 'custom', path: ['role'], message: 'validation.required' });
    }),
  );
export const operatorRequestBodySchema = z.union([
  operatorRequestCreateSchema,
  operatorRequestChangeSchema,
]);
export type OperatorRequestBody = z.infer<typeof operatorRequestBodySchema>;

export const operatorRequestSchema = z.object({
  id: z.number().check(z.int()),
  kind: z.enum(OPERATOR_REQUEST_KINDS),
  username: z.string(),
  role: z.enum(OPERATOR_ROLES),
  reason: z.string(),
  requestedBy: z.string(),
  status: z.enum(OPERATOR_REQUEST_STATUSES),
  decidedBy: z.nullable(z.string()),
  decidedAt: z.nullable(z.iso.datetime()),
  decisionReason: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
});
export type OperatorRequest = z.infer<typeof operatorRequestSchema>;
export const operatorRequestListSchema = z.object({ items: z.array(operatorRequestSchema) });

/** Every decision on an operator request carries its reason, approval included. */
export const operatorRequestDecisionSchema = z.strictObject({
  id: z.number({ error: 'validation.required' }).check(z.int(), z.positive()),
  decision: z.enum(['approve', 'reject'], { error: 'validation.invalid_value' }),
  reason: reasonText,
});

/**
 * The approving admin's reply. For a new operator it carries the enrolment code once, for
 * the approver to hand to that person (decision 0025); the requester never sees it.
 */
export const operatorRequestDecidedSchema = z.object({
  request: operatorRequestSchema,
  enrolment: z.nullable(
    z.object({ code: z.string(), path: z.string(), expiresAt: z.iso.datetime() }),
  ),
});

/** An enrolment code: 43 URL-safe characters. */
export const enrolmentCodeSchema = z
  .string({ error: 'validation.required' })
  .check(z.trim(), z.regex(/^[A-Za-z0-9_-]{43}$/, { error: 'validation.invalid_value' }));

export const enrolmentStartSchema = z.strictObject({ code: enrolmentCodeSchema });
/** The TOTP secret the new operator adds to their authenticator (the same one until they finish). */
export const enrolmentStartedSchema = z.object({
  username: z.string(),
  role: z.enum(OPERATOR_ROLES),
  totpSecret: z.string(),
  otpauthUri: z.string(),
});

export const OPERATOR_PASSWORD_MIN_LENGTH = 12;
export const enrolmentCompleteSchema = z.strictObject({
  code: enrolmentCodeSchema,
  password: z.string({ error: 'validation.required' }).check(
    z.minLength(OPERATOR_PASSWORD_MIN_LENGTH, {
      error: 'validation.operator_password_too_short',
    }),
    z.maxLength(PASSWORD_MAX_LENGTH, { error: 'validation.too_long' }),
  ),
  /** The authenticator's code for the secret just added: proves it was set up. */
  totpCode: z
    .string({ error: 'validation.required' })
    .check(z.regex(/^\d{6}$/, { error: 'validation.code_format' })),
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

/**
 * Install-wide product settings (issue 30): every node reads them from the database, so no
 * node applies a value the others do not. One admin requests a change, another approves it.
 * The names are the environment variables that seed them on an install's first start.
 */
export const SHARED_SETTING_NAMES = [
  'CONTRACT_MAX_OPEN_ORDERS',
  'CONVERT_FEE_BPS',
  'MINING_AUTO_APPROVE',
  'WITHDRAWAL_SECOND_APPROVAL',
  'BONUS_CODE_APPROVAL_THRESHOLD',
  'CARD_DEPOSIT_FEE_BPS',
  'CARD_DEPOSIT_MIN_USDT',
  'CARD_DEPOSIT_MAX_USDT',
  'MARKET_QUARANTINE_BAND_PPM',
  'UPLOAD_MAX_BYTES',
  'UPLOAD_MAX_SIDE_PX',
  'PRODUCT_LOANS_ENABLED',
  'PRODUCT_MINING_ENABLED',
  'PRODUCT_IEO_ENABLED',
  'PRODUCT_SHOP_ENABLED',
] as const;
export type SharedSettingName = (typeof SHARED_SETTING_NAMES)[number];
export const SETTING_CHANGE_STATUSES = ['pending', 'approved', 'rejected'] as const;

export const sharedSettingRequestSchema = z.strictObject({
  name: z.enum(SHARED_SETTING_NAMES, { error: 'validation.invalid_value' }),
  value: z
    .string({ error: 'validation.required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.required' }),
      z.maxLength(200, { error: 'validation.too_long' }),
    ),
  reason: requestReason,
});
export type SharedSettingRequest = z.infer<typeof sharedSettingRequestSchema>;

export const sharedSettingDecisionSchema = idDecisionSchema;
export type SharedSettingDecision = z.infer<typeof sharedSettingDecisionSchema>;

export const sharedSettingChangeSchema = z.object({
  id: z.string(),
  name: z.enum(SHARED_SETTING_NAMES),
  value: z.string(),
  /** The value in effect when the change was requested. */
  previous: z.string(),
  reason: z.string(),
  status: z.enum(SETTING_CHANGE_STATUSES),
  requestedBy: z.string(),
  requestedAt: z.iso.datetime(),
  decidedBy: z.nullable(z.string()),
  decidedAt: z.nullable(z.iso.datetime()),
  decisionReason: z.nullable(z.string()),
});
export type SharedSettingChange = z.infer<typeof sharedSettingChangeSchema>;

export const sharedSettingsSchema = z.object({
  items: z.array(
    z.object({
      name: z.enum(SHARED_SETTING_NAMES),
      value: z.string(),
      defaultValue: z.string(),
      /** Who set the value in effect: an admin, `environment` (seeded at first start) or null (the default). */
      setBy: z.nullable(z.string()),
      setAt: z.nullable(z.iso.datetime()),
    }),
  ),
  /** Newest first, pending ones included (at most SETTING_CHANGES_MAX). */
  changes: z.array(sharedSettingChangeSchema),
});
export type SharedSettings = z.infer<typeof sharedSettingsSchema>;
export const SETTING_CHANGES_MAX = 100;

/** Which setting switches each product (issue 32; the products and their reply: products.ts). */
export const PRODUCT_SWITCH: Record<Product, SharedSettingName> = {
  loans: 'PRODUCT_LOANS_ENABLED',
  mining: 'PRODUCT_MINING_ENABLED',
  ieo: 'PRODUCT_IEO_ENABLED',
  shop: 'PRODUCT_SHOP_ENABLED',
};
