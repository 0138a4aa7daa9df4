import { operatorListSchema } from '@tradewind/contract/operator';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const operatorsQueryKey = ['admin', 'operators'] as const;

export const getOperators = () => http.get('/operators', { schema: operatorListSchema });

export const useOperators = () => useQuery({ queryKey: operatorsQueryKey, queryFn: getOperators });
