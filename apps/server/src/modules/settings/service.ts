import {
  type ProductSwitches,
  SETTING_CHANGES_MAX,
  SHARED_SETTING_NAMES,
  type SharedSettingChange,
  type SharedSettingDecision,
  type SharedSettingName,
  type SharedSettingRequest,
  type SharedSettings,
} from '@tradewind/contract/operator';
import { desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  ConfigError,
  type SharedSettingValues,
  parseSharedSettings,
  sharedSettingDefault,
} from '#platform/config.ts';
import type { Db, Executor } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { assertMayApprove } from '../operator/approval-rule.ts';
import { type OperatorContext, audit } from '../operator/service.ts';
import { operators } from '../operator/tables.ts';
import { type SharedSettingChangeRow, sharedSettingChanges, sharedSettings } from './tables.ts';

/**
 * Install-wide product settings (issue 30, ARCHITECTURE §10). The values live in the
 * database and every use reads them there, in the transaction that applies them where there
 * is one: a node never applies a value the others do not, and a change takes effect on every
 * node with the commit that approves it. The environment variable of the same name only
 * seeds an install's first start. A change is requested by one admin and approved by
 * another (assertMayApprove), each step audited. Raises SETTING_VALUE_INVALID,
 * SETTING_CHANGE_NOT_FOUND, SETTING_CHANGE_DECIDED, SETTING_CHANGE_OPEN,
 * SETTING_CHANGE_NO_CHANGE, APPROVAL_NOT_ALLOWED.
 */

/** pg_advisory lock key that serialises approvals of shared settings (any constant no other module uses). */
const APPROVAL_LOCK = 0x5e771065;

/** Who set a value seeded from a node's environment at the install's first start. */
export const ENVIRONMENT = 'environment';

async function storedValues(
  db: Executor,
): Promise<Map<SharedSettingName, typeof sharedSettings.$inferSelect>> {
  const rows = await db.select().from(sharedSettings);
  return new Map(rows.map((row) => [row.name as SharedSettingName, row]));
}

/** The values every node applies now: the database's, or each setting's default. */
export async function readSharedSettings(db: Executor): Promise<SharedSettingValues> {
  const stored = await storedValues(db);
  return parseSharedSettings(
    Object.fromEntries([...stored].map(([name, row]) => [name, row.value])),
  );
}

/** Error code of a product that is switched off (a shop's is its own module's to raise). */
const DISABLED_ERROR = {
  loans: 'LOANS_DISABLED',
  mining: 'MINING_DISABLED',
  ieo: 'IEO_DISABLED',
} as const;

/** Which products are on now (the PRODUCT_*_ENABLED switches). */
export async function productSwitches(db: Executor): Promise<ProductSwitches> {
  return (await readSharedSettings(db)).products;
}

/**
 * Refuses a new action of a product an operator switched off (LOANS_DISABLED, MINING_DISABLED,
 * IEO_DISABLED). Call it first in the action's transaction, before anything changes. Settling
 * what users already hold never asks: an open loan can be repaid, a rental keeps paying.
 */
export async function assertProductEnabled(
  db: Executor,
  product: keyof typeof DISABLED_ERROR,
): Promise<void> {
  if (!(await readSharedSettings(db)).products[product])
    throw new AppError(DISABLED_ERROR[product], {}, 409);
}

/**
 * At start: a shared setting this node's environment names is written to the database if the
 * install has no value for it yet (the first node to start seeds it). A value that differs
 * from the install's is not applied: the node says so in its log and uses the database's.
 */
export async function seedSharedSettings(
  db: Db,
  seed: Partial<Record<SharedSettingName, string>>,
  now: Date,
  log: { warn: (message: string) => void },
): Promise<void> {
  const names = SHARED_SETTING_NAMES.filter((name) => seed[name] !== undefined);
  if (names.length === 0) return;
  await db
    .insert(sharedSettings)
    .values(
      names.map((name) => ({ name, value: seed[name] as string, setBy: ENVIRONMENT, setAt: now })),
    )
    .onConflictDoNothing({ target: sharedSettings.name });
  const stored = await storedValues(db);
  for (const name of names) {
    const installed = stored.get(name)?.value;
    if (installed !== undefined && installed !== seed[name])
      log.warn(
        `${name}=${seed[name]} in this node's environment is not applied: the install's value is ${installed} (set by ${stored.get(name)?.setBy}; change it in the console's Settings, where a second admin approves it)`,
      );
  }
}

const requester = alias(operators, 'requester');
const decider = alias(operators, 'decider');

function view(
  row: SharedSettingChangeRow,
  requestedBy: string | null,
  decidedBy: string | null,
): SharedSettingChange {
  return {
    id: String(row.id),
    name: row.name as SharedSettingName,
    value: row.value,
    previous: row.previous,
    reason: row.reason,
    status: row.status as SharedSettingChange['status'],
    requestedBy: requestedBy ?? String(row.requestedBy),
    requestedAt: row.requestedAt.toISOString(),
    decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decisionReason: row.decisionReason,
  };
}

