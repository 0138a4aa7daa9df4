import { type InstrumentSave, adminInstrumentSchema } from '@tradewind/contract/catalog';
import { http } from '@/api/http.ts';

/** Changes an instrument's listing (never a price: prices are recorded, not authored); `symbol` is the edited row's, as the server listed it. */
export const saveInstrument = (body: Omit<InstrumentSave, 'symbol'> & { symbol: string }) =>
  http.post('/market/instruments', body, { schema: adminInstrumentSchema });
