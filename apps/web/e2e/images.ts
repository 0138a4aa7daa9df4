import zlib from 'node:zlib';
import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import { outboxCode } from './browser.ts';

/** A small PNG drawn here (no image library): horizontal bands of the given colours. */
export function bandedPng(
  width: number,
  height: number,
  colours: [number, number, number][],
): Buffer {
  const row = (y: number) => {
    const [r, g, b] = colours[Math.floor((y / height) * colours.length)] ?? [0, 0, 0];
    const line = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) line.set([r, g, b], 1 + x * 3);
    return line;
  };
  const raw = Buffer.concat(Array.from({ length: height }, (_, y) => row(y)));
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const PASSWORD = 'e2e-password-1';

/**
 * Registers through the API (code from the dev outbox), with an invitation code when given,
 * and returns the session; a refused registration throws.
 */
export async function registerByApi(
  baseUrl: string,
  email: string,
  inviteCode?: string,
): Promise<{ token: string; uid: string }> {
  await fetch(`${baseUrl}/api/v1/auth/codes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'email', account: email, purpose: 'register' }),
  });
  const code = await outboxCode(baseUrl, email);
  const reply = (await (
    await fetch(`${baseUrl}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...(inviteCode ? { mode: 'invite', inviteCode } : { mode: 'code' }),
        channel: 'email',
        account: email,
        code,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      }),
    })
  ).json()) as { code: number; message: string; data: { token: string; uid: string } };
  if (reply.code !== 0) throw new Error(`could not register ${email}: ${reply.message}`);
  return reply.data;
}

/** Uploads a banded PNG as the phone client would (multipart), for `purpose`; returns the file id. */
export async function uploadBandedPng(
  baseUrl: string,
  token: string,
  purpose: string,
  colours: [number, number, number][] = [
    [22, 82, 240],
    [240, 240, 240],
    [10, 143, 90],
  ],
): Promise<string> {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append(
    'file',
    new Blob([new Uint8Array(bandedPng(320, 200, colours))], { type: 'image/png' }),
    'photo.png',
  );
  const response = await fetch(`${baseUrl}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const reply = (await response.json()) as { code: number; message: string; data: { id: string } };
  if (reply.code !== 0) throw new Error(`upload (${purpose}) refused: ${reply.message}`);
  return reply.data.id;
}

/** An operator call under /api/admin/v1; returns the envelope. */
export async function admin<T>(
  baseUrl: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ code: number; data: T }> {
  const response = await fetch(`${baseUrl}/api/admin/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await response.json()) as { code: number; data: T };
}

/** Draws the QR code's SVG (by test id) onto a canvas in the browser and decodes the pixels, as a phone camera would. */
export async function scanQr(page: Page, testId: string): Promise<string | undefined> {
  const image = await page.evaluate(async (id) => {
    const svg = document.querySelector(`[data-testid="${id}"]`);
    if (!svg) return null;
    const img = new Image();
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
    await img.decode();
    const size = 320;
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = size;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.fillStyle = '#fff';
    context.fillRect(0, 0, size, size);
    context.drawImage(img, 0, 0, size, size);
    return { size, data: Array.from(context.getImageData(0, 0, size, size).data) };
  }, testId);
  if (!image) return undefined;
  return jsQR(new Uint8ClampedArray(image.data), image.size, image.size)?.data;
}
