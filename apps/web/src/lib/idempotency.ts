import { useRef } from 'react';

function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The Idempotency-Key of a money form: one per submission. Sending the same request again
 * (a retry after a network error, a double tap) reuses the key, so the server does the
 * work once; a changed request gets a new key; after a success the next one starts fresh.
 */
export function useIdempotencyKey() {
  const last = useRef<{ request: string; key: string } | null>(null);
  return {
    keyFor(request: unknown): string {
      const text = JSON.stringify(request);
      if (last.current?.request !== text) last.current = { request: text, key: randomKey() };
      return last.current.key;
    },
    done(): void {
      last.current = null;
    },
  };
}
