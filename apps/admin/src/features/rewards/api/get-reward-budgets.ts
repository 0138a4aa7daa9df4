import { rewardBudgetsSchema } from '@tradewind/contract/invite';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

export const rewardBudgetsQueryKey = ['admin', 'reward-budgets'] as const;

/** Every asset's reward budget (approved, paid, remaining) and the newest budget changes. */
export const getRewardBudgets = () => http.get('/reward-budgets', { schema: rewardBudgetsSchema });

export const useRewardBudgets = () =>
  useQuery({ queryKey: rewardBudgetsQueryKey, queryFn: getRewardBudgets });
