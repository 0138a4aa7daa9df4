/** Exponential backoff for a reconnect: `baseMs` doubled per failed attempt, at most `maxMs`. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

/**
 * The wait before reconnect number `attempt` (0 first): equal jitter, a random point in the
 * upper half of the ceiling, so many clients that lost one server never reconnect in step.
 */
export function backoffDelayMs(
  backoff: Backoff,
  attempt: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
