import * as z from 'zod/mini';
import { idSchema } from './ids.ts';
import { amountSchema } from './money.ts';

/**
 * Launchpad / IEO (spec /IEO, /IEOHis; entity IEO; status codes 0–8).
 *
 * The spec lists nine labels in one code set. Some describe a project, some an application:
 * - a project is NOT_STARTED before its start, SUBSCRIBING until its end, DRAWING from its end
 *   until the allocation has run, IN_PROGRESS from allocation until listing, ENDED once
 *   listed (tokens delivered), CANCELLED when an operator cancelled it;
 * - an application is APPLYING until the allocation, APPLIED once allocated (tokens due at
 *   listing), COMPLETED once the tokens are in the user's spot account, CANCELLED when the
 *   project was cancelled (everything refunded).
 * The i18n key of a code is `ieo.status.<name>` in the web app.
 */
export const IeoStatus = {
  APPLYING: 0,
  NOT_STARTED: 1,
  SUBSCRIBING: 2,
  DRAWING: 3,
  IN_PROGRESS: 4,
  ENDED: 5,
  APPLIED: 6,
  COMPLETED: 7,
  CANCELLED: 8,
} as const;
export type IeoStatus = (typeof IeoStatus)[keyof typeof IeoStatus];
export const IEO_STATUS_NAMES: Record<IeoStatus, string> = {
  0: 'applying',
  1: 'not_started',
  2: 'subscribing',
  3: 'drawing',
  4: 'in_progress',
  5: 'ended',
  6: 'applied',
  7: 'completed',
  8: 'cancelled',
};
export const ieoStatusSchema = z.union(
  Object.values(IeoStatus).map((code) => z.literal(code)) as unknown as [
    z.ZodMiniLiteral<IeoStatus>,
    ...z.ZodMiniLiteral<IeoStatus>[],
  ],
);

/** Progress is shown bounded 0 to 100 (spec §9). */
export function boundedProgress(subscribed: bigint, supply: bigint): number {
  if (supply <= 0n) return 0;
  const percent = Number((subscribed * 10_000n) / supply) / 100;
  return Math.min(100, Math.max(0, percent));
}

/** Token codes: upper-case letters and digits, as exchanges write them. */
export const tokenCodeSchema = z
  .string({ error: 'validation.required' })
  .check(z.regex(/^[A-Z][A-Z0-9]{1,9}$/, { error: 'validation.invalid_value' }));

/** Whole tokens (allocation never splits a token). */
export const tokenQuantitySchema = z
  .string({ error: 'validation.required' })
  .check(z.trim(), z.regex(/^[1-9]\d{0,14}$/, { error: 'validation.ieo_quantity' }));

export const IEO_LIST_MAX = 50;
export const IEO_HISTORY_MAX = 100;

/* Allocation: a pure function, so it is table- and property-tested. */

export interface AllocationInput {
  /** Tokens for sale. */
  supply: bigint;
  /** Most tokens one application can receive. */
  perUserCap: bigint;
  applications: { id: string; quantity: bigint; amount: bigint }[];
}

export interface Allocation {
  id: string;
  quantity: bigint;
}

/**
 * The published rule (shown on the project page as `ieo.rule`):
 * 1. Each application can receive at most min(requested quantity, per-user cap).
 * 2. If everything requested fits in the supply, everyone receives that.
 * 3. Otherwise the supply is shared pro rata to committed amounts (USDT), in whole tokens
 *    rounded down; whoever reaches their limit gets exactly their limit and the rest is
 *    shared again among the others, until nobody is over their limit.
 * 4. The whole tokens left by rounding down go one each to the largest remainders (earlier
 *    application first on a tie). Nobody ever receives a part of a token.
 * Everyone pays their own offer price for what they receive; the rest of their commitment is
 * refunded. Unsold tokens (an under-subscribed sale) stay with the project.
 */
