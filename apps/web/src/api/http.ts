import { i18n } from '@/lib/i18n.ts';
import { showToast } from '@/ui/toast.ts';
import { createClient, rateLimitedText } from './client.ts';

/** Where the client is sent after a session ends; the router installs its navigate here. */
let goToLogin: () => void = () => window.location.assign('/Login');

export function setSessionEndHandler(handler: () => void): void {
  goToLogin = handler;
}

/** For requests made outside `http` (uploads with progress): the same 401/411 ending, silent. */
export function endSession(): void {
  localStorage.removeItem('token');
  goToLogin();
}

export const http = createClient({
  baseUrl: import.meta.env.VITE_API_BASE_URL ?? '',
  storage: localStorage,
  onSessionEnd: () => goToLogin(),
  toast: (message) => showToast({ content: message, duration: 2000 }),
  networkErrorMessage: () => i18n.t('common.network_error'),
  rateLimitedMessage: (waitS) => rateLimitedText(i18n.t, waitS),
  onUnusedEarly: (url) => console.warn(`early request not used: ${url}`),
});
