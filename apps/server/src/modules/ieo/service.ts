import type {
  IeoAdminApplications,
  IeoAdminProject,
  IeoApplication,
  IeoDetail,
  IeoProject,
  IeoProjectEdit,
  IeoProjectInput,
  IeoSubscribeRequest,
} from '@tradewind/contract/ieo';
import {
  IEO_ADMIN_APPLICATIONS_MAX,
  IEO_HISTORY_MAX,
  IEO_LIST_MAX,
  IeoStatus,
  allocate,
  boundedProgress,
} from '@tradewind/contract/ieo';
import type { Language } from '@tradewind/contract/languages';
import { formatAmount, parseAmount } from '@tradewind/contract/money';
import { ASSETS } from '@tradewind/contract/wallet';
import { and, asc, desc, eq, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '#platform/db.ts';
import type { Hub } from '#platform/ws.ts';
import { AppError } from '#platform/errors.ts';
import { isUniqueViolation } from '#platform/pg-errors.ts';
import {
  type EntrySpec,
  type Ledger,
  accountName,
  addListedToken,
  houseAccount,
  listedToken,
  userAccount,
} from '../ledger/service.ts';
import {
  type CreatedMessage,
  type MessageSpec,
  createMessages,
  publishMessages,
} from '../messages/service.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { users } from '../user/tables.ts';
import { localized } from '../vote/service.ts';
import {
  type IeoApplicationRow,
  type IeoProjectRow,
  ieoApplications,
  ieoProjects,
} from './tables.ts';
import { assertCanMoveMoney } from '../user/frozen.ts';
import { requireVerified } from '../kyc/service.ts';
import { assertProductEnabled } from '../settings/service.ts';

/**
 * Launchpad (spec /IEO, /IEOHis). Subscribing locks the offer in spot USDT; the allocation
 * (once, guarded by `allocated_at is null`) pays the house and refunds the rest; the listing
 * (once, guarded by `listed_at is null`) credits the tokens to spot. Cancelling before the
 * allocation refunds every commitment. Errors: IEO_NOT_FOUND, IEO_NOT_SUBSCRIBING,
 * KYC_REQUIRED, IEO_PRICE_OUT_OF_RANGE (field `price`), IEO_QUANTITY_OVER_CAP (field
 * `quantity`), IEO_ALREADY_APPLIED, INSUFFICIENT_BALANCE, IEO_INVALID_STATE, IEO_NOT_DUE,
 * IEO_TOKEN_EXISTS, IEO_INVALID_SCHEDULE, IEO_DISABLED (the product switched off).
 * Every step writes its users an in-site message in the step's own transaction (accepted,
 * allocated or refunded, listed, cancelled with the operator's reason), pushed after the commit.
 */

/** What the allocation, listing and cancellation need; with a hub their messages are pushed. */
export interface IeoRunDeps {
  db: Db;
  ledger: Ledger;
  hub?: Hub;
}

/** Where every IEO message leads: the user's applications with what happened to each. */
const IEO_MESSAGE_LINK = '/IEOHis';

function ieoMessage(
  app: Pick<IeoApplicationRow, 'id' | 'userId'>,
  kind: 'ieo.subscribed' | 'ieo.allocated' | 'ieo.refunded' | 'ieo.listed' | 'ieo.cancelled',
  params: MessageSpec['params'],
): MessageSpec {
  return { userId: app.userId, kind, ref: `ieo:${app.id}`, params, link: IEO_MESSAGE_LINK };
}

const USDT_SCALE = ASSETS.USDT.scale;
/** IEO tokens are sold and held in whole units: the token asset has scale 0. */
export const IEO_TOKEN_SCALE = 0;
const LEDGER_BATCH = 500;

/** Locked funds the ledger check expects: applications awaiting allocation hold their commitment in spot USDT. */
export async function ieoObligations(db: Executor): Promise<{ account: string; amount: bigint }[]> {
  const rows = await db
    .select({
      userId: ieoApplications.userId,
      total: sql<string>`sum(${ieoApplications.amountMinor})::text`,
    })
    .from(ieoApplications)
    .where(eq(ieoApplications.status, IeoStatus.APPLYING))
    .groupBy(ieoApplications.userId);
  return rows.map((row) => ({
    account: accountName(userAccount(row.userId, 'spot', 'USDT')),
    amount: BigInt(row.total),
  }));
}

export function projectStatus(
  row: Pick<IeoProjectRow, 'startsAt' | 'endsAt' | 'allocatedAt' | 'listedAt' | 'cancelledAt'>,
  now: Date,
): IeoStatus {
  if (row.cancelledAt) return IeoStatus.CANCELLED;
  if (row.listedAt) return IeoStatus.ENDED;
  if (row.allocatedAt) return IeoStatus.IN_PROGRESS;
  if (now < row.startsAt) return IeoStatus.NOT_STARTED;
  if (now < row.endsAt) return IeoStatus.SUBSCRIBING;
  return IeoStatus.DRAWING;
}

const usdt = (minor: bigint) => formatAmount(minor, USDT_SCALE);

async function subscribedBy(db: Executor, projectIds: number[]): Promise<Map<number, bigint>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db
    .select({
      projectId: ieoApplications.projectId,
      total: sql<string>`sum(${ieoApplications.quantity})::text`,
    })
    .from(ieoApplications)
    .where(
      and(
        inArray(ieoApplications.projectId, projectIds),
        ne(ieoApplications.status, IeoStatus.CANCELLED),
      ),
    )
    .groupBy(ieoApplications.projectId);
  return new Map(rows.map((r) => [r.projectId, BigInt(r.total)]));
}

