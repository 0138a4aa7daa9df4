import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Clock } from '#platform/clock.ts';
import type { Db } from '#platform/db.ts';
import { type FileStore, newStorageKey } from '#platform/files.ts';
import { files } from '#platform/tables.ts';
import { users } from '../user/tables.ts';
import { kycSubmissions } from './tables.ts';

/** The demo account's verified identity: a bank card it links must be in this name. */
export const DEMO_IDENTITY = { firstName: 'Demo', lastName: 'Trader' } as const;

/** A plain card-coloured picture standing in for a document photo: clearly not a real one. */
async function placeholderPhoto(background: { r: number; g: number; b: number }) {
  const { default: sharp } = await import('sharp');
  const width = 320;
  const height = 200;
  const bytes = await sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
  return { bytes, width, height };
}

/**
 * Demo mode keeps trying Tradewind easy (spec §5's KYC gate): the demo account has passed
 * KYC, as an approved submission in DEMO_IDENTITY's name with placeholder photos, decided by
 * nobody. Once: an account that already has an approved submission is left as it is.
 */
export async function seedDemoIdentity(
  deps: { db: Db; clock: Clock; fileStore: FileStore },
  userId: number,
): Promise<void> {
  const [approved] = await deps.db
    .select({ id: kycSubmissions.id })
    .from(kycSubmissions)
    .where(and(eq(kycSubmissions.userId, userId), eq(kycSubmissions.status, 'approved')))
    .limit(1);
  if (approved) return;
  const now = deps.clock.now();
  const photos = await Promise.all([
    placeholderPhoto({ r: 30, g: 90, b: 200 }),
    placeholderPhoto({ r: 230, g: 215, b: 190 }),
  ]);
  const keys = photos.map(() => newStorageKey());
  // The bytes first: a row never names a file that is not stored.
  await Promise.all(photos.map((photo, i) => deps.fileStore.put(keys[i] as string, photo.bytes)));
  await deps.db.transaction(async (tx) => {
    const rows = await tx
      .insert(files)
      .values(
        photos.map((photo, i) => ({
          ownerId: userId,
          purpose: 'kyc',
          visibility: 'private',
          storageKey: keys[i] as string,
          mime: 'image/png',
          size: photo.bytes.length,
          width: photo.width,
          height: photo.height,
          sha256: crypto.createHash('sha256').update(photo.bytes).digest('hex'),
          createdAt: now,
        })),
      )
      .returning({ id: files.id });
    const [front, face] = rows;
    if (!front || !face) throw new Error('demo identity photos were not stored');
    await tx.insert(kycSubmissions).values({
      userId,
      status: 'approved',
      country: 'US',
      ...DEMO_IDENTITY,
      documentType: 'passport',
      documentNumber: 'DEMO0000',
      frontFileId: front.id,
      faceFileId: face.id,
      decidedAt: now,
      createdAt: now,
    });
    await tx.update(users).set({ verified: true, updatedAt: now }).where(eq(users.id, userId));
  });
}