export function allocate(input: AllocationInput): Allocation[] {
  const { supply, perUserCap } = input;
  if (supply < 0n || perUserCap < 0n) throw new Error('allocate: negative supply or cap');
  const limit = new Map<string, bigint>();
  const given = new Map<string, bigint>();
  for (const app of input.applications) {
    if (app.quantity < 0n || app.amount < 0n) throw new Error('allocate: negative application');
    if (limit.has(app.id)) throw new Error(`allocate: duplicate application ${app.id}`);
    limit.set(app.id, app.quantity < perUserCap ? app.quantity : perUserCap);
    given.set(app.id, 0n);
  }
  const totalLimit = [...limit.values()].reduce((a, b) => a + b, 0n);
  const result = () =>
    input.applications.map((a) => ({ id: a.id, quantity: given.get(a.id) as bigint }));
  if (totalLimit <= supply) {
    for (const [id, l] of limit) given.set(id, l);
    return result();
  }
  let remaining = supply;
  let active = input.applications.filter((a) => (limit.get(a.id) as bigint) > 0n);
  while (remaining > 0n && active.length > 0) {
    const weight = active.reduce((sum, a) => sum + (a.amount > 0n ? a.amount : 0n), 0n);
    // Without any committed amount to weigh by, every application weighs the same.
    const weightOf = (a: { amount: bigint }) => (weight > 0n ? a.amount : 1n);
    const totalWeight = weight > 0n ? weight : BigInt(active.length);
    const needOf = (a: { id: string }) => (limit.get(a.id) as bigint) - (given.get(a.id) as bigint);
    const saturated = active.filter((a) => (remaining * weightOf(a)) / totalWeight >= needOf(a));
    if (saturated.length > 0) {
      for (const a of saturated) {
        remaining -= needOf(a);
        given.set(a.id, limit.get(a.id) as bigint);
      }
      active = active.filter((a) => !saturated.includes(a));
      continue;
    }
    const shares = active.map((a) => {
      const exact = remaining * weightOf(a);
      return { a, whole: exact / totalWeight, rest: exact % totalWeight };
    });
    let left = remaining;
    for (const s of shares) {
      given.set(s.a.id, (given.get(s.a.id) as bigint) + s.whole);
      left -= s.whole;
    }
    // Fewer tokens are left than applications here; each still needs more than one.
    const order = [...shares].sort((x, y) => (x.rest === y.rest ? 0 : x.rest > y.rest ? -1 : 1));
    for (const s of order) {
      if (left === 0n) break;
      given.set(s.a.id, (given.get(s.a.id) as bigint) + 1n);
      left -= 1n;
    }
    remaining = left;
    break;
  }
  return result();
}

/* Wire shapes */

export const ieoProjectSchema = z.object({
  id: z.string(),
  token: z.string(),
  name: z.string(),
  description: z.string(),
  status: ieoStatusSchema,
  /** Tokens for sale (whole tokens). */
  supply: z.string(),
  /** USDT per token. */
  unitPrice: z.string(),
  priceMin: z.string(),
  priceMax: z.string(),
  perUserCap: z.string(),
  /** Tokens applied for so far. */
  subscribed: z.string(),
  /** 0–100 (spec §9). */
  progress: z.number().check(z.gte(0), z.lte(100)),
  startsAt: z.iso.datetime(),
  endsAt: z.iso.datetime(),
  listsAt: z.iso.datetime(),
  announcedAt: z.iso.datetime(),
  allocatedAt: z.nullable(z.iso.datetime()),
  cancelReason: z.nullable(z.string()),
});
export type IeoProject = z.infer<typeof ieoProjectSchema>;
export const ieoProjectListSchema = z.object({ items: z.array(ieoProjectSchema) });

export const ieoApplicationSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  token: z.string(),
  projectName: z.string(),
  status: ieoStatusSchema,
  /** Offer price, USDT per token. */
  price: z.string(),
  quantity: z.string(),
  /** Committed (locked) USDT. */
  amount: z.string(),
  allocatedQuantity: z.nullable(z.string()),
  /** The price paid per allocated token (the offer price). */
  allocatedPrice: z.nullable(z.string()),
  allocatedAt: z.nullable(z.iso.datetime()),
  paidAmount: z.nullable(z.string()),
  /** Refunded USDT: the commitment minus the payment. */
  remainingAmount: z.nullable(z.string()),
  /** Why the operator cancelled the project, on an application it cancelled (else null). */
  cancelReason: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
});
export type IeoApplication = z.infer<typeof ieoApplicationSchema>;
export const ieoApplicationListSchema = z.object({ items: z.array(ieoApplicationSchema) });

