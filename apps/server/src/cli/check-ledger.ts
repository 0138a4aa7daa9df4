// `npm run check:ledger`: checks the ledger's invariants on the configured database.
import { checkLedger } from '../modules/ledger/invariants.ts';
import { registerLockedFundObligations } from '../modules/ledger/obligations.ts';
import { loadConfig } from '../platform/config.ts';
import { openDatabase } from '../platform/db.ts';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await database.migrate();
  registerLockedFundObligations();
  const violations = await checkLedger(database.db);
  if (violations.length === 0) {
    console.log('ledger ok: every entry balances, balances sum to zero per asset, cached balances equal postings, no user balance is negative, locked funds equal open obligations');
  } else {
    for (const violation of violations) console.error(`${violation.rule}: ${violation.detail}`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
