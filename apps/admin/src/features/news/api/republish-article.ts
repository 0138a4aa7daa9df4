import { articleAdminDetailSchema } from '@tradewind/contract/messages';
import { http } from '@/api/http.ts';

export const republishArticle = (id: string) =>
  http.post('/news/republish', { id }, { schema: articleAdminDetailSchema });
