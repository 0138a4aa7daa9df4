import { articleCoverSchema } from '@tradewind/contract/messages';
import { http } from '@/api/http.ts';

/** `POST /news/cover` (multipart): the server re-encodes the image and returns its public URL. */
export function uploadCover(file: File) {
  const form = new FormData();
  form.append('file', file);
  return http.post('/news/cover', form, { schema: articleCoverSchema });
}
