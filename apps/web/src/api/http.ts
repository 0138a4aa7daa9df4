import { ERROR_CODES } from '@tradewind/contract/errors';
import { i18n } from '@/lib/i18n.ts';
import { showToast } from '@/ui/toast.ts';
import { createClient, rateLimitedText } from './client.ts';

/** Where the client is sent after a session ends; the router installs its navigate here. */
let goToLogin: () => void = () => window.location.assign('/Login');

export function setSessionEndHandler(handler: () => void): void {
  goToLogin = handler;
}

/** How the app moves to another page from here; the router installs its navigate. */
let goTo: (path: string) => void = (path) => window.location.assign(path);

export function setNavigateHandler(handler: (path: string) => void): void {
  goTo = handler;
}

let askingToVerify = false;

/**
 * KYC_REQUIRED, wherever it comes from (an order, a conversion, a rental, a withdrawal…): the
 * spec's message with the way to verify (spec §5, §8), once however many requests failed.
 */
function askToVerify(message: string): void {
  if (askingToVerify) return;
  askingToVerify = true;
  void import('@/ui/confirm.ts')
    .then(({ confirm }) =>
      confirm({
        content: message,
        confirmText: i18n.t('common.verify_identity'),
        cancelText: i18n.t('common.cancel'),
      }),
    )
    .then((verify) => {
      if (verify) goTo('/RealName');
    })
    .finally(() => {
      askingToVerify = false;
    });
}

/** A failure's message: a toast, or for KYC_REQUIRED a dialog with a button to /RealName. */
function showFailure(message: string, code?: number): void {
  if (code === ERROR_CODES.KYC_REQUIRED) askToVerify(message);
  else showToast({ content: message, duration: 2000 });
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
  toast: showFailure,
  networkErrorMessage: () => i18n.t('common.network_error'),
  rateLimitedMessage: (waitS) => rateLimitedText(i18n.t, waitS),
  onUnusedEarly: (url) => console.warn(`early request not used: ${url}`),
});
