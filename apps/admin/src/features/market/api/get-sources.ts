import { marketSourcesSchema } from '@tradewind/contract/market-sources';
import { http } from '@/api/http.ts';

export const sourcesQueryKey = ['admin', 'market', 'sources'] as const;

/** Each instrument's configured price sources, their ids and when each last counted (read-only). */
export const getSources = () => http.get('/market/sources', { schema: marketSourcesSchema });
