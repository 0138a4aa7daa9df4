import {
  fileContentQuerySchema,
  filePurposeSchema,
  UPLOAD_FIELDS,
  uploadedFileSchema,
} from '@tradewind/contract/files';
import { REVIEW_ROLES } from '@tradewind/contract/operator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, RequestValidationError } from './errors.ts';
import { type FileDeps, readFileContent, readPublicFile, storeUpload } from './files.ts';
import { type AuthMode, type OperatorAuth, authHooks, route } from './http.ts';
import type { StoredFile } from './storage/file-store.ts';

const tags = ['files'];

const uploadFieldsSchema = z.strictObject({ [UPLOAD_FIELDS.purpose]: filePurposeSchema });

/** Multipart limits besides the file size: one file, a few short fields, nothing else. */
const PART_LIMITS = { files: 1, fields: 4, fieldSize: 256, parts: 6, headerPairs: 20 } as const;

export function multipartError(error: unknown, maxBytes: number): Error {
  if (error instanceof AppError || error instanceof RequestValidationError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError(
        'FILE_TOO_LARGE',
        { maxMb: Math.round((maxBytes / 1_048_576) * 10) / 10 },
        413,
      );
    case 'FST_FILES_LIMIT':
      return new AppError('FILE_ONE_ONLY', {}, 422);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError('PAYLOAD_TOO_LARGE', {}, 413);
    default:
      // Malformed multipart (no boundary, truncated parts, bad headers): the client's fault.
      return new AppError('BAD_REQUEST', {}, 400);
  }
}

/**
 * Reads `purpose` and one `file` from a multipart body, in any order. The file is held in
 * memory up to the size limit; a larger one is cut off by the parser and refused.
 */
async function readUpload(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ purpose: z.output<typeof filePurposeSchema>; bytes: Buffer }> {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', {}, 415);
  const fields: Record<string, unknown> = {};
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: { ...PART_LIMITS, fileSize: maxBytes } })) {
      if (part.type === 'file') {
        if (part.fieldname !== UPLOAD_FIELDS.file) {
          part.file.resume();
          throw new AppError('FILE_REQUIRED', {}, 422);
        }
        bytes = await part.toBuffer();
      } else {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    throw multipartError(error, maxBytes);
  }
  const checked = uploadFieldsSchema.safeParse(fields);
  if (!checked.success) throw new RequestValidationError(checked.error.issues, fields);
  if (!bytes) throw new AppError('FILE_REQUIRED', {}, 422);
  return { purpose: checked.data.purpose, bytes };
}

/** Bytes from the store, streamed: a bucket's object is never held whole in memory here. */
function sendImage(
  reply: FastifyReply,
  { row, file }: { row: { id: number; mime: string }; file: StoredFile },
) {
  return (
    reply
      .header('content-type', row.mime)
      .header('content-length', file.size)
      .header('content-disposition', `inline; filename="file-${row.id}.jpg"`)
      // Private: never kept by a shared cache; opened directly, it can run nothing.
      .header('cache-control', 'private, no-store')
      .header('content-security-policy', "default-src 'none'; img-src 'self'; sandbox")
      .send(file.body)
  );
}

/** A GET that answers with bytes, not an envelope; listed in the route table like any other. */
function binaryRoute(
  app: FastifyInstance,
  spec: { url: string; auth: AuthMode; roles?: readonly OperatorAuth['role'][]; summary: string },
  handler: (
    request: FastifyRequest,
    query: z.output<typeof fileContentQuerySchema>,
    reply: FastifyReply,
  ) => Promise<unknown>,
): void {
  // Stored images are always re-encoded to JPEG (images.ts), so a success is one.
  app.routeTable.push({
    method: 'GET',
    url: spec.url,
    auth: spec.auth,
    query: fileContentQuerySchema,
    roles: spec.roles,
    produces: 'image/jpeg',
  });
  app.route({
    method: 'GET',
    url: spec.url,
    schema: {
      summary: spec.summary,
      tags,
      querystring: fileContentQuerySchema,
      security: [{ bearer: [] }],
    },
    config: { auth: spec.auth },
    ...authHooks(app, spec),
    handler: (request, reply) =>
      handler(request, request.query as z.output<typeof fileContentQuerySchema>, reply),
  });
}

/**
 * `POST /api/v1/files` (multipart: `purpose`, `file`) and the two readers of private files:
 * the owner's (`GET /api/v1/files/content?id=`) and the operators'
 * (`GET /api/admin/v1/files/content?id=`). No route serves private files by storage name;
 * the public image host (`GET /files/<key>.jpg`, the default `imgBaseUrl`) serves public
 * files (avatars) only. Bytes come from the configured store (a local folder or a private
 * bucket), so every node serves every file.
 */
export function registerFileRoutes(app: FastifyInstance, deps: FileDeps): void {
  route(
    app,
    {
      method: 'POST',
      url: '/api/v1/files',
      auth: 'user',
      summary:
        'Upload one image (multipart/form-data: purpose, file); JPEG, PNG or WebP, re-encoded without metadata',
      tags,
      response: uploadedFileSchema,
      rateLimit: { max: 30, timeWindow: 60_000 },
    },
    async ({ request, auth }) => {
      const { maxBytes } = await deps.uploadLimits();
      const { purpose, bytes } = await readUpload(request, maxBytes);
      return storeUpload(deps, { ownerId: auth.userId, purpose, bytes });
    },
  );

  app.route({
    method: 'GET',
    url: '/files/:name',
    schema: { summary: 'A public image (an avatar) by its name under the image host', tags },
    config: { auth: 'none' },
    handler: async (request, reply) => {
      const { row, file } = await readPublicFile(deps, (request.params as { name: string }).name);
      return (
        reply
          .header('content-type', row.mime)
          .header('content-length', file.size)
          // A public file's name is random and its bytes never change: any cache may keep it.
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('content-security-policy', "default-src 'none'; img-src 'self'; sandbox")
          .header('cross-origin-resource-policy', 'cross-origin')
          .send(file.body)
      );
    },
  });

  binaryRoute(
    app,
    {
      url: '/api/v1/files/content',
      auth: 'user',
      summary: 'One of your own uploaded images (image/jpeg)',
    },
    async (request, query, reply) => {
      const userId = request.auth?.userId;
      if (userId === undefined) throw new AppError('UNAUTHORIZED');
      return sendImage(reply, await readFileContent(deps, { id: query.id, ownerId: userId }));
    },
  );

  binaryRoute(
    app,
    {
      url: '/api/admin/v1/files/content',
      auth: 'operator',
      roles: REVIEW_ROLES,
      summary: 'Operators: any uploaded image, for review (image/jpeg)',
    },
    async (request, query, reply) => {
      const file = await readFileContent(deps, { id: query.id, ownerId: null });
      request.log.info(
        { operator: request.operator?.username, fileId: file.row.id, purpose: file.row.purpose },
        'operator read an uploaded file',
      );
      return sendImage(reply, file);
    },
  );
}
