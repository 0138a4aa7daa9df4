import { okSchema } from '@tradewind/contract/envelope';
import { http } from '@/api/http.ts';

export const deleteBankCard = (id: string) =>
  http.post('/api/v1/bank-cards/delete', { id }, { schema: okSchema });
