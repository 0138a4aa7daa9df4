import * as z from 'zod/mini';

/**
 * Uploaded files (ARCHITECTURE §8): images only, checked by their bytes, re-encoded
 * without metadata, stored under random names. A file belongs to the user who uploaded
 * it and is used for one purpose; private files are served only to their owner and to
 * operators, never from the public image host.
 */

export const FILE_PURPOSES = ['kyc', 'card_deposit', 'avatar', 'loan'] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];
export const filePurposeSchema = z.enum(FILE_PURPOSES, {
  error: (issue) =>
    issue.input === undefined ? 'validation.required' : 'validation.invalid_value',
});

export const FILE_VISIBILITIES = ['private', 'public'] as const;
export type FileVisibility = (typeof FILE_VISIBILITIES)[number];

/** What may be uploaded, decided by magic bytes. Every upload is stored re-encoded as JPEG. */
export const UPLOAD_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const STORED_MIME_TYPE = 'image/jpeg';

/** The default upload size limit (UPLOAD_MAX_BYTES overrides it on the server). */
export const DEFAULT_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;

/** The multipart field names of `POST /api/v1/files`. */
export const UPLOAD_FIELDS = { file: 'file', purpose: 'purpose' } as const;

/** A file id as a form field: digits, as the upload returned it. */
export const fileIdSchema = z
  .string({ error: 'validation.required' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'validation.required' }),
    z.regex(/^\d{1,18}$/, { error: 'validation.file_id' }),
  );

export const uploadedFileSchema = z.object({
  id: z.string(),
  purpose: filePurposeSchema,
  mime: z.string(),
  /** Bytes as stored (after re-encoding). */
  size: z.number().check(z.int()),
  width: z.number().check(z.int()),
  height: z.number().check(z.int()),
  createdAt: z.iso.datetime(),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

export const fileContentQuerySchema = z.strictObject({ id: fileIdSchema });
