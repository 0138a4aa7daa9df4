/** Retry-After in whole seconds, from a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterS(value: string | null, nowMs: number): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const atMs = Date.parse(text);
  return Number.isNaN(atMs) ? undefined : Math.max(0, Math.ceil((atMs - nowMs) / 1000));
}
