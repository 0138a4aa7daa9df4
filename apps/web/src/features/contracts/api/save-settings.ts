import { type ContractSettingsRequest, contractConfigSchema } from '@tradewind/contract/instant';
import { http } from '@/api/http.ts';

/** POST /contracts/settings: sets or removes the user's own daily loss limit; replies with the new config. */
export const saveContractSettings = (request: ContractSettingsRequest) =>
  http.post('/api/v1/contracts/settings', request, { schema: contractConfigSchema });