function projectView(
  row: IeoProjectRow,
  subscribed: bigint,
  now: Date,
  language: Language,
): IeoProject {
  return {
    id: String(row.id),
    token: row.token,
    name: localized(row.name, language),
    description: localized(row.description, language),
    status: projectStatus(row, now),
    supply: row.supply.toString(),
    unitPrice: usdt(row.unitPriceMinor),
    priceMin: usdt(row.priceMinMinor),
    priceMax: usdt(row.priceMaxMinor),
    perUserCap: row.perUserCap.toString(),
    subscribed: subscribed.toString(),
    progress: boundedProgress(subscribed, row.supply),
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    listsAt: row.listsAt.toISOString(),
    announcedAt: row.announcedAt.toISOString(),
    allocatedAt: row.allocatedAt?.toISOString() ?? null,
    cancelReason: row.cancelReason,
  };
}

function applicationView(
  row: IeoApplicationRow,
  project: IeoProjectRow,
  language: Language,
): IeoApplication {
  const allocated = row.allocatedQuantity;
  return {
    id: String(row.id),
    projectId: String(project.id),
    token: project.token,
    projectName: localized(project.name, language),
    status: row.status as IeoStatus,
    price: usdt(row.priceMinor),
    quantity: row.quantity.toString(),
    amount: usdt(row.amountMinor),
    allocatedQuantity: allocated === null ? null : allocated.toString(),
    allocatedPrice: allocated === null ? null : usdt(row.priceMinor),
    allocatedAt: row.allocatedAt?.toISOString() ?? null,
    paidAmount: row.paidMinor === null ? null : usdt(row.paidMinor),
    remainingAmount: row.refundMinor === null ? null : usdt(row.refundMinor),
    cancelReason: row.status === IeoStatus.CANCELLED ? project.cancelReason : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/* Reading */

/** Subscribing first, then upcoming, then the rest, newest first within each. */
export async function listProjects(
  db: Executor,
  now: Date,
  language: Language,
): Promise<IeoProject[]> {
  const rows = await db
    .select()
    .from(ieoProjects)
    .orderBy(desc(ieoProjects.startsAt), desc(ieoProjects.id))
    .limit(IEO_LIST_MAX);
  const subscribed = await subscribedBy(
    db,
    rows.map((r) => r.id),
  );
  const rank = (s: IeoStatus) =>
    s === IeoStatus.SUBSCRIBING ? 0 : s === IeoStatus.NOT_STARTED ? 1 : 2;
  return rows
    .map((row) => projectView(row, subscribed.get(row.id) ?? 0n, now, language))
    .sort((a, b) => rank(a.status) - rank(b.status));
}

async function findProject(db: Executor, id: number): Promise<IeoProjectRow> {
  const [row] = await db.select().from(ieoProjects).where(eq(ieoProjects.id, id)).limit(1);
  if (!row) throw new AppError('IEO_NOT_FOUND', {}, 404);
  return row;
}

/** A project and the requesting user's own application to it (or null). */
export async function projectDetail(
  db: Executor,
  now: Date,
  userId: number,
  id: number,
  language: Language,
): Promise<IeoDetail> {
  const project = await findProject(db, id);
  const subscribed = (await subscribedBy(db, [id])).get(id) ?? 0n;
  const [own] = await db
    .select()
    .from(ieoApplications)
    .where(and(eq(ieoApplications.projectId, id), eq(ieoApplications.userId, userId)))
    .limit(1);
  return {
    project: projectView(project, subscribed, now, language),
    application: own ? applicationView(own, project, language) : null,
  };
}

/** The user's applications, newest first (spec /IEOHis). */
export async function listApplications(
  db: Executor,
  userId: number,
  language: Language,
): Promise<IeoApplication[]> {
  const rows = await db
    .select({ application: ieoApplications, project: ieoProjects })
    .from(ieoApplications)
    .innerJoin(ieoProjects, eq(ieoProjects.id, ieoApplications.projectId))
    .where(eq(ieoApplications.userId, userId))
    .orderBy(desc(ieoApplications.id))
    .limit(IEO_HISTORY_MAX);
  return rows.map(({ application, project }) => applicationView(application, project, language));
}

/* Subscribing */

/** Applies for tokens: the offer (price × quantity) moves from available to locked spot USDT. A frozen account gets ACCOUNT_FROZEN. */
export async function subscribe(
  ledger: Ledger,
  tx: Tx,
  now: Date,
  userId: number,
  request: IeoSubscribeRequest,
  language: Language,
  created: CreatedMessage[] = [],
): Promise<IeoApplication> {
  await assertProductEnabled(tx, 'ieo');
  await assertCanMoveMoney(tx, userId);
  const [user] = await tx
    .select({ verified: users.verified })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  requireVerified(user);
  // FOR SHARE: an allocation or cancellation (which update this row) waits for us, and we for it.
  const [project] = await tx
    .select()
    .from(ieoProjects)
    .where(eq(ieoProjects.id, Number(request.projectId)))
    .limit(1)
    .for('share');
  if (!project) throw new AppError('IEO_NOT_FOUND', {}, 404);
  if (projectStatus(project, now) !== IeoStatus.SUBSCRIBING)
    throw new AppError('IEO_NOT_SUBSCRIBING', {}, 409);
  const price = parseAmount(request.price, USDT_SCALE);
  if (price === undefined || price < project.priceMinMinor || price > project.priceMaxMinor) {
    throw new AppError(
      'IEO_PRICE_OUT_OF_RANGE',
      { min: usdt(project.priceMinMinor), max: usdt(project.priceMaxMinor) },
      422,
      'price',
    );
  }
  const quantity = BigInt(request.quantity);
  if (quantity > project.perUserCap)
    throw new AppError(
      'IEO_QUANTITY_OVER_CAP',
      { cap: project.perUserCap.toString() },
      422,
      'quantity',
    );
  const amount = price * quantity;
  let row: IeoApplicationRow | undefined;
  try {
    [row] = await tx
      .insert(ieoApplications)
      .values({
        projectId: project.id,
        userId,
        status: IeoStatus.APPLYING,
        priceMinor: price,
        quantity,
        amountMinor: amount,
        createdAt: now,
      })
      .returning();
  } catch (error) {
    if (isUniqueViolation(error, 'ieo_applications_project_user_key'))
      throw new AppError('IEO_ALREADY_APPLIED', {}, 409);
    throw error;
  }
  if (!row) throw new Error('application insert returned no row');
  await ledger.post(tx, now, {
    kind: 'ieo_subscribe',
    reference: `ieo:application:${row.id}:lock`,
    userId,
    postings: [
      {
        account: userAccount(userId, 'spot', 'USDT'),
        bucket: 'available',
        amount: -amount,
        type: 'ieo',
      },
      { account: userAccount(userId, 'spot', 'USDT'), bucket: 'locked', amount, type: 'ieo' },
    ],
  });
  created.push(
    ...(await createMessages(tx, now, [
      ieoMessage(row, 'ieo.subscribed', {
        token: project.token,
        quantity: quantity.toString(),
        price: usdt(price),
        amount: usdt(amount),
      }),
    ])),
  );
  return applicationView(row, project, language);
}

/* Allocation, listing, cancellation */

async function postInBatches(
  ledger: Ledger,
  tx: Executor,
  now: Date,
  specs: EntrySpec[],
): Promise<void> {
  for (let i = 0; i < specs.length; i += LEDGER_BATCH)
    await ledger.postMany(tx, now, specs.slice(i, i + LEDGER_BATCH));
}

/**
 * Runs the allocation of a project whose subscription has ended, exactly once: the guarded
 * update of `allocated_at` lets one caller through; any other (concurrent or later) gets
 * `ran: false` and changes nothing.
 */
export async function runAllocation(
  deps: IeoRunDeps,
  now: Date,
  projectId: number,
  operator: OperatorContext | null,
): Promise<{ ran: boolean }> {
  let created: CreatedMessage[] = [];
  const result = await deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(ieoProjects)
      .set({ allocatedAt: now })
      .where(
        and(
          eq(ieoProjects.id, projectId),
          isNull(ieoProjects.allocatedAt),
          isNull(ieoProjects.cancelledAt),
          lte(ieoProjects.endsAt, now),
        ),
      )
      .returning();
    if (!claimed) {
      const project = await findProject(tx, projectId);
      if (project.cancelledAt) throw new AppError('IEO_INVALID_STATE', {}, 409);
      if (!project.allocatedAt) throw new AppError('IEO_NOT_DUE', {}, 409);
      return { ran: false };
    }
    const applications = await tx
      .select()
      .from(ieoApplications)
      .where(
        and(
          eq(ieoApplications.projectId, projectId),
          eq(ieoApplications.status, IeoStatus.APPLYING),
        ),
      )
      .orderBy(asc(ieoApplications.id));
    const result = allocate({
      supply: claimed.supply,
      perUserCap: claimed.perUserCap,
      applications: applications.map((a) => ({
        id: String(a.id),
        quantity: a.quantity,
        amount: a.amountMinor,
      })),
    });
    const quantities = new Map(result.map((r) => [r.id, r.quantity]));
    const specs: EntrySpec[] = [];
    const messages: MessageSpec[] = [];
    for (const app of applications) {
      const allocated = quantities.get(String(app.id)) ?? 0n;
      const paid = allocated * app.priceMinor;
      const refund = app.amountMinor - paid;
      await tx
        .update(ieoApplications)
        .set({
          status: IeoStatus.APPLIED,
          allocatedQuantity: allocated,
          paidMinor: paid,
          refundMinor: refund,
          allocatedAt: now,
        })
        .where(eq(ieoApplications.id, app.id));
      const postings: EntrySpec['postings'] = [
        {
          account: userAccount(app.userId, 'spot', 'USDT'),
          bucket: 'locked',
          amount: -app.amountMinor,
          type: 'ieo',
        },
      ];
      if (paid > 0n)
        postings.push({ account: houseAccount('ieo', 'USDT'), amount: paid, type: 'ieo' });
      if (refund > 0n)
        postings.push({
          account: userAccount(app.userId, 'spot', 'USDT'),
          bucket: 'available',
          amount: refund,
          type: 'ieo',
        });
      specs.push({
        kind: 'ieo_allocation',
        reference: `ieo:application:${app.id}:allocation`,
        userId: app.userId,
        postings,
      });
      messages.push(
        allocated > 0n
          ? ieoMessage(app, 'ieo.allocated', {
              token: claimed.token,
              quantity: allocated.toString(),
              price: usdt(app.priceMinor),
              paid: usdt(paid),
              refund: usdt(refund),
            })
          : ieoMessage(app, 'ieo.refunded', { token: claimed.token, amount: usdt(refund) }),
      );
    }
    await postInBatches(deps.ledger, tx, now, specs);
    created = await createMessages(tx, now, messages);
    if (operator)
      await audit(tx, now, operator, {
        action: 'ieo.allocate',
        targetType: 'ieo_project',
        targetId: projectId,
        after: { applications: applications.length },
      });
    return { ran: true };
  });
  publishIeo(deps.hub, created);
  return result;
}

