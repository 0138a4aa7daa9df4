import { type RewardBudgetDecision, rewardBudgetChangeSchema } from '@tradewind/contract/invite';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { rewardBudgetsQueryKey } from './get-reward-budgets.ts';

/** A second admin approves (the budget changes) or rejects with a reason. */
export const decideRewardBudget = (body: RewardBudgetDecision) =>
  http.post('/reward-budgets/decide', body, { schema: rewardBudgetChangeSchema });

export function useDecideRewardBudget() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: decideRewardBudget,
    onSuccess: () => client.invalidateQueries({ queryKey: rewardBudgetsQueryKey }),
  });
}
