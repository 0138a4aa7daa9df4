import { adminPostingsSchema } from '@tradewind/contract/user-admin';
import { http } from '@/api/http.ts';
import { useCursorPages } from '@/api/cursor-pages.ts';
import { userKeys } from './user-keys.ts';

/** The user's funds detail: their ledger postings, newest first. */
export const getUserPostings = (uid: string, cursor?: string) =>
  http.get('/users/postings', { schema: adminPostingsSchema, params: { uid, cursor } });

export const useUserPostings = (uid: string, enabled: boolean) =>
  useCursorPages(userKeys.postings(uid), (cursor) => getUserPostings(uid, cursor), enabled);