/** After the commit: the messages, and the balances that moved with them. */
function publishIeo(hub: Hub | undefined, created: CreatedMessage[]): void {
  publishMessages(hub, created);
  for (const userId of new Set(created.map((c) => c.userId)))
    hub?.publishToUser(userId, { type: 'balance.changed' });
}

/** Credits the allocated tokens to spot at (or after) the listing time, exactly once. */
export async function runListing(
  deps: IeoRunDeps,
  now: Date,
  projectId: number,
  operator: OperatorContext | null,
): Promise<{ ran: boolean }> {
  let created: CreatedMessage[] = [];
  const result = await deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(ieoProjects)
      .set({ listedAt: now })
      .where(
        and(
          eq(ieoProjects.id, projectId),
          isNull(ieoProjects.listedAt),
          sql`${ieoProjects.allocatedAt} is not null`,
          lte(ieoProjects.listsAt, now),
        ),
      )
      .returning();
    if (!claimed) {
      const project = await findProject(tx, projectId);
      if (project.cancelledAt) throw new AppError('IEO_INVALID_STATE', {}, 409);
      if (!project.listedAt) throw new AppError('IEO_NOT_DUE', {}, 409);
      return { ran: false };
    }
    const token = listedToken(claimed.token);
    const applications = await tx
      .select()
      .from(ieoApplications)
      .where(
        and(
          eq(ieoApplications.projectId, projectId),
          eq(ieoApplications.status, IeoStatus.APPLIED),
        ),
      )
      .orderBy(asc(ieoApplications.id));
    const specs: EntrySpec[] = [];
    const messages: MessageSpec[] = [];
    for (const app of applications) {
      const units = (app.allocatedQuantity ?? 0n) * 10n ** BigInt(IEO_TOKEN_SCALE);
      if (units > 0n) {
        messages.push(
          ieoMessage(app, 'ieo.listed', {
            token: claimed.token,
            quantity: (app.allocatedQuantity ?? 0n).toString(),
          }),
        );
        specs.push({
          kind: 'ieo_listing',
          reference: `ieo:application:${app.id}:tokens`,
          userId: app.userId,
          postings: [
            { account: houseAccount('ieo', token), amount: -units, type: 'ieo' },
            { account: userAccount(app.userId, 'spot', token), amount: units, type: 'ieo' },
          ],
        });
      }
    }
    await tx
      .update(ieoApplications)
      .set({ status: IeoStatus.COMPLETED })
      .where(
        and(
          eq(ieoApplications.projectId, projectId),
          eq(ieoApplications.status, IeoStatus.APPLIED),
        ),
      );
    await postInBatches(deps.ledger, tx, now, specs);
    created = await createMessages(tx, now, messages);
    if (operator)
      await audit(tx, now, operator, {
        action: 'ieo.list',
        targetType: 'ieo_project',
        targetId: projectId,
        after: { credited: specs.length },
      });
    return { ran: true };
  });
  publishIeo(deps.hub, created);
  return result;
}

