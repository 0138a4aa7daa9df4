import { useQuery } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { http } from '@/api/http.ts';

export const photoQueryKey = (id: string) => ['files', 'content', id] as const;

/** A private image of the signed-in user, as a local object URL (spec §7: image/jpeg passes through). */
export const getPhoto = (id: string) =>
  http.get('/api/v1/files/content', { params: { id }, schema: z.string() });

export function usePhoto(id: string | null) {
  return useQuery({
    queryKey: photoQueryKey(id ?? ''),
    queryFn: () => getPhoto(id ?? ''),
    enabled: id !== null,
    staleTime: Infinity,
  });
}
