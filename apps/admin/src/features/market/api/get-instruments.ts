import { adminInstrumentListSchema } from '@tradewind/contract/catalog';
import { http } from '@/api/http.ts';

/** By language: the instruments' default names come in the console's language. */
export const instrumentsQueryKey = (language: string) =>
  ['admin', 'catalog', 'instruments', language] as const;

export const getInstruments = () =>
  http.get('/market/instruments', { schema: adminInstrumentListSchema });
