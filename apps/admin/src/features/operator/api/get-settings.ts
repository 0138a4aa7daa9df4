import { settingsSchema } from '@tradewind/contract/operator';
import { useQuery } from '@tanstack/react-query';
import { http } from '@/api/http.ts';

/** The server's settings in effect, with keys, tokens and credentials hidden by the server. */
export const getSettings = () => http.get('/settings', { schema: settingsSchema });

export const useSettings = () =>
  useQuery({ queryKey: ['admin', 'settings'], queryFn: getSettings });
