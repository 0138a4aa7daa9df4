import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { openDatabase, queryRows } from '../src/platform/db.ts';
import { placed, trader } from './contracts.ts';
import { T0, type TestApp, testConfig } from './harness.ts';
import { recordPrices } from './prices.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Runs `npm run check:ledger`'s script on the database in `dataDir`; resolves with its exit code and output. */
function checkLedgerCli(dataDir: string): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/cli/check-ledger.ts'],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

describe('npm run check:ledger', () => {
  // It once knew only the obligations registered at import (withdrawals, IEO), not the open
  // orders' (registered when the server builds its routes): any open order read as a violation.
  // A file database (the CLI is another process) migrated from scratch: slower than the shared template.
  it(
    'counts open orders as owed locks, outside the server process',
    { timeout: 120_000 },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-check-ledger-'));
      const database = await openDatabase({ dataDir });
      await database.migrate();
      const clock = new ManualClock(T0);
      const app = await buildApp({ config: testConfig(), database, clock, logger: false });
      await app.ready();
      const t: TestApp = { app, clock, database, close: async () => undefined };
      const user = await trader(t);
      await recordPrices(t, { BTCUSDT: '95000.00' });
      await placed(t, user.token, { amount: '100' });
      const [open] = await queryRows<{ locked: string }>(
        database.db,
        sql`select locked::text from ledger_accounts where name = ${`user:${user.id}:futures:USDT`}`,
      );
      expect(open?.locked).toBe('100200000');
      await app.close();
      await database.close();

      const result = await checkLedgerCli(dataDir);
      expect(result.output).toContain('ledger ok');
      expect(result.code).toBe(0);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  );
});
