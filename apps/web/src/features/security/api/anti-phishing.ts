import type { AntiPhishingRequest } from '@tradewind/contract/security';
import { okSchema } from '@tradewind/contract/envelope';
import { http } from '@/api/http.ts';

export const setAntiPhishingCode = (body: AntiPhishingRequest) =>
  http.post('/api/v1/security/anti-phishing', body, { schema: okSchema });
