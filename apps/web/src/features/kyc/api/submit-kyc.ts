import { type KycSubmitRequest, kycOverviewSchema } from '@tradewind/contract/kyc';
import { http } from '@/api/http.ts';

export const submitKyc = (body: KycSubmitRequest) =>
  http.post('/api/v1/kyc', body, { schema: kycOverviewSchema });
