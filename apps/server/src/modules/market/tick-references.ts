import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '#platform/db.ts';

/**
 * Retention: which ticks something else still points at. A column that holds market tick
 * ids (an order's open and close ticks) is declared by the module that owns it, as a plain
 * value the server hands the recorder (src/tick-references.ts); foreign keys to market_ticks
 * are found in the catalogue as well.
 */
export interface TickReference {
  table: string;
  column: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Declares that `table.column` holds tick ids: the retention prune never deletes a tick such a row names. */
export function tickReference(table: string, column: string): TickReference {
  if (!IDENTIFIER.test(table) || !IDENTIFIER.test(column))
    throw new Error(`not a plain SQL identifier: ${table}.${column}`);
  return { table, column };
}

/** Every column that refers to ticks: the declared ones and every single-column foreign key to market_ticks. */
export async function tickReferenceColumns(
  db: Executor,
  declared: readonly TickReference[],
): Promise<TickReference[]> {
  const found = await queryRows<TickReference>(
    db,
    sql`select cl.relname as table, a.attname as column
        from pg_constraint c
        join pg_class cl on cl.oid = c.conrelid
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
        where c.contype = 'f' and c.confrelid = 'market_ticks'::regclass and array_length(c.conkey, 1) = 1`,
  );
  const all = new Map<string, TickReference>();
  for (const ref of [...declared, ...found])
    all.set(`${ref.table}.${ref.column}`, { table: ref.table, column: ref.column });
  return [...all.values()];
}

/** `not exists` clauses, one per referring column, for a query over market_ticks aliased `t`. */
export function unreferencedTick(references: readonly TickReference[]): SQL {
  if (references.length === 0) return sql`true`;
  return sql.join(
    references.map(
      ({ table, column }) =>
        sql`not exists (select 1 from ${sql.identifier(table)} r where r.${sql.identifier(column)} = t.id)`,
    ),
    sql` and `,
  );
}
