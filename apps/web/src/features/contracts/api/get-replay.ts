import { replaySchema } from '@tradewind/contract/instant';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

/** GET /contracts/replay (public): the settlement recomputed from the recorded ticks. Fetched only when asked. */
export const replayQueryKey = (publicId: string) => ['contracts', 'replay', publicId] as const;

export const getReplay = (publicId: string) =>
  http.get('/api/v1/contracts/replay', { params: { publicId }, schema: replaySchema });

export function useReplay(publicId: string, enabled: boolean) {
  return useQuery({
    queryKey: replayQueryKey(publicId),
    queryFn: () => getReplay(publicId),
    enabled,
    staleTime: Infinity,
  });
}
