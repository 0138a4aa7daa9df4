import { describe, expect, it } from 'vitest';
import { isRepeatToast } from '@/ui/toast.ts';

describe('toasts', () => {
  it('a text still on screen is not shown again (requests failing together); another text is, and the same one once it closed', () => {
    const shown = (content: string, nowMs: number) => !isRepeatToast(content, 2000, nowMs);
    expect([0, 10, 20, 30, 40].map((nowMs) => shown('Network error', nowMs))).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(shown('Copied', 50)).toBe(true);
    expect(shown('Copied', 2049)).toBe(false);
    expect(shown('Copied', 2050)).toBe(true);
    expect(shown('Network error', 2060)).toBe(true);
  });
});