/** Cancels a project before its allocation and refunds every commitment. */
export async function cancelProject(
  deps: IeoRunDeps,
  now: Date,
  operator: OperatorContext,
  projectId: number,
  reason: string,
): Promise<void> {
  let created: CreatedMessage[] = [];
  await deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(ieoProjects)
      .set({ cancelledAt: now, cancelReason: reason })
      .where(
        and(
          eq(ieoProjects.id, projectId),
          isNull(ieoProjects.allocatedAt),
          isNull(ieoProjects.cancelledAt),
        ),
      )
      .returning();
    if (!claimed) {
      await findProject(tx, projectId);
      throw new AppError('IEO_INVALID_STATE', {}, 409);
    }
    const applications = await tx
      .update(ieoApplications)
      .set({ status: IeoStatus.CANCELLED })
      .where(
        and(
          eq(ieoApplications.projectId, projectId),
          eq(ieoApplications.status, IeoStatus.APPLYING),
        ),
      )
      .returning();
    await postInBatches(
      deps.ledger,
      tx,
      now,
      applications.map((app) => ({
        kind: 'ieo_cancel',
        reference: `ieo:application:${app.id}:cancel`,
        userId: app.userId,
        memo: reason,
        postings: [
          {
            account: userAccount(app.userId, 'spot', 'USDT'),
            bucket: 'locked' as const,
            amount: -app.amountMinor,
            type: 'ieo' as const,
          },
          {
            account: userAccount(app.userId, 'spot', 'USDT'),
            bucket: 'available' as const,
            amount: app.amountMinor,
            type: 'ieo' as const,
          },
        ],
      })),
    );
    created = await createMessages(
      tx,
      now,
      applications.map((app) =>
        ieoMessage(app, 'ieo.cancelled', {
          token: claimed.token,
          amount: usdt(app.amountMinor),
          reason,
        }),
      ),
    );
    await audit(tx, now, operator, {
      action: 'ieo.cancel',
      targetType: 'ieo_project',
      targetId: projectId,
      reason,
      after: { refunded: applications.length },
    });
  });
  publishIeo(deps.hub, created);
}

