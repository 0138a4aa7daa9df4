import {
  type SendMoneyPasswordCodeRequest,
  sendMoneyPasswordCodeResponseSchema,
} from '@tradewind/contract/money-password';
import { http } from '@/api/http.ts';

export const sendMoneyPasswordCode = (body: SendMoneyPasswordCodeRequest) =>
  http.post('/api/v1/money-passwords/codes', body, { schema: sendMoneyPasswordCodeResponseSchema });
