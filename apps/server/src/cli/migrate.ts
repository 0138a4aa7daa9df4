// `npm run migrate`: applies the migrations in apps/server/drizzle/ to the configured database
// and exits. A fleet on PostgreSQL runs it once before rolling its nodes, which then start
// with MIGRATE_ON_START=false; several at once are safe (an advisory lock lets one migrate).
// On the embedded database it needs DATA_DIR to itself: it refuses while a server holds it.
import { databaseIdentity } from '../platform/admin-socket.ts';
import { loadConfig } from '../platform/config.ts';
import { type DataLock, DataDirInUseError, acquireDataLock } from '../platform/data-lock.ts';
import { describeMigrations, openDatabase } from '../platform/db.ts';

async function run(): Promise<number> {
  const config = loadConfig();
  const where = config.databaseUrl
    ? databaseIdentity(config.databaseUrl)
    : `the embedded database in ${config.dataDir}`;
  let lock: DataLock | undefined;
  if (!config.databaseUrl) {
    try {
      lock = acquireDataLock(config.dataDir);
    } catch (error) {
      if (!(error instanceof DataDirInUseError)) throw error;
      // The server migrates its own database at start (MIGRATE_ON_START defaults to true there).
      console.error(`${error.message}\nA server migrates its embedded database when it starts.`);
      return 1;
    }
  }
  try {
    // One connection does it all: the migration holds it under the advisory lock.
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: 1,
      pipelinePoolSize: 1,
    });
    try {
      const applied = await database.migrate();
      const left = await database.pendingMigrations();
      if (left.length > 0) throw new Error(`still not applied: ${describeMigrations(left)}`);
      console.log(
        applied.length === 0
          ? `${where} is up to date: nothing to apply`
          : `${where}: applied ${describeMigrations(applied)}`,
      );
      return 0;
    } finally {
      await database.close();
    }
  } finally {
    lock?.release();
  }
}

try {
  process.exitCode = await run();
} catch (error) {
  // One readable line: a configuration's problems, or why the database refused.
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
