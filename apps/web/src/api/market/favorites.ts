import { type FavoriteRequest, type Favorites, favoritesSchema } from '@tradewind/contract/market';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { favoritesQueryKey } from '@/api/query-keys.ts';

export const getFavorites = () => http.get('/api/v1/market/favorites', { schema: favoritesSchema });
export const setFavorite = (request: FavoriteRequest) =>
  http.post('/api/v1/market/favorites', request, { schema: favoritesSchema });

export function useFavorites() {
  return useQuery({ queryKey: favoritesQueryKey, queryFn: getFavorites });
}

/** Stars or unstars a symbol; the star changes at once and goes back if the server refuses. */
export function useToggleFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setFavorite,
    onMutate: async (request) => {
      await queryClient.cancelQueries({ queryKey: favoritesQueryKey });
      const before = queryClient.getQueryData<Favorites>(favoritesQueryKey);
      const symbols = new Set(before?.symbols ?? []);
      if (request.favorite) symbols.add(request.symbol);
      else symbols.delete(request.symbol);
      queryClient.setQueryData<Favorites>(favoritesQueryKey, { symbols: [...symbols] });
      return { before };
    },
    onError: (_error, _request, context) =>
      queryClient.setQueryData(favoritesQueryKey, context?.before),
    onSuccess: (favorites) => queryClient.setQueryData(favoritesQueryKey, favorites),
  });
}
