// `npm run check:ledger`: checks the ledger's invariants on the configured database.
// A running server on this DATA_DIR runs the check itself (its admin channel); otherwise this
// process opens the database, which on PGlite needs DATA_DIR to itself.
import { ledgerReport } from '../modules/ledger/ops.ts';
import { LOCKED_FUND_OBLIGATIONS } from '../obligations.ts';
import {
  type AdminReply,
  adminSocketPath,
  askAdminSocket,
  databaseIdentity,
} from '../platform/admin-socket.ts';
import { loadConfig } from '../platform/config.ts';
import { type DataLock, DataDirInUseError, acquireDataLock } from '../platform/data-lock.ts';
import { openDatabase } from '../platform/db.ts';

const config = loadConfig();

async function checkHere(): Promise<AdminReply> {
  let lock: DataLock | undefined;
  if (!config.databaseUrl) {
    try {
      lock = acquireDataLock(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirInUseError) return { ok: false, error: error.message };
      throw error;
    }
  }
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
    });
    try {
      await database.migrate();
      const report = await ledgerReport(database.db, LOCKED_FUND_OBLIGATIONS);
      return report.ok ? { ok: true, output: report.text } : { ok: false, error: report.text };
    } finally {
      await database.close();
    }
  } finally {
    lock?.release();
  }
}

const socketPath = adminSocketPath(config.dataDir);
const reply =
  (await askAdminSocket(socketPath, {
    command: 'ledger:check',
    options: {},
    positionals: [],
    database: databaseIdentity(config.databaseUrl),
  }).catch((error: unknown) => ({
    ok: false as const,
    error: `cannot reach the server on ${socketPath}: ${error instanceof Error ? error.message : String(error)}`,
  }))) ?? (await checkHere());
if (reply.ok) {
  console.log(reply.output);
} else {
  console.error(reply.error);
  process.exitCode = 1;
}