/** Allocates every project whose subscription has ended and lists every one whose listing time came (the clock-driven job); returns their ids. */
export async function runDueIeo(
  deps: IeoRunDeps,
  now: Date,
): Promise<{ allocated: number[]; listed: number[] }> {
  const toAllocate = await deps.db
    .select({ id: ieoProjects.id })
    .from(ieoProjects)
    .where(
      and(
        isNull(ieoProjects.allocatedAt),
        isNull(ieoProjects.cancelledAt),
        lte(ieoProjects.endsAt, now),
      ),
    )
    .limit(IEO_LIST_MAX);
  const allocated: number[] = [];
  for (const { id } of toAllocate)
    if ((await runAllocation(deps, now, id, null)).ran) allocated.push(id);
  const toList = await deps.db
    .select({ id: ieoProjects.id })
    .from(ieoProjects)
    .where(
      and(
        isNull(ieoProjects.listedAt),
        sql`${ieoProjects.allocatedAt} is not null`,
        lte(ieoProjects.listsAt, now),
      ),
    )
    .limit(IEO_LIST_MAX);
  const listed: number[] = [];
  for (const { id } of toList) if ((await runListing(deps, now, id, null)).ran) listed.push(id);
  return { allocated, listed };
}

/* Operators */

function priceOf(text: string): bigint {
  const minor = parseAmount(text, USDT_SCALE);
  if (minor === undefined || minor <= 0n)
    throw new AppError('AMOUNT_PRECISION', { decimals: USDT_SCALE }, 422, 'unitPrice');
  return minor;
}

