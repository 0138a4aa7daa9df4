// `npm run storage:migrate`: copies the uploads in DATA_DIR/uploads into the bucket that S3_*
// names, for every file the database knows. Run it before the nodes start with S3_* set, and
// again after they do (it skips what is there): nothing is deleted from the local folder.
// On the embedded database it needs DATA_DIR to itself (stop the server first); on PostgreSQL
// it runs beside the servers.
import { loadConfig } from '../platform/config.ts';
import { type DataLock, DataDirInUseError, acquireDataLock } from '../platform/data-lock.ts';
import { openDatabase } from '../platform/db.ts';
import { localUploadsDir } from '../platform/storage/create-file-store.ts';
import { LocalFileStore } from '../platform/storage/local-file-store.ts';
import { formatUploadMigration, migrateUploads } from '../platform/storage/migrate-uploads.ts';
import { S3FileStore } from '../platform/storage/s3-file-store.ts';

async function run(): Promise<number> {
  const config = loadConfig();
  if (!config.s3) {
    console.error(
      'storage:migrate copies local uploads into a bucket: set S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_ENDPOINT outside AWS) first',
    );
    return 2;
  }
  let lock: DataLock | undefined;
  if (!config.databaseUrl) {
    try {
      lock = acquireDataLock(config.dataDir);
    } catch (error) {
      if (!(error instanceof DataDirInUseError)) throw error;
      console.error(
        `${error.message}\nStop the server, run storage:migrate, then start it with S3_* set.`,
      );
      return 2;
    }
  }
  const source = new LocalFileStore(localUploadsDir(config));
  const target = new S3FileStore(config.s3);
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
    });
    try {
      const report = await migrateUploads(database.db, source, target);
      console.log(formatUploadMigration(report, `bucket ${config.s3.bucket}`));
      return report.missing.length + report.corrupt.length > 0 ? 1 : 0;
    } finally {
      await database.close();
    }
  } finally {
    await target.close();
    lock?.release();
  }
}

try {
  process.exitCode = await run();
} catch (error) {
  // One readable line (a query error's object would print the whole statement and its parameters).
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
}
