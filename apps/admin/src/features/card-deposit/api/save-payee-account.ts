import { type PayeeAccountSave, adminPayeeAccountSchema } from '@tradewind/contract/catalog';
import { http } from '@/api/http.ts';

/** Creates a payee account, or changes the one with `id`. */
export const savePayeeAccount = (body: PayeeAccountSave) =>
  http.post('/card-deposits/payees', body, { schema: adminPayeeAccountSchema });
