import { userSearchSchema } from '@tradewind/contract/user-admin';
import { http } from '@/api/http.ts';
import { useCursorPages } from '@/api/cursor-pages.ts';
import { userKeys } from './user-keys.ts';

/** By uid, email, phone or name; a page at a time. */
export const searchUsers = (q: string, cursor?: string) =>
  http.get('/users/search', { schema: userSearchSchema, params: { q, cursor } });

export const useUserSearch = (q: string) =>
  useCursorPages(userKeys.search(q), (cursor) => searchUsers(q, cursor), q.length > 0);
