import { type SharedSettingRequest, sharedSettingChangeSchema } from '@tradewind/contract/operator';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/http.ts';
import { sharedSettingsQueryKey } from './get-shared-settings.ts';

/** Records a settings change; nothing applies until a different admin approves it. */
export const requestSharedSetting = (body: SharedSettingRequest) =>
  http.post('/settings/shared', body, { schema: sharedSettingChangeSchema });

export function useRequestSharedSetting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: requestSharedSetting,
    onSuccess: () => client.invalidateQueries({ queryKey: sharedSettingsQueryKey }),
  });
}
