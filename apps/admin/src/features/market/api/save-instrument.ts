import { type InstrumentSave, adminInstrumentSchema } from '@tradewind/contract/catalog';
import { http } from '@/api/http.ts';

/** Changes an instrument's listing (never a price: prices are recorded, not authored). */
export const saveInstrument = (body: InstrumentSave) => http.post('/market/instruments', body, { schema: adminInstrumentSchema });
