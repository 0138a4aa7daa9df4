import crypto from 'node:crypto';
import type { FilePurpose, FileVisibility, UploadedFile } from '@tradewind/contract/files';
import { AVATAR_SIDE_PX } from '@tradewind/contract/user';
import { and, count, eq, gte } from 'drizzle-orm';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db, Executor } from './db.ts';
import { AppError } from './errors.ts';
import { inspectImage, reencodeImage } from './images.ts';
import { type FileStore, type StoredFile, newStorageKey } from './storage/file-store.ts';
import { type FileRow, files } from './tables.ts';

/**
 * Uploaded files: where the bytes are kept (a FileStore: a local folder, or an S3-compatible
 * bucket when S3_* is set) and who may read them (a row in `files`). Uploads are images only, re-encoded without metadata (images.ts), stored under
 * a random name. Private files are read only through their owner's id or an operator's
 * session, never from the public image host.
 */

// The store is chosen once at boot (app.ts); these names stay importable from here.
export { createFileStore } from './storage/create-file-store.ts';
export { type FileStore, newStorageKey } from './storage/file-store.ts';

/** Who can see a purpose's files: identity documents and payment proofs are private. */
const VISIBILITY: Record<FilePurpose, FileVisibility> = {
  kyc: 'private',
  card_deposit: 'private',
  avatar: 'public',
  loan: 'private',
};

/** The name a public file is served under from the image host (`imgBaseUrl`/<name>). */
export function publicFileName(storageKey: string): string {
  return `${storageKey}.jpg`;
}

/** At most this many uploads per user per hour: enough for any form, not for filling a disk. */
export const UPLOADS_PER_HOUR = 60;

export interface FileDeps {
  db: Db;
  clock: Clock;
  config: Config;
  fileStore: FileStore;
  /** The install's upload limits, read where they apply (modules/settings, handed in by app.ts). */
  uploadLimits: () => Promise<{ maxBytes: number; maxSidePx: number }>;
}

function toUploaded(row: FileRow): UploadedFile {
  return {
    id: String(row.id),
    purpose: row.purpose as FilePurpose,
    mime: row.mime,
    size: row.size,
    width: row.width,
    height: row.height,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Checks, re-encodes and stores one upload for its owner. Raises UPLOAD_QUOTA_EXCEEDED,
 * FILE_EMPTY, FILE_TYPE_UNSUPPORTED, FILE_CORRUPT, FILE_NOT_PLAIN_IMAGE,
 * FILE_PIXELS_TOO_MANY. Nothing is stored when it raises.
 */
export async function storeUpload(
  deps: FileDeps,
  input: { ownerId: number; purpose: FilePurpose; bytes: Buffer },
): Promise<UploadedFile> {
  const now = deps.clock.now();
  const [recent] = await deps.db
    .select({ n: count() })
    .from(files)
    .where(
      and(
        eq(files.ownerId, input.ownerId),
        gte(files.createdAt, new Date(now.getTime() - 3_600_000)),
      ),
    );
  if ((recent?.n ?? 0) >= UPLOADS_PER_HOUR) throw new AppError('UPLOAD_QUOTA_EXCEEDED', {}, 429);

  const format = inspectImage(input.bytes);
  const image =
    input.purpose === 'avatar'
      ? await reencodeImage(input.bytes, format, AVATAR_SIDE_PX, 'square')
      : await reencodeImage(input.bytes, format, (await deps.uploadLimits()).maxSidePx);
  const storageKey = newStorageKey();
  await deps.fileStore.put(storageKey, image.data);
  try {
    const [row] = await deps.db
      .insert(files)
      .values({
        ownerId: input.ownerId,
        purpose: input.purpose,
        visibility: VISIBILITY[input.purpose],
        storageKey,
        mime: image.mime,
        size: image.data.length,
        width: image.width,
        height: image.height,
        sha256: crypto.createHash('sha256').update(image.data).digest('hex'),
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('file insert returned no row');
    return toUploaded(row);
  } catch (error) {
    await deps.fileStore.delete(storageKey).catch(() => undefined);
    throw error;
  }
}

/**
 * The file a form names, read through its owner: another user's id, an unknown id and a
 * file uploaded for another purpose are all a field error on `field` (FILE_NOT_FOUND,
 * FILE_WRONG_PURPOSE), so a form never learns whether someone else's file exists.
 */
export async function requireOwnFile(
  executor: Executor,
  input: { ownerId: number; id: string; purpose: FilePurpose; field: string },
): Promise<FileRow> {
  const [row] = await executor
    .select()
    .from(files)
    .where(and(eq(files.id, Number(input.id)), eq(files.ownerId, input.ownerId)))
    .limit(1);
  if (!row) throw new AppError('FILE_NOT_FOUND', {}, 422, input.field);
  if (row.purpose !== input.purpose) throw new AppError('FILE_WRONG_PURPOSE', {}, 422, input.field);
  return row;
}

/** A file's bytes for its owner (ownerId given) or for an operator (ownerId null). NOT_FOUND otherwise. */
export async function readFileContent(
  deps: Pick<FileDeps, 'db' | 'fileStore'>,
  input: { id: string; ownerId: number | null },
): Promise<{ row: FileRow; file: StoredFile }> {
  const conditions = [eq(files.id, Number(input.id))];
  if (input.ownerId !== null) conditions.push(eq(files.ownerId, input.ownerId));
  const [row] = await deps.db
    .select()
    .from(files)
    .where(and(...conditions))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  const file = await deps.fileStore.open(row.storageKey);
  if (!file) throw new AppError('NOT_FOUND');
  return { row, file };
}

const PUBLIC_NAME_PATTERN = /^([0-9a-f]{48})\.jpg$/;

/**
 * A public file (an avatar) by its served name, for anyone: NOT_FOUND for a private file,
 * an unknown name or anything else, so the public host never reveals private uploads.
 */
export async function readPublicFile(
  deps: Pick<FileDeps, 'db' | 'fileStore'>,
  name: string,
): Promise<{ row: FileRow; file: StoredFile }> {
  const storageKey = PUBLIC_NAME_PATTERN.exec(name)?.[1];
  if (!storageKey) throw new AppError('NOT_FOUND');
  const [row] = await deps.db
    .select()
    .from(files)
    .where(and(eq(files.storageKey, storageKey), eq(files.visibility, 'public')))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  const file = await deps.fileStore.open(row.storageKey);
  if (!file) throw new AppError('NOT_FOUND');
  return { row, file };
}
