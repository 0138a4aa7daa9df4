import { type ArticleCover, articleCoverSchema } from '@tradewind/contract/messages';
import { ApiError, session } from '@admin/api/client';
import { getLanguage } from '@admin/lib/i18n';

/** `POST /api/admin/v1/news/cover` (multipart): the server re-encodes the image and returns its public URL. */
export async function uploadCover(file: File): Promise<ArticleCover> {
  const form = new FormData();
  form.append('file', file);
  const token = session.token();
  const response = await fetch('/api/admin/v1/news/cover', {
    method: 'POST',
    headers: { 'accept-language': getLanguage(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: form,
  });
  const envelope = (await response.json().catch(() => null)) as { code: number; message: string; data: unknown; errors?: Record<string, string[]> } | null;
  if (!envelope) throw new ApiError(500, `HTTP ${response.status}`);
  if (envelope.code !== 0) throw new ApiError(envelope.code, envelope.message, envelope.errors);
  return articleCoverSchema.parse(envelope.data);
}

/** `<input type="datetime-local">` speaks local time without a zone; the API speaks ISO instants. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
export function fromLocalInput(value: string): string {
  return new Date(value).toISOString();
}
