import { type AddBankCardRequest, bankCardSchema } from '@tradewind/contract/bank-card';
import { http } from '@/api/http.ts';

export const addBankCard = (body: AddBankCardRequest) =>
  http.post('/api/v1/bank-cards', body, { schema: bankCardSchema });
