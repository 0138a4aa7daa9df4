import { cardDepositQueueSchema } from '@tradewind/contract/card-deposit';
import { http } from '@/api/http.ts';
import { useCursorPages } from '@/api/cursor-pages.ts';

export const cardDepositQueueKey = ['admin', 'card-deposit', 'queue'] as const;

export const getCardDepositQueue = (cursor?: string) =>
  http.get('/card-deposits/queue', { schema: cardDepositQueueSchema, params: { cursor } });

/** Reported bank-card payments waiting to be matched with the bank statement, oldest first. */
export const useCardDepositQueue = () => useCursorPages(cardDepositQueueKey, getCardDepositQueue);
