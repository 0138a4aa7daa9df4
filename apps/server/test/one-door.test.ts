import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LEDGER_TABLES, SRC, ledgerTables, ledgerWrites, scannedFiles } from './one-door.ts';

/** Only modules/ledger writes the ledger's tables and `assets` (the scanner and what it looks for: one-door.ts). */

describe('one door to the ledger', () => {
  it('reads the ledger tables off its schema', () => {
    expect(
      ledgerTables()
        .map((t) => t.table)
        .sort(),
    ).toEqual(['assets', 'ledger_accounts', 'ledger_entries', 'ledger_postings']);
  });

  it('no file under apps/server/src outside modules/ledger writes a ledger table or assets', () => {
    const files = scannedFiles(SRC);
    // The scan reaches the modules that post money, and contract settlement in particular.
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain(path.join(SRC, 'modules/contracts/settlement.ts'));
    expect(files.flatMap((file) => ledgerWrites(file))).toEqual([]);
  });

  const planted = fs.mkdtempSync(path.join(os.tmpdir(), 'one-door-'));
  afterAll(() => fs.rmSync(planted, { recursive: true, force: true }));

  it('catches every way a planted file writes them, and nothing that only reads', () => {
    const file = path.join(planted, 'planted.ts');
    const tablesSpecifier = path.relative(planted, LEDGER_TABLES).split(path.sep).join('/');
    fs.writeFileSync(
      file,
      [
        `import { postings as p, assets, entries } from '${tablesSpecifier}';`,
        `import * as ledgerTables from '${tablesSpecifier.replace(/\.ts$/, '')}';`,
        `import { contractOrders } from '../contracts/tables.ts';`,
        'export async function plant(db: any, tx: any, sql: any, client: any, id: number) {',
        '  await db.insert(p).values({});', // 5: Drizzle, renamed import
        '  await tx.update(ledgerTables.accounts).set({ available: 0n });', // 6: Drizzle, namespace import
        '  await tx.execute(sql`delete from ledger_entries where id = ${id}`);', // 7: SQL in a template
        `  await client.query('INSERT INTO "ledger_postings" (amount) values (1)');`, // 8: upper case, quoted
        '  await tx.execute(sql`update ${assets} set scale = 2`);', // 9: the Drizzle object interpolated
        `  await client.query("insert into public.assets (code) values ('X')");`, // 10: schema-qualified
        '  await tx.execute(sql`truncate ledger_accounts`);', // 11
        '  // insert into ledger_entries: a comment is not a write',
        '  await db.select().from(p).where(sql`${p.id} > 0`);',
        "  await client.query('select * from ledger_postings for update of ledger_postings');",
        '  await db.insert(contractOrders).values({});',
        '  await db.update(contractOrders).set({ state: "settled" });',
        '  return [entries, sql`select id from ledger_accounts where id = ${id} for no key update`];',
        '}',
      ].join('\n'),
    );
    const found = ledgerWrites(file);
    expect(found.map((line) => Number(line.split(':')[1]))).toEqual([5, 6, 7, 8, 9, 10, 11]);
    expect(found.join('\n')).toMatch(/Drizzle \.insert\(\) on ledger_postings/);
    expect(found.join('\n')).toMatch(/Drizzle \.update\(\) on ledger_accounts/);
  });
});
