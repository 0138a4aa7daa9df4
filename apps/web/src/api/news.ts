import { type ArticleKind, articleListSchema, articleSchema } from '@tradewind/contract/messages';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@/lib/i18n.ts';
import { http } from './http.ts';

/** News and notices: Home lists them, /NewsDetail and /NoticeDetail show one. Texts come in the request's language. */
export const articlesQueryKey = (kind: ArticleKind, language: string) =>
  ['news', 'list', kind, language] as const;
export const articleQueryKey = (id: string, language: string) =>
  ['news', 'detail', id, language] as const;

export function useArticles(kind: ArticleKind) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: articlesQueryKey(kind, i18n.language),
    queryFn: () => http.get('/api/v1/news', { params: { kind }, schema: articleListSchema }),
    staleTime: 60_000,
  });
}

export function useArticle(id: string | null) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: articleQueryKey(id ?? '', i18n.language),
    queryFn: () =>
      http.get('/api/v1/news/detail', { params: { id: id ?? '' }, schema: articleSchema }),
    enabled: id !== null,
    retry: false,
  });
}
