import crypto from 'node:crypto';
import type { ArticleCover } from '@tradewind/contract/messages';
import type { FastifyRequest } from 'fastify';
import type { Config } from '#platform/config.ts';
import type { Db } from '#platform/db.ts';
import { AppError } from '#platform/errors.ts';
import { type FileStore, newStorageKey, publicFileName } from '#platform/files.ts';
import { readSharedSettings } from '../settings/service.ts';
import { multipartError } from '#platform/files-routes.ts';
import { inspectImage, reencodeImage } from '#platform/images.ts';
import { files } from '#platform/tables.ts';
import { type OperatorContext, audit } from '../operator/service.ts';

/**
 * Article covers uploaded in the console: checked and re-encoded like every upload
 * (ARCHITECTURE §8), stored public and served from the image host. The file row's owner is
 * 0 (no user: an operator uploaded it); the audit entry names the operator.
 */
export const COVER_PURPOSE = 'news_cover';
const COVER_MAX_SIDE_PX = 1600;

/** Reads the one `file` part of a multipart body; anything else is refused. */
export async function readCover(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', {}, 415);
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts({
      limits: { files: 1, fields: 0, parts: 2, headerPairs: 20, fileSize: maxBytes },
    })) {
      if (part.type !== 'file' || part.fieldname !== 'file') {
        if (part.type === 'file') part.file.resume();
        throw new AppError('FILE_REQUIRED', {}, 422);
      }
      bytes = await part.toBuffer();
    }
  } catch (error) {
    throw multipartError(error, maxBytes);
  }
  if (!bytes) throw new AppError('FILE_REQUIRED', {}, 422);
  return bytes;
}

export async function storeCover(
  deps: { db: Db; config: Config; fileStore: FileStore },
  now: Date,
  operator: OperatorContext,
  bytes: Buffer,
): Promise<ArticleCover> {
  const image = await reencodeImage(
    bytes,
    inspectImage(bytes),
    Math.min(COVER_MAX_SIDE_PX, (await readSharedSettings(deps.db)).uploads.maxSidePx),
  );
  const storageKey = newStorageKey();
  await deps.fileStore.put(storageKey, image.data);
  try {
    return await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(files)
        .values({
          ownerId: 0,
          purpose: COVER_PURPOSE,
          visibility: 'public',
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
      const url = `${deps.config.imgBaseUrl}/${publicFileName(storageKey)}`;
      await audit(tx, now, operator, {
        action: 'article.cover_upload',
        targetType: 'file',
        targetId: row.id,
        after: { url, width: row.width, height: row.height },
      });
      return { id: String(row.id), url, width: row.width, height: row.height };
    });
  } catch (error) {
    await deps.fileStore.delete(storageKey).catch(() => undefined);
    throw error;
  }
}