function scheduleValid(p: {
  startsAt: Date;
  endsAt: Date;
  listsAt: Date;
  priceMinMinor: bigint;
  unitPriceMinor: bigint;
  priceMaxMinor: bigint;
  perUserCap: bigint;
  supply: bigint;
}) {
  return (
    p.endsAt > p.startsAt &&
    p.listsAt >= p.endsAt &&
    p.priceMinMinor <= p.unitPriceMinor &&
    p.unitPriceMinor <= p.priceMaxMinor &&
    p.perUserCap > 0n &&
    p.supply > 0n
  );
}

/**
 * Creates a project and its token asset (scale 0, no deposits or withdrawals). With an
 * operator the action is audit-logged; the demo seed passes none. A slug that exists is left
 * as it is (seeding twice inserts nothing). Returns the project id.
 */
export async function createProject(
  db: Db,
  now: Date,
  operator: OperatorContext | null,
  input: IeoProjectInput,
): Promise<number> {
  const values = {
    slug: input.slug,
    token: input.token,
    name: input.name as IeoProjectRow['name'],
    description: input.description as IeoProjectRow['description'],
    supply: BigInt(input.supply),
    unitPriceMinor: priceOf(input.unitPrice),
    priceMinMinor: priceOf(input.priceMin),
    priceMaxMinor: priceOf(input.priceMax),
    perUserCap: BigInt(input.perUserCap),
    startsAt: new Date(input.startsAt),
    endsAt: new Date(input.endsAt),
    listsAt: new Date(input.listsAt),
    announcedAt: new Date(input.announcedAt),
    createdAt: now,
  };
  if (!scheduleValid(values)) throw new AppError('IEO_INVALID_SCHEDULE', {}, 422);
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: ieoProjects.id })
      .from(ieoProjects)
      .where(eq(ieoProjects.slug, input.slug))
      .limit(1);
    if (existing) return existing.id;
    if (input.token in ASSETS) throw new AppError('IEO_TOKEN_EXISTS', {}, 409);
    if (
      !(await addListedToken(tx, {
        code: input.token,
        name: input.tokenName,
        scale: IEO_TOKEN_SCALE,
      }))
    )
      throw new AppError('IEO_TOKEN_EXISTS', {}, 409);
    const [row] = await tx.insert(ieoProjects).values(values).returning({ id: ieoProjects.id });
    if (!row) throw new Error('project insert returned no row');
    if (operator)
      await audit(tx, now, operator, {
        action: 'ieo.create',
        targetType: 'ieo_project',
        targetId: row.id,
        after: input,
      });
    return row.id;
  });
}

