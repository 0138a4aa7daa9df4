/**
 * Countdowns follow the server's clock, not the phone's: every order arrives with
 * `remainingMs` measured by the server at reply time, which tells how far the phone's
 * clock is from the server's. Delivery instants are then compared with the server's now.
 */

let offsetMs = 0;

/** Server time minus phone time, learned from an order with time still to run. */
export function learnServerTime(
  order: { deliverAt: string; remainingMs: number },
  receivedAtMs: number = Date.now(),
): void {
  if (order.remainingMs <= 0) return;
  offsetMs = Date.parse(order.deliverAt) - order.remainingMs - receivedAtMs;
}

export function serverNow(clientNowMs: number = Date.now()): number {
  return clientNowMs + offsetMs;
}

/** Milliseconds until an instant (ISO 8601) by the server's clock; never negative. */
export function msUntil(iso: string, clientNowMs: number = Date.now()): number {
  return Math.max(0, Date.parse(iso) - serverNow(clientNowMs));
}

/** For tests. */
export function resetServerClock(): void {
  offsetMs = 0;
}

/** A countdown as the screens show it: "0:27", "4:05", "1:02:03" (rounded up to the second). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${ss}` : `${minutes}:${ss}`;
}