async function loadChanges(db: Executor, id?: number): Promise<SharedSettingChange[]> {
  const rows = await db
    .select({
      row: sharedSettingChanges,
      requestedBy: requester.username,
      decidedBy: decider.username,
    })
    .from(sharedSettingChanges)
    .leftJoin(requester, eq(requester.id, sharedSettingChanges.requestedBy))
    .leftJoin(decider, eq(decider.id, sharedSettingChanges.decidedBy))
    .where(id === undefined ? undefined : eq(sharedSettingChanges.id, id))
    .orderBy(desc(sharedSettingChanges.id))
    .limit(SETTING_CHANGES_MAX);
  return rows.map((r) => view(r.row, r.requestedBy, r.decidedBy));
}

/** Every shared setting with its value in effect, who set it, and the newest changes. */
export async function listSharedSettings(db: Executor): Promise<SharedSettings> {
  const stored = await storedValues(db);
  const items = SHARED_SETTING_NAMES.map((name) => {
    const row = stored.get(name);
    const defaultValue = sharedSettingDefault(name);
    return {
      name,
      value: row?.value ?? defaultValue,
      defaultValue,
      setBy: row?.setBy ?? null,
      setAt: row?.setAt.toISOString() ?? null,
    };
  });
  return { items, changes: await loadChanges(db) };
}

/**
 * The value, checked by the rules the environment has, together with the install's other
 * values (the card-deposit minimum must not pass the maximum); SETTING_VALUE_INVALID otherwise.
 */
async function checkValue(
  db: Executor,
  name: SharedSettingName,
  value: string,
  demoMode: boolean,
): Promise<void> {
  const stored = await storedValues(db);
  try {
    parseSharedSettings({
      ...Object.fromEntries([...stored].map(([stored, row]) => [stored, row.value])),
      [name]: value,
    });
  } catch (error) {
    if (error instanceof ConfigError)
      throw new AppError('SETTING_VALUE_INVALID', { name }, 422, 'value');
    throw error;
  }
  // Rentals skip review only where no money is real (as the environment's own rule).
  if (
    name === 'MINING_AUTO_APPROVE' &&
    !demoMode &&
    parseSharedSettings({ [name]: value }).miningAutoApprove
  )
    throw new AppError('SETTING_VALUE_INVALID', { name }, 422, 'value');
}

/** Records a requested change (nothing applies yet) and audits it. */
export async function requestSharedSettingChange(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: SharedSettingRequest,
  demoMode: boolean,
): Promise<SharedSettingChange> {
  return db.transaction(async (tx) => {
    await checkValue(tx, input.name, input.value, demoMode);
    const [current] = await tx
      .select()
      .from(sharedSettings)
      .where(eq(sharedSettings.name, input.name));
    const previous = current?.value ?? sharedSettingDefault(input.name);
    if (previous === input.value) throw new AppError('SETTING_CHANGE_NO_CHANGE', {}, 409);
    const [row] = await tx
      .insert(sharedSettingChanges)
      .values({
        name: input.name,
        value: input.value,
        previous,
        reason: input.reason,
        requestedBy: operator.operatorId,
        requestedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('SETTING_CHANGE_OPEN', {}, 409);
    const created = view(row, operator.username, null);
    await audit(tx, now, operator, {
      action: 'setting.request',
      targetType: 'setting',
      targetId: row.id,
      before: { name: input.name, value: previous },
      after: created,
      reason: input.reason,
    });
    return created;
  });
}

/**
 * A second admin's decision. The change row is locked and its status checked first, so of
 * two concurrent approvals one applies and the other gets SETTING_CHANGE_DECIDED.
 */
export async function decideSharedSettingChange(
  db: Db,
  now: Date,
  operator: OperatorContext,
  input: SharedSettingDecision,
  demoMode: boolean,
): Promise<SharedSettingChange> {
  const id = Number(input.id);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(sharedSettingChanges)
      .where(eq(sharedSettingChanges.id, id))
      .for('update');
    if (!row) throw new AppError('SETTING_CHANGE_NOT_FOUND', {}, 404);
    if (row.status !== 'pending') throw new AppError('SETTING_CHANGE_DECIDED', {}, 409);
    await assertMayApprove(tx, operator.operatorId, row.requestedBy, now);
    const name = row.name as SharedSettingName;
    if (input.decision === 'approve') {
      // Approvals one at a time: two approved at once (a minimum and a maximum) could each be
      // valid beside the other's old value and together leave the install inconsistent.
      await tx.execute(sql`select pg_advisory_xact_lock(${APPROVAL_LOCK})`);
      await checkValue(tx, name, row.value, demoMode);
      await tx
        .insert(sharedSettings)
        .values({ name, value: row.value, setBy: operator.username, setAt: now })
        .onConflictDoUpdate({
          target: sharedSettings.name,
          set: { value: row.value, setBy: operator.username, setAt: now },
        });
    }
    await tx
      .update(sharedSettingChanges)
      .set({
        status: input.decision === 'approve' ? 'approved' : 'rejected',
        decidedBy: operator.operatorId,
        decidedAt: now,
        decisionReason: input.reason ?? null,
      })
      .where(eq(sharedSettingChanges.id, id));
    const [after] = await loadChanges(tx, id);
    if (!after) throw new Error('shared setting change vanished');
    await audit(tx, now, operator, {
      action: input.decision === 'approve' ? 'setting.approve' : 'setting.reject',
      targetType: 'setting',
      targetId: row.id,
      before: { name, value: row.previous },
      after: input.decision === 'approve' ? { name, value: row.value } : after,
      reason: input.reason ?? null,
    });
    return after;
  });
}
