import { bonusCodeListSchema } from '@tradewind/contract/invite';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const bonusCodesQueryKey = ['admin', 'bonus-codes'] as const;

/** Every bonus code with how often it was redeemed. */
export const getBonusCodes = () => http.get('/bonus-codes', { schema: bonusCodeListSchema });

export const useBonusCodes = () =>
  useQuery({ queryKey: bonusCodesQueryKey, queryFn: getBonusCodes });
