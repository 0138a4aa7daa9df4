import { sql } from 'drizzle-orm';
import { bigint, check, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Each run of the ledger invariant checker (ARCHITECTURE §5) from the server: on a schedule
 * or when an operator asks. The dashboard shows the latest; older rows are kept a while
 * as a history of when the ledger was last known good.
 */
export const ledgerChecks = pgTable(
  'ledger_checks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** ok, violations, or error (the check itself failed, e.g. ran out of time). */
    status: text('status').notNull(),
    /** `schedule`, or `operator:<username>`. */
    trigger: text('trigger').notNull(),
    /** `{rule, detail}[]`, at most a few per rule (checkLedger caps them). */
    violations: jsonb('violations').$type<{ rule: string; detail: string }[]>().notNull(),
  },
  (t) => [
    check('ledger_checks_status', sql`${t.status} in ('ok', 'violations', 'error')`),
    check(
      'ledger_checks_ok_is_clean',
      sql`(${t.status} = 'ok') = (jsonb_array_length(${t.violations}) = 0)`,
    ),
  ],
);
