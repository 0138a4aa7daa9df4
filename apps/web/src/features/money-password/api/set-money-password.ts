import {
  type SetMoneyPasswordRequest,
  moneyPasswordStatusSchema,
} from '@tradewind/contract/money-password';
import { http } from '@/api/http.ts';

export const setMoneyPassword = (body: SetMoneyPasswordRequest) =>
  http.post('/api/v1/money-passwords', body, { schema: moneyPasswordStatusSchema });
