import { type RewardBudgetRequest, rewardBudgetChangeSchema } from '@tradewind/contract/invite';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { rewardBudgetsQueryKey } from './get-reward-budgets.ts';

/** Records a budget change; nothing changes until a different admin approves it. */
export const requestRewardBudget = (body: RewardBudgetRequest) =>
  http.post('/reward-budgets', body, { schema: rewardBudgetChangeSchema });

export function useRequestRewardBudget() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: requestRewardBudget,
    onSuccess: () => client.invalidateQueries({ queryKey: rewardBudgetsQueryKey }),
  });
}
