import { type PeriodSave, adminPeriodSchema } from '@tradewind/contract/catalog';
import { http } from '@/api/http.ts';

/** Creates a period, or changes the one with `id` (orders already placed keep their terms). */
export const savePeriod = (body: PeriodSave) =>
  http.post('/contracts/periods', body, { schema: adminPeriodSchema });