export const ieoDetailQuerySchema = z.strictObject({ id: idSchema });
export const ieoDetailSchema = z.object({
  project: ieoProjectSchema,
  application: z.nullable(ieoApplicationSchema),
});
export type IeoDetail = z.infer<typeof ieoDetailSchema>;

export const ieoSubscribeRequestSchema = z.strictObject({
  projectId: idSchema,
  price: amountSchema,
  quantity: tokenQuantitySchema,
});
export type IeoSubscribeRequest = z.infer<typeof ieoSubscribeRequestSchema>;

/* Operator */

const localizedTextSchema = z
  .partialRecord(
    z.enum(['en', 'zh_CN', 'zh_TW', 'de', 'fr', 'es', 'it']),
    z.string().check(z.trim(), z.minLength(1), z.maxLength(4000)),
  )
  .check(z.refine((value) => typeof value.en === 'string', { error: 'validation.required' }));

export const ieoProjectInputSchema = z.strictObject({
  slug: z.string().check(z.regex(/^[a-z0-9-]{3,60}$/, { error: 'validation.invalid_value' })),
  token: tokenCodeSchema,
  tokenName: z.string().check(z.trim(), z.minLength(1), z.maxLength(60)),
  name: localizedTextSchema,
  description: localizedTextSchema,
  supply: tokenQuantitySchema,
  unitPrice: amountSchema,
  priceMin: amountSchema,
  priceMax: amountSchema,
  perUserCap: tokenQuantitySchema,
  startsAt: z.iso.datetime(),
  endsAt: z.iso.datetime(),
  listsAt: z.iso.datetime(),
  announcedAt: z.iso.datetime(),
});
export type IeoProjectInput = z.infer<typeof ieoProjectInputSchema>;

export const ieoProjectEditSchema = z.extend(
  z.partial(z.omit(ieoProjectInputSchema, { slug: true, token: true, tokenName: true })),
  { id: idSchema },
);
export type IeoProjectEdit = z.infer<typeof ieoProjectEditSchema>;

export const ieoCancelRequestSchema = z.strictObject({
  id: idSchema,
  reason: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
});
export const ieoActionRequestSchema = z.strictObject({ id: idSchema });
export const ieoActionResultSchema = z.object({ project: ieoProjectSchema, ran: z.boolean() });

/* Operators: the console's IEO page (projects, applications, the allocation's result). */

export const IEO_ADMIN_APPLICATIONS_MAX = 500;

export const ieoAdminProjectSchema = z.extend(ieoProjectSchema, {
  slug: z.string(),
  /** Applications received (any status). */
  applications: z.number().check(z.int(), z.nonnegative()),
  /** USDT committed by applications not cancelled. */
  committed: z.string(),
  listedAt: z.nullable(z.iso.datetime()),
  cancelledAt: z.nullable(z.iso.datetime()),
});
export type IeoAdminProject = z.infer<typeof ieoAdminProjectSchema>;
export const ieoAdminProjectListSchema = z.object({ items: z.array(ieoAdminProjectSchema) });

export const ieoAdminApplicationSchema = z.object({
  id: z.string(),
  userId: z.string(),
  status: ieoStatusSchema,
  price: z.string(),
  quantity: z.string(),
  amount: z.string(),
  allocatedQuantity: z.nullable(z.string()),
  paidAmount: z.nullable(z.string()),
  refundAmount: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
});
export type IeoAdminApplication = z.infer<typeof ieoAdminApplicationSchema>;

/** Totals over every application (not only the page shown); null before the allocation has run. */
export const ieoAllocationSummarySchema = z.object({
  supply: z.string(),
  allocated: z.string(),
  /** Tokens left with the project (an under-subscribed sale). */
  unsold: z.string(),
  paid: z.string(),
  refunded: z.string(),
});
export const ieoAdminApplicationsSchema = z.object({
  project: ieoAdminProjectSchema,
  allocation: z.nullable(ieoAllocationSummarySchema),
  items: z.array(ieoAdminApplicationSchema),
  /** True when there are more applications than IEO_ADMIN_APPLICATIONS_MAX (largest first are shown). */
  truncated: z.boolean(),
});
export type IeoAdminApplications = z.infer<typeof ieoAdminApplicationsSchema>;
