import crypto from 'node:crypto';
import { asc, gt } from 'drizzle-orm';
import type { Db } from '../db.ts';
import { files } from '../tables.ts';
import { type FileStore, isStorageKey } from './file-store.ts';

/** Rows read per query, and copies in flight at once: bounded memory, a bucket kept busy. */
const PAGE_ROWS = 200;
const PARALLEL_COPIES = 4;

export interface UploadMigrationReport {
  /** Rows in `files`, each counted once below. */
  files: number;
  copied: number;
  /** Already in the target (an earlier run): not read, not written again. */
  alreadyThere: number;
  /** File ids whose bytes the source does not hold (or whose key is not one we write). */
  missing: string[];
  /** File ids whose bytes in the source do not match the sha256 recorded at upload: not copied. */
  corrupt: string[];
}

/**
 * Copies every file the database knows from one store to another (`npm run storage:migrate`:
 * the local folder into the bucket). Idempotent: a file already in the target is skipped, so a
 * second run copies nothing and an interrupted run resumes. Keys are random and never reused,
 * so an object under the same key is the same file. Nothing is deleted from the source.
 */
export async function migrateUploads(
  db: Db,
  from: FileStore,
  to: FileStore,
): Promise<UploadMigrationReport> {
  const report: UploadMigrationReport = {
    files: 0,
    copied: 0,
    alreadyThere: 0,
    missing: [],
    corrupt: [],
  };
  const copyOne = async (row: { id: number; storageKey: string; sha256: string }) => {
    const id = String(row.id);
    if (!isStorageKey(row.storageKey)) {
      report.missing.push(id);
      return;
    }
    if (await to.exists(row.storageKey)) {
      report.alreadyThere += 1;
      return;
    }
    const data = await from.get(row.storageKey);
    if (!data) {
      report.missing.push(id);
      return;
    }
    if (crypto.createHash('sha256').update(data).digest('hex') !== row.sha256) {
      report.corrupt.push(id);
      return;
    }
    await to.put(row.storageKey, data);
    report.copied += 1;
  };

  let afterId = 0;
  for (;;) {
    const page = await db
      .select({ id: files.id, storageKey: files.storageKey, sha256: files.sha256 })
      .from(files)
      .where(gt(files.id, afterId))
      .orderBy(asc(files.id))
      .limit(PAGE_ROWS);
    if (page.length === 0) break;
    for (let i = 0; i < page.length; i += PARALLEL_COPIES) {
      await Promise.all(page.slice(i, i + PARALLEL_COPIES).map(copyOne));
    }
    report.files += page.length;
    afterId = page[page.length - 1]?.id ?? afterId;
  }
  report.missing.sort((a, b) => Number(a) - Number(b));
  report.corrupt.sort((a, b) => Number(a) - Number(b));
  return report;
}

/** The report as the command prints it: one line of counts, then the ids that need a look. */
export function formatUploadMigration(report: UploadMigrationReport, target: string): string {
  const lines = [
    `${report.files} files: ${report.copied} copied to ${target}, ${report.alreadyThere} already there, ${report.missing.length} missing, ${report.corrupt.length} corrupt`,
  ];
  if (report.missing.length > 0)
    lines.push(`missing from the local folder (file ids): ${report.missing.join(', ')}`);
  if (report.corrupt.length > 0)
    lines.push(
      `not copied, bytes differ from their recorded sha256 (file ids): ${report.corrupt.join(', ')}`,
    );
  return lines.join('\n');
}
