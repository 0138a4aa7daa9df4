import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOADS_PER_HOUR } from '../src/platform/files.ts';
import { queryRows } from '../src/platform/db.ts';
import { type TestApp, call, createTestApp, operatorToken, registerUser } from './harness.ts';
import {
  EXIF_SECRET,
  jpegWithExif,
  multipartBody,
  noisyPng,
  pngImage,
  tempDataDir,
  upload,
  webpImage,
} from './uploads.ts';

let t: TestApp;
const data = tempDataDir();
beforeAll(async () => {
  t = await createTestApp({ env: { DATA_DIR: data.dir } });
});
afterAll(async () => {
  await t.close();
  data.remove();
});

interface FileRow {
  id: string;
  owner_id: string;
  purpose: string;
  visibility: string;
  storage_key: string;
  mime: string;
  size: number;
}

const fileRows = (ownerId: string | number) =>
  queryRows<FileRow>(
    t.database.db,
    sql`select id::text, owner_id::text, purpose, visibility, storage_key, mime, size from files where owner_id = ${Number(ownerId)} order by id`,
  );

/** A PNG chunk with a correct CRC. */
function pngChunk(type: string, payload: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(payload.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), payload]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Inserts a chunk just before IEND (the last 12 bytes). */
function withChunk(png: Buffer, chunk: Buffer): Buffer {
  return Buffer.concat([png.subarray(0, png.length - 12), chunk, png.subarray(png.length - 12)]);
}

