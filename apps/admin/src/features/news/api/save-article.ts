import { type ArticleSaveRequest, articleAdminSchema } from '@tradewind/contract/messages';
import { http } from '@/api/http.ts';

/** Creates an article, or changes the one with `id`; the server keeps only its allowed markup. */
export const saveArticle = (body: ArticleSaveRequest) =>
  http.post('/news/save', body, { schema: articleAdminSchema });