/** Edits a project that has not started yet (afterwards its terms are what users applied to). */
export async function editProject(
  db: Db,
  now: Date,
  operator: OperatorContext,
  edit: IeoProjectEdit,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [project] = await tx
      .select()
      .from(ieoProjects)
      .where(eq(ieoProjects.id, Number(edit.id)))
      .limit(1)
      .for('update');
    if (!project) throw new AppError('IEO_NOT_FOUND', {}, 404);
    if (projectStatus(project, now) !== IeoStatus.NOT_STARTED)
      throw new AppError('IEO_INVALID_STATE', {}, 409);
    const next = {
      name: (edit.name as IeoProjectRow['name'] | undefined) ?? project.name,
      description:
        (edit.description as IeoProjectRow['description'] | undefined) ?? project.description,
      supply: edit.supply === undefined ? project.supply : BigInt(edit.supply),
      unitPriceMinor:
        edit.unitPrice === undefined ? project.unitPriceMinor : priceOf(edit.unitPrice),
      priceMinMinor: edit.priceMin === undefined ? project.priceMinMinor : priceOf(edit.priceMin),
      priceMaxMinor: edit.priceMax === undefined ? project.priceMaxMinor : priceOf(edit.priceMax),
      perUserCap: edit.perUserCap === undefined ? project.perUserCap : BigInt(edit.perUserCap),
      startsAt: edit.startsAt === undefined ? project.startsAt : new Date(edit.startsAt),
      endsAt: edit.endsAt === undefined ? project.endsAt : new Date(edit.endsAt),
      listsAt: edit.listsAt === undefined ? project.listsAt : new Date(edit.listsAt),
      announcedAt:
        edit.announcedAt === undefined ? project.announcedAt : new Date(edit.announcedAt),
    };
    if (!scheduleValid(next)) throw new AppError('IEO_INVALID_SCHEDULE', {}, 422);
    await tx.update(ieoProjects).set(next).where(eq(ieoProjects.id, project.id));
    await audit(tx, now, operator, {
      action: 'ieo.edit',
      targetType: 'ieo_project',
      targetId: project.id,
      before: project,
      after: next,
    });
  });
}

/** The project as an operator sees it after an action (English texts). */
export async function operatorProjectView(
  db: Executor,
  now: Date,
  projectId: number,
): Promise<IeoProject> {
  const project = await findProject(db, projectId);
  return projectView(
    project,
    (await subscribedBy(db, [projectId])).get(projectId) ?? 0n,
    now,
    'en',
  );
}

/* Operators: the console's view (English texts). */