/** A real 1×1 PNG whose header claims `width × height`: tiny on the wire, huge once decoded. */
async function pixelBomb(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await pngImage(1, 1));
  // IHDR data starts at byte 16 (8 signature + 4 length + 4 type); its CRC follows 13 bytes later.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('uploads are refused with a clear message, and nothing is stored', () => {
  const cases: {
    name: string;
    make: () => Promise<Buffer>;
    filename?: string;
    contentType?: string;
    status: number;
    code: number;
    message: string;
  }[] = [
    {
      name: 'a PDF',
      make: async () =>
        Buffer.from(
          '%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
        ),
      filename: 'statement.pdf',
      contentType: 'application/pdf',
      status: 415,
      code: 2201,
      message: 'Only JPEG, PNG or WebP images can be uploaded.',
    },
    {
      name: 'an SVG (declared as an image)',
      make: async () =>
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
        ),
      filename: 'logo.svg',
      contentType: 'image/svg+xml',
      status: 415,
      code: 2201,
      message: 'Only JPEG, PNG or WebP images can be uploaded.',
    },
    {
      name: 'text renamed .jpg and declared image/jpeg',
      make: async () => Buffer.from('this is a plain text note pretending to be a photo'),
      filename: 'photo.jpg',
      contentType: 'image/jpeg',
      status: 415,
      code: 2201,
      message: 'Only JPEG, PNG or WebP images can be uploaded.',
    },
    {
      name: 'a GIF',
      make: async () =>
        sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
          .gif()
          .toBuffer(),
      filename: 'x.png',
      status: 415,
      code: 2201,
      message: 'Only JPEG, PNG or WebP images can be uploaded.',
    },
    {
      name: 'a corrupt JPEG (right header, garbage after)',
      make: async () =>
        Buffer.concat([
          Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
          Buffer.from('JFIF\0 not really a jpeg at all, just bytes'),
        ]),
      filename: 'broken.jpg',
      contentType: 'image/jpeg',
      status: 422,
      code: 2203,
      message: 'The image could not be read. It may be damaged; please choose another.',
    },
    {
      name: 'a truncated PNG',
      make: async () => {
        const png = await noisyPng(40, 40);
        return png.subarray(0, Math.floor(png.length / 2));
      },
      status: 422,
      code: 2203,
      message: 'The image could not be read. It may be damaged; please choose another.',
    },
    {
      name: 'a PNG whose pixel data is damaged (structure intact)',
      make: async () => {
        const png = Buffer.from(await noisyPng(40, 40));
        // Flip bytes inside the compressed IDAT data, keeping every chunk length.
        for (let i = 60; i < 90; i++) png[i] = (png[i] ?? 0) ^ 0xff;
        return png;
      },
      status: 422,
      code: 2203,
      message: 'The image could not be read. It may be damaged; please choose another.',
    },
    {
      name: 'a polyglot: PNG followed by HTML',
      make: async () =>
        Buffer.concat([
          await pngImage(),
          Buffer.from('<html><body><script>fetch("/api/v1/user/profile")</script></body></html>'),
        ]),
      status: 422,
      code: 2204,
      message: 'This file contains more than an image and cannot be accepted.',
    },
    {
      name: 'a polyglot: JPEG followed by HTML',
      make: async () =>
        Buffer.concat([
          await jpegWithExif(),
          Buffer.from('<!DOCTYPE html><script>alert(document.cookie)</script>'),
        ]),
      filename: 'x.jpg',
      contentType: 'image/jpeg',
      status: 422,
      code: 2204,
      message: 'This file contains more than an image and cannot be accepted.',
    },
    {
      name: 'a polyglot: WebP followed by HTML',
      make: async () =>
        Buffer.concat([await webpImage(), Buffer.from('<html><script>alert(1)</script></html>')]),
      filename: 'x.webp',
      contentType: 'image/webp',
      status: 422,
      code: 2204,
      message: 'This file contains more than an image and cannot be accepted.',
    },
    {
      name: 'a PNG with a script in a text chunk',
      make: async () =>
        withChunk(
          await pngImage(),
          pngChunk('tEXt', Buffer.from('Comment\0<script>alert(1)</script>', 'latin1')),
        ),
      status: 422,
      code: 2204,
      message: 'This file contains more than an image and cannot be accepted.',
    },
    {
      name: 'a pixel bomb (1×1 PNG claiming 20000×20000)',
      make: () => pixelBomb(20_000, 20_000),
      status: 422,
      code: 2210,
      message: 'The image has too many pixels: at most 40 megapixels.',
    },
    {
      name: 'zero bytes',
      make: async () => Buffer.alloc(0),
      status: 422,
      code: 2205,
      message: 'The file is empty.',
    },
    {
      name: 'a file over 8 MB',
      make: async () => Buffer.concat([await pngImage(), Buffer.alloc(8 * 1024 * 1024)]),
      status: 413,
      code: 2202,
      message: 'The image is too large: at most 8 MB.',
    },
  ];

  it.each(cases)('$name', async ({ make, filename, contentType, status, code, message }) => {
    const user = await registerUser(t.app);
    const before = data.uploads().length;
    const reply = await upload(t.app, user.token, {
      purpose: 'kyc',
      data: await make(),
      filename,
      contentType,
    });
    expect(reply.status).toBe(status);
    expect(reply.body.code).toBe(code);
    expect(reply.body.message).toBe(message);
    expect(reply.body.data).toBeNull();
    expect(await fileRows(user.uid)).toEqual([]);
    expect(data.uploads().length).toBe(before);
  });

  it('the message follows Accept-Language', async () => {
    const user = await registerUser(t.app);
    const reply = await upload(t.app, user.token, {
      purpose: 'kyc',
      data: Buffer.from('%PDF-1.4'),
      lang: 'zh-CN',
    });
    expect(reply.body.code).toBe(2201);
    expect(reply.body.message).toBe('只能上传 JPEG、PNG 或 WebP 格式的图片。');
  });

  it('a missing file', async () => {
    const user = await registerUser(t.app);
    const reply = await upload(t.app, user.token, { purpose: 'kyc' });
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ code: 2206, message: 'Choose an image to upload.' });
    expect(await fileRows(user.uid)).toEqual([]);
  });

  it('a file under another field name counts as missing', async () => {
    const user = await registerUser(t.app);
    const reply = await upload(t.app, user.token, {
      purpose: 'kyc',
      data: await pngImage(),
      fileField: 'image',
    });
    expect(reply.body.code).toBe(2206);
    expect(await fileRows(user.uid)).toEqual([]);
  });

  it.each([
    ['news_cover', 'This value is not allowed.'],
    ['', 'This value is not allowed.'],
    [undefined, 'This field is required.'],
  ])('purpose %j is a field error', async (purpose, message) => {
    const user = await registerUser(t.app);
    const reply = await upload(t.app, user.token, { purpose, data: await pngImage() });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe(422);
    expect(reply.body.errors).toEqual({ purpose: [message] });
    expect(await fileRows(user.uid)).toEqual([]);
  });

  it('two files in one request', async () => {
    const user = await registerUser(t.app);
    const reply = await upload(t.app, user.token, {
      purpose: 'kyc',
      data: await pngImage(),
      extraFiles: [await pngImage()],
    });
    expect(reply.body).toMatchObject({ code: 2209, message: 'Upload one image at a time.' });
    expect(await fileRows(user.uid)).toEqual([]);
  });

  it('a JSON body instead of multipart', async () => {
    const user = await registerUser(t.app);
    const reply = await call(t.app, 'POST', '/api/v1/files', {
      token: user.token,
      body: { purpose: 'kyc', file: 'aGVsbG8=' },
    });
    expect(reply.status).toBe(415);
    expect(reply.body.code).toBe(415);
  });

  it('a multipart body without a boundary', async () => {
    const user = await registerUser(t.app);
    const reply = await call(t.app, 'POST', '/api/v1/files', {
      token: user.token,
      body: Buffer.from('x'),
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(400);
  });

  it('without a session', async () => {
    const reply = await upload(t.app, undefined, { purpose: 'kyc', data: await pngImage() });
    expect(reply.status).toBe(401);
    expect(reply.body.code).toBe(401);
  });

  it(`at most ${UPLOADS_PER_HOUR} uploads per user per hour`, async () => {
    const user = await registerUser(t.app);
    const image = await pngImage(8, 8);
    for (let i = 0; i < UPLOADS_PER_HOUR; i++)
      expect((await upload(t.app, user.token, { purpose: 'kyc', data: image })).body.code).toBe(0);
    const refused = await upload(t.app, user.token, { purpose: 'kyc', data: image });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: 2212,
      message: 'Too many uploads. Please try again later.',
    });
    expect(await fileRows(user.uid)).toHaveLength(UPLOADS_PER_HOUR);
    t.clock.advance(3_600_001);
    expect((await upload(t.app, user.token, { purpose: 'kyc', data: image })).body.code).toBe(0);
  });
});

