import { useQuery } from '@tanstack/react-query';
import { http } from './http.ts';

/** A private upload (image/jpeg) as a blob URL, fetched with the operator's token: never a public link. Each read is logged. */
export const getFile = (id: string) => http.get<string>('/files/content', { params: { id } });

export function useFile(id: string) {
  return useQuery({
    queryKey: ['admin', 'file', id],
    queryFn: () => getFile(id),
    staleTime: Infinity,
    gcTime: 60_000,
  });
}
