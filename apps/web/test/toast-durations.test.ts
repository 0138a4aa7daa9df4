import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { CHECKIN_TOAST_DURATION_MS, TOAST_DURATION_MS, withDuration } from '@/ui/toast.ts';

const src = fileURLToPath(new URL('../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Each `showToast({ … })` call's argument text, found by matching braces. */
function toastCalls(text: string): string[] {
  const calls: string[] = [];
  for (let at = text.indexOf('showToast({'); at >= 0; at = text.indexOf('showToast({', at + 1)) {
    let depth = 0;
    let end = at + 'showToast('.length;
    for (; end < text.length; end++) {
      if (text[end] === '{') depth++;
      else if (text[end] === '}' && --depth === 0) break;
    }
    calls.push(text.slice(at, end + 1));
  }
  return calls;
}

describe('toast durations (spec §8)', () => {
  it('every toast closes after 2000 ms; the check-in toast after 2500 ms', () => {
    expect(TOAST_DURATION_MS).toBe(2000);
    expect(CHECKIN_TOAST_DURATION_MS).toBe(2500);
    const durations = new Map<string, string[]>();
    for (const file of sources(src)) {
      const text = readFileSync(file, 'utf8');
      for (const call of toastCalls(text)) {
        const duration = /duration:\s*([^,\s}]+)/.exec(call)?.[1] ?? 'default';
        const name = relative(src, file);
        durations.set(name, [...(durations.get(name) ?? []), duration]);
      }
    }
    // The scan found the app's toasts (a broken scan would pass with none).
    expect(durations.size).toBeGreaterThan(20);
    for (const [file, found] of durations) {
      const allowed =
        file === join('features', 'home', 'checkin-card.tsx')
          ? ['2500', 'CHECKIN_TOAST_DURATION_MS']
          : ['2000', 'TOAST_DURATION_MS', 'default'];
      for (const duration of found) expect(allowed, `${file}: ${duration}`).toContain(duration);
    }
    expect(durations.get(join('features', 'home', 'checkin-card.tsx'))).toEqual(['2500']);
  });

  it('a toast shown without a duration closes after 2000 ms; one with 2500 keeps it', () => {
    expect(withDuration({ content: 'Copied' })).toEqual({ content: 'Copied', duration: 2000 });
    expect(
      withDuration({ content: 'Checked in: +10 points', duration: CHECKIN_TOAST_DURATION_MS }),
    ).toEqual({ content: 'Checked in: +10 points', duration: 2500 });
  });
});
