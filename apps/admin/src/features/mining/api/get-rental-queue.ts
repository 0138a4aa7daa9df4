import { miningQueueSchema } from '@tradewind/contract/mining';
import { http } from '@/api/http.ts';
import { useCursorPages } from '@/api/cursor-pages.ts';

export const rentalQueueKey = ['admin', 'mining', 'queue'] as const;

export const getRentalQueue = (cursor?: string) =>
  http.get('/mining/rentals/queue', { schema: miningQueueSchema, params: { cursor } });

/** Rentals under review, oldest first. */
export const useRentalQueue = () => useCursorPages(rentalQueueKey, getRentalQueue);
