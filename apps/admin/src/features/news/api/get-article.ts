import { articleAdminDetailSchema } from '@tradewind/contract/messages';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { articlesQueryKey } from './get-articles.ts';

/** One article with its texts in every language it has, for the editor. */
export const getArticle = (id: string) =>
  http.get('/news/detail', { schema: articleAdminDetailSchema, params: { id } });

export const useArticle = (id: string | undefined) =>
  useQuery({
    queryKey: [...articlesQueryKey, 'detail', id],
    queryFn: () => getArticle(id ?? ''),
    enabled: id !== undefined,
  });
