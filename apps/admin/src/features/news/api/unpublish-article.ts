import { articleAdminDetailSchema } from '@tradewind/contract/messages';
import { http } from '@/api/http.ts';

/** Readers stop seeing it at once; the reason goes to the audit log. */
export const unpublishArticle = (body: { id: string; reason?: string }) =>
  http.post('/news/unpublish', body, { schema: articleAdminDetailSchema });
