import { type ArticleKind, articleAdminListSchema } from '@tradewind/contract/messages';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const articlesQueryKey = ['admin', 'news'] as const;

/** Every article in every state (scheduled, published, unpublished), of one kind or all. */
export const getArticles = (kind?: ArticleKind) =>
  http.get('/news', { schema: articleAdminListSchema, params: { kind } });

export const useArticles = (kind: ArticleKind | 'all') =>
  useQuery({
    queryKey: [...articlesQueryKey, kind],
    queryFn: () => getArticles(kind === 'all' ? undefined : kind),
  });
