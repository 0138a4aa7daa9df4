import { userProfileSchema } from '@tradewind/contract/user';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const profileQueryKey = ['user', 'profile'] as const;

export const getProfile = () => http.get('/api/v1/user/profile', { schema: userProfileSchema });

export function useProfile() {
  return useQuery({ queryKey: profileQueryKey, queryFn: getProfile });
}
