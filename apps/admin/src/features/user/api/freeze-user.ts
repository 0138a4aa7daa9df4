import { freezeResultSchema } from '@tradewind/contract/user-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { unfreezeUser } from './unfreeze-user.ts';
import { userKeys } from './user-keys.ts';

/** Freezes the account: its sessions end at once and it can neither sign in nor move money. */
export const freezeUser = (body: { uid: string; reason: string }) =>
  http.post('/users/freeze', body, { schema: freezeResultSchema });

export function useSetFrozen(uid: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ frozen, reason }: { frozen: boolean; reason: string }) =>
      frozen ? freezeUser({ uid, reason }) : unfreezeUser({ uid, reason }),
    onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }),
  });
}
