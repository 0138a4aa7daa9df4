import { kycQueueSchema } from '@tradewind/contract/kyc';
import { http } from '@/api/http.ts';
import { useCursorPages } from '@/api/cursor-pages.ts';

export const kycQueueKey = ['admin', 'kyc', 'queue'] as const;

export const getKycQueue = (cursor?: string) =>
  http.get('/kyc/queue', { schema: kycQueueSchema, params: { cursor } });

/** Pending verifications, oldest first, a page at a time. */
export const useKycQueue = () => useCursorPages(kycQueueKey, getKycQueue);
