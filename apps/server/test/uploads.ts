import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { type Reply, call } from './harness.ts';

/** Images and multipart bodies for the upload, KYC and card-deposit tests. */

export interface Part {
  name: string;
  value?: string;
  filename?: string;
  contentType?: string;
  data?: Buffer;
}

export function multipartBody(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----tw${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const head = [
      `--${boundary}`,
      `Content-Disposition: ${disposition}`,
      ...(part.contentType ? [`Content-Type: ${part.contentType}`] : []),
      '',
      '',
    ].join('\r\n');
    chunks.push(Buffer.from(head), part.data ?? Buffer.from(part.value ?? ''), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export interface UploadReply {
  id: string;
  purpose: string;
  mime: string;
  size: number;
  width: number;
  height: number;
}

/** `POST /api/v1/files` with a purpose and a file (either may be left out). */
export function upload(
  app: FastifyInstance,
  token: string | undefined,
  options: {
    purpose?: string;
    data?: Buffer;
    filename?: string;
    contentType?: string;
    fileField?: string;
    extraFiles?: Buffer[];
    lang?: string;
  },
): Promise<Reply<UploadReply>> {
  const parts: Part[] = [];
  if (options.purpose !== undefined) parts.push({ name: 'purpose', value: options.purpose });
  if (options.data !== undefined) {
    parts.push({
      name: options.fileField ?? 'file',
      filename: options.filename ?? 'photo.png',
      contentType: options.contentType ?? 'image/png',
      data: options.data,
    });
  }
  for (const extra of options.extraFiles ?? [])
    parts.push({ name: 'file', filename: 'more.png', contentType: 'image/png', data: extra });
  const body = multipartBody(parts);
  return call<UploadReply>(app, 'POST', '/api/v1/files', {
    token,
    lang: options.lang,
    body: body.payload,
    headers: { 'content-type': body.contentType },
  });
}

/** A small solid PNG (a different colour per call unless one is given). */
let hue = 0;
export async function pngImage(width = 64, height = 48, colour?: string): Promise<Buffer> {
  hue = (hue + 37) % 360;
  return sharp({
    create: { width, height, channels: 3, background: colour ?? `hsl(${hue}, 70%, 50%)` },
  })
    .png()
    .toBuffer();
}

export const EXIF_SECRET = 'TW-SECRET-OWNER-Jane-Doe';

/** A JPEG carrying EXIF with an owner name and GPS coordinates, as phones write them. */
export async function jpegWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 80, height: 60, channels: 3, background: '#3366aa' } })
    .jpeg()
    .withExif({
      IFD0: { Artist: EXIF_SECRET, Copyright: EXIF_SECRET, Make: 'TestPhone', Model: 'X1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 2664/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 3960/100',
      },
    })
    .toBuffer();
}

export async function webpImage(): Promise<Buffer> {
  return sharp({
    create: {
      width: 50,
      height: 50,
      channels: 4,
      background: { r: 0, g: 200, b: 100, alpha: 0.5 },
    },
  })
    .webp()
    .toBuffer();
}

/** Random pixels compress badly: a PNG of roughly `width × height × 3` bytes. */
export async function noisyPng(width: number, height: number): Promise<Buffer> {
  return sharp(crypto.randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

export function tempDataDir(): { dir: string; uploads: () => string[]; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-files-'));
  const uploads = () => {
    const root = path.join(dir, 'uploads');
    if (!fs.existsSync(root)) return [];
    return fs
      .readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  };
  return { dir, uploads, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
