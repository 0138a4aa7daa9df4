import { adminUserDetailSchema } from '@tradewind/contract/user-admin';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { userKeys } from './user-keys.ts';

export const getUser = (uid: string) =>
  http.get('/users/detail', { schema: adminUserDetailSchema, params: { uid } });

export const useUserDetail = (uid: string) =>
  useQuery({ queryKey: userKeys.detail(uid), queryFn: () => getUser(uid) });
