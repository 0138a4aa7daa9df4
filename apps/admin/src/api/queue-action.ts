import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/** Approve, or reject with the reason the user will read (the server requires it). */
export interface QueueDecision {
  id: string;
  decision: 'approve' | 'reject';
  reason?: string;
}

/**
 * An action on a review queue's item. The queue loads again whatever the outcome: a success takes
 * the item out, and a refusal often means another operator decided it first.
 */
export function useQueueAction<I>(queueKey: QueryKey, action: (input: I) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queueKey }),
  });
}