describe('accepted uploads are re-encoded without metadata and stored under random names', () => {
  it('strips EXIF and GPS from a phone JPEG', async () => {
    const original = await jpegWithExif();
    // The test means something only if the original carries the metadata.
    const originalMeta = await sharp(original).metadata();
    expect(originalMeta.exif).toBeDefined();
    expect(original.includes(Buffer.from(EXIF_SECRET))).toBe(true);

    const user = await registerUser(t.app);
    const reply = await upload(t.app, user.token, {
      purpose: 'kyc',
      data: original,
      filename: 'IMG_0001.jpg',
      contentType: 'image/jpeg',
    });
    expect(reply.body.code).toBe(0);
    expect(reply.body.data).toMatchObject({
      purpose: 'kyc',
      mime: 'image/jpeg',
      width: 80,
      height: 60,
    });

    const [row] = await fileRows(user.uid);
    expect(row).toMatchObject({
      id: reply.body.data.id,
      owner_id: user.uid,
      purpose: 'kyc',
      visibility: 'private',
      mime: 'image/jpeg',
    });
    const stored = await t.app.services.fileStore.get(row?.storage_key ?? '');
    if (!stored) throw new Error('stored file missing');
    expect(stored.length).toBe(row?.size);
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(stored.includes(Buffer.from(EXIF_SECRET))).toBe(false);
    expect(stored.includes(Buffer.from('Exif\0\0', 'latin1'))).toBe(false);
    expect(stored.includes(Buffer.from('TestPhone'))).toBe(false);

    // And the owner downloads exactly those bytes.
    const content = await t.app.inject({
      method: 'GET',
      url: `/api/v1/files/content?id=${reply.body.data.id}`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(content.statusCode).toBe(200);
    expect(content.rawPayload.equals(stored)).toBe(true);
  });

  it('the bytes decide, not the name: a real PNG named .jpg and declared image/jpeg is accepted', async () => {
    const user = await registerUser(t.app);
    const reply = await upload(t.app, user.token, {
      purpose: 'kyc',
      data: await pngImage(40, 30),
      filename: 'renamed.jpg',
      contentType: 'image/jpeg',
    });
    expect(reply.body.code).toBe(0);
    expect(reply.body.data).toMatchObject({ mime: 'image/jpeg', width: 40, height: 30 });
  });

  it('a PNG with harmless text chunks is accepted and the text is gone', async () => {
    const user = await registerUser(t.app);
    const secret = 'Home: 12 Example Street, Springfield';
    const original = withChunk(
      await pngImage(),
      pngChunk('tEXt', Buffer.from(`Comment\0${secret}`, 'latin1')),
    );
    expect(original.includes(Buffer.from(secret))).toBe(true);
    const reply = await upload(t.app, user.token, { purpose: 'kyc', data: original });
    expect(reply.body.code).toBe(0);
    const [row] = await fileRows(user.uid);
    const stored = await t.app.services.fileStore.get(row?.storage_key ?? '');
    expect(stored?.includes(Buffer.from(secret))).toBe(false);
    expect(stored?.includes(Buffer.from('Comment'))).toBe(false);
  });

  it('accepts PNG and WebP (with transparency) and stores them as JPEG', async () => {
    const user = await registerUser(t.app);
    for (const [bytes, name] of [
      [await pngImage(30, 20), 'a.png'],
      [await webpImage(), 'b.webp'],
    ] as const) {
      const reply = await upload(t.app, user.token, {
        purpose: 'card_deposit',
        data: bytes,
        filename: name,
        contentType: 'application/octet-stream',
      });
      expect(reply.body.code).toBe(0);
      expect(reply.body.data.mime).toBe('image/jpeg');
    }
    const rows = await fileRows(user.uid);
    expect(rows.map((r) => [r.purpose, r.visibility, r.mime])).toEqual([
      ['card_deposit', 'private', 'image/jpeg'],
      ['card_deposit', 'private', 'image/jpeg'],
    ]);
  });

  it('bounds dimensions: the longest side becomes at most 3000 px, proportions kept', async () => {
    const user = await registerUser(t.app);
    const reply = await upload(t.app, user.token, {
      purpose: 'kyc',
      data: await pngImage(4000, 1000),
    });
    expect(reply.body.data).toMatchObject({ width: 3000, height: 750 });
  });

  it('names are random (192 bits), never the upload name; the same image twice gets two names', async () => {
    const user = await registerUser(t.app);
    const image = await pngImage();
    await upload(t.app, user.token, { purpose: 'kyc', data: image, filename: 'passport.png' });
    await upload(t.app, user.token, { purpose: 'kyc', data: image, filename: 'passport.png' });
    const rows = await fileRows(user.uid);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.storage_key).toMatch(/^[0-9a-f]{48}$/);
    expect(rows[0]?.storage_key).not.toBe(rows[1]?.storage_key);
    const names = data.uploads();
    expect(names).toEqual(expect.arrayContaining(rows.map((r) => r.storage_key)));
    expect(names.some((n) => n.includes('passport'))).toBe(false);
  });
});

describe('private files are served only to their owner and to operators', () => {
  let owner: { token: string; uid: string };
  let fileId: string;
  let storageKey: string;
  beforeAll(async () => {
    owner = await registerUser(t.app);
    const reply = await upload(t.app, owner.token, { purpose: 'kyc', data: await pngImage() });
    fileId = reply.body.data.id;
    storageKey = (await fileRows(owner.uid))[0]?.storage_key ?? '';
  });

  it('the owner gets the image with private, no-store headers', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/files/content?id=${fileId}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(String(response.headers['content-security-policy'])).toContain('sandbox');
    expect(response.rawPayload.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
  });

  it('another user gets NOT_FOUND, exactly as for an id that does not exist', async () => {
    const other = await registerUser(t.app);
    const theirs = await call(t.app, 'GET', `/api/v1/files/content?id=${fileId}`, {
      token: other.token,
    });
    const missing = await call(t.app, 'GET', '/api/v1/files/content?id=999999999', {
      token: other.token,
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ code: 404, message: 'Not found.', data: null });
    expect(missing.body).toEqual(theirs.body);
  });

  it('without a session: 401, and no bytes', async () => {
    const reply = await call(t.app, 'GET', `/api/v1/files/content?id=${fileId}`);
    expect(reply.status).toBe(401);
    expect(reply.body.code).toBe(401);
  });

  it('a user token does not open the operator route', async () => {
    const reply = await call(t.app, 'GET', `/api/admin/v1/files/content?id=${fileId}`, {
      token: owner.token,
    });
    expect(reply.body.code).toBe(401);
  });

  it('reviewers and admins read it; the catalog role may not', async () => {
    for (const role of ['reviewer', 'admin'] as const) {
      const { token } = await operatorToken(t, role);
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/admin/v1/files/content?id=${fileId}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/jpeg');
    }
    const catalog = await operatorToken(t, 'catalog');
    expect(
      (
        await call(t.app, 'GET', `/api/admin/v1/files/content?id=${fileId}`, {
          token: catalog.token,
        })
      ).status,
    ).toBe(403);
  });

  it('nothing is served by storage name, by path id, or under the public image host', async () => {
    expect(t.app.services.config.imgBaseUrl).toBe('/files');
    for (const url of [
      `/files/${storageKey}`,
      `/files/${storageKey.slice(0, 2)}/${storageKey}`,
      `/files/uploads/${storageKey.slice(0, 2)}/${storageKey}`,
      `/api/v1/files/${fileId}`,
      `/api/v1/files/${storageKey}`,
    ]) {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toContain('application/json');
    }
  });

  it('a malformed id is a field error', async () => {
    const reply = await call(t.app, 'GET', '/api/v1/files/content?id=../../etc/passwd', {
      token: owner.token,
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors?.id).toEqual(['Upload the image first.']);
  });
});

describe('the upload route reads multipart in any order', () => {
  it('the file before the purpose', async () => {
    const user = await registerUser(t.app);
    const body = multipartBody([
      { name: 'file', filename: 'a.png', contentType: 'image/png', data: await pngImage() },
      { name: 'purpose', value: 'card_deposit' },
    ]);
    const reply = await call<{ purpose: string }>(t.app, 'POST', '/api/v1/files', {
      token: user.token,
      body: body.payload,
      headers: { 'content-type': body.contentType },
    });
    expect(reply.body.code).toBe(0);
    expect(reply.body.data.purpose).toBe('card_deposit');
  });
});
