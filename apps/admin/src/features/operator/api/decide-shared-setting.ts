import {
  type SharedSettingDecision,
  sharedSettingChangeSchema,
} from '@tradewind/contract/operator';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { sharedSettingsQueryKey } from './get-shared-settings.ts';

/** A second admin approves (every node applies the value at once) or rejects with a reason. */
export const decideSharedSetting = (body: SharedSettingDecision) =>
  http.post('/settings/shared/decide', body, { schema: sharedSettingChangeSchema });

export function useDecideSharedSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: decideSharedSetting,
    onSuccess: () => client.invalidateQueries({ queryKey: sharedSettingsQueryKey }),
  });
}
