import { ERROR_CODES, SESSION_END_CODES } from '@tradewind/contract/errors';
import {
  type FilePurpose,
  UPLOAD_FIELDS,
  type UploadedFile,
  uploadedFileSchema,
} from '@tradewind/contract/files';
import { normalizeLanguage } from '@tradewind/contract/languages';
import { ApiError } from '@tradewind/http-client/api-error';
import { REQUEST_TIMEOUT_MS } from '@tradewind/http-client/envelope-client';
import { endSession } from './http.ts';

/**
 * `POST /api/v1/files` with upload progress, which `fetch` cannot report: an
 * XMLHttpRequest with the same headers, timeout and envelope rules as the shared client.
 * Failures reject with an ApiError carrying the server's localized message, or with a
 * plain Error on network failure, timeout or abort (the caller shows "Upload failed").
 */
export function uploadImage(
  file: Blob,
  purpose: FilePurpose,
  options: { filename?: string; onProgress?: (percent: number) => void; signal?: AbortSignal } = {},
): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${import.meta.env.VITE_API_BASE_URL ?? ''}/api/v1/files`);
    xhr.timeout = REQUEST_TIMEOUT_MS;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('accept-language', normalizeLanguage(localStorage.getItem('lang')));
    const token = localStorage.getItem('token');
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable)
        options.onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    const fail = (reason: string) => () => reject(new Error(reason));
    xhr.onerror = fail('network error');
    xhr.ontimeout = fail('timeout');
    xhr.onabort = fail('aborted');
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.onload = () => {
      let envelope: { code?: unknown; message?: unknown; data?: unknown } | undefined;
      try {
        envelope = JSON.parse(xhr.responseText) as typeof envelope;
      } catch {
        envelope = undefined;
      }
      if (!envelope || typeof envelope.code !== 'number')
        return reject(new ApiError(xhr.status || ERROR_CODES.INTERNAL, ''));
      const message = typeof envelope.message === 'string' ? envelope.message : '';
      if (envelope.code === 0 && xhr.status >= 200 && xhr.status < 300) {
        const parsed = uploadedFileSchema.safeParse(envelope.data);
        return parsed.success
          ? resolve(parsed.data)
          : reject(new ApiError(ERROR_CODES.INTERNAL, ''));
      }
      if (SESSION_END_CODES.includes(envelope.code)) endSession();
      reject(new ApiError(envelope.code, message));
    };
    const form = new FormData();
    form.append(UPLOAD_FIELDS.purpose, purpose);
    form.append(UPLOAD_FIELDS.file, file, options.filename ?? 'image');
    xhr.send(form);
  });
}