async function adminProjects(
  db: Executor,
  now: Date,
  rows: IeoProjectRow[],
): Promise<IeoAdminProject[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const subscribed = await subscribedBy(db, ids);
  const stats = await db
    .select({
      projectId: ieoApplications.projectId,
      n: sql<string>`count(*)::text`,
      committed: sql<string>`coalesce(sum(${ieoApplications.amountMinor}) filter (where ${ieoApplications.status} <> ${IeoStatus.CANCELLED}), 0)::text`,
    })
    .from(ieoApplications)
    .where(inArray(ieoApplications.projectId, ids))
    .groupBy(ieoApplications.projectId);
  const byProject = new Map(stats.map((s) => [s.projectId, s]));
  return rows.map((row) => {
    const stat = byProject.get(row.id);
    return {
      ...projectView(row, subscribed.get(row.id) ?? 0n, now, 'en'),
      slug: row.slug,
      applications: Number(stat?.n ?? 0),
      committed: usdt(BigInt(stat?.committed ?? '0')),
      listedAt: row.listedAt?.toISOString() ?? null,
      cancelledAt: row.cancelledAt?.toISOString() ?? null,
    };
  });
}

/** Every project, newest start first (bounded by IEO_LIST_MAX), with its application counts. */
export async function listProjectsForOperators(
  db: Executor,
  now: Date,
): Promise<IeoAdminProject[]> {
  const rows = await db
    .select()
    .from(ieoProjects)
    .orderBy(desc(ieoProjects.startsAt), desc(ieoProjects.id))
    .limit(IEO_LIST_MAX);
  return adminProjects(db, now, rows);
}

/**
 * A project's applications (largest commitment first, at most IEO_ADMIN_APPLICATIONS_MAX) and,
 * once allocated, the allocation's totals over all of them, as allocate() decided them.
 */
export async function applicationsForOperators(
  db: Executor,
  now: Date,
  projectId: number,
): Promise<IeoAdminApplications> {
  const project = await findProject(db, projectId);
  const [view] = await adminProjects(db, now, [project]);
  if (!view) throw new Error('project view missing');
  const rows = await db
    .select()
    .from(ieoApplications)
    .where(eq(ieoApplications.projectId, projectId))
    .orderBy(desc(ieoApplications.amountMinor), asc(ieoApplications.id))
    .limit(IEO_ADMIN_APPLICATIONS_MAX + 1);
  let allocation: IeoAdminApplications['allocation'] = null;
  if (project.allocatedAt) {
    const [totals] = await db
      .select({
        allocated: sql<string>`coalesce(sum(${ieoApplications.allocatedQuantity}), 0)::text`,
        paid: sql<string>`coalesce(sum(${ieoApplications.paidMinor}), 0)::text`,
        refunded: sql<string>`coalesce(sum(${ieoApplications.refundMinor}), 0)::text`,
      })
      .from(ieoApplications)
      .where(
        and(
          eq(ieoApplications.projectId, projectId),
          sql`${ieoApplications.allocatedAt} is not null`,
        ),
      );
    const allocated = BigInt(totals?.allocated ?? '0');
    allocation = {
      supply: project.supply.toString(),
      allocated: allocated.toString(),
      unsold: (project.supply - allocated).toString(),
      paid: usdt(BigInt(totals?.paid ?? '0')),
      refunded: usdt(BigInt(totals?.refunded ?? '0')),
    };
  }
  return {
    project: view,
    allocation,
    truncated: rows.length > IEO_ADMIN_APPLICATIONS_MAX,
    items: rows.slice(0, IEO_ADMIN_APPLICATIONS_MAX).map((row) => ({
      id: String(row.id),
      userId: String(row.userId),
      status: row.status as IeoStatus,
      price: usdt(row.priceMinor),
      quantity: row.quantity.toString(),
      amount: usdt(row.amountMinor),
      allocatedQuantity: row.allocatedQuantity?.toString() ?? null,
      paidAmount: row.paidMinor === null ? null : usdt(row.paidMinor),
      refundAmount: row.refundMinor === null ? null : usdt(row.refundMinor),
      createdAt: row.createdAt.toISOString(),
    })),
  };
}
