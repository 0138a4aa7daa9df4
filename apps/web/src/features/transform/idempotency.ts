import { useRef } from 'react';

/** 128 random bits as hex (works on plain http too, unlike crypto.randomUUID). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One key per submission: the same request sent again (a retry after a dropped
 * connection) keeps its key, so the server runs it once; a different request gets a new one.
 */
export function useIdempotencyKey() {
  const last = useRef<{ request: string; key: string } | null>(null);
  return {
    keyFor(request: unknown): string {
      const text = JSON.stringify(request);
      if (last.current?.request !== text) last.current = { request: text, key: newIdempotencyKey() };
      return last.current.key;
    },
    /** After a success the next submission is a new one, even with the same values. */
    reset(): void {
      last.current = null;
    },
  };
}
