import { okSchema } from '@tradewind/contract/envelope';
import { twoFactorEnableResponseSchema, twoFactorSetupSchema } from '@tradewind/contract/security';
import { http } from '@/api/http.ts';

export const setupTwoFactor = () =>
  http.post('/api/v1/security/2fa/setup', undefined, { schema: twoFactorSetupSchema });

export const enableTwoFactor = (body: { code: string }) =>
  http.post('/api/v1/security/2fa/enable', body, { schema: twoFactorEnableResponseSchema });

export const disableTwoFactor = (body: { code: string }) =>
  http.post('/api/v1/security/2fa/disable', body, { schema: okSchema });
