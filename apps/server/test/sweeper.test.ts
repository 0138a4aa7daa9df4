import { afterEach, describe, expect, it, vi } from 'vitest';
import { Sweeper } from '../src/platform/sweeper.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('Sweeper', () => {
  it('runs at start, then again each interval after a round ends, never two at once; a failed round is logged and retried', async () => {
    vi.useFakeTimers();
    let active = 0;
    let maxActive = 0;
    let rounds = 0;
    const errors: unknown[] = [];
    const sweeper = new Sweeper(
      'test job',
      async () => {
        rounds++;
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((resolve) => setTimeout(resolve, 250));
        active--;
        if (rounds === 2) throw new Error('boom');
      },
      1_000,
      { info: () => undefined, error: (payload: unknown) => errors.push(payload) },
    );
    sweeper.start();
    sweeper.start();
    expect(rounds).toBe(1);
    await vi.advanceTimersByTimeAsync(250 + 999);
    expect(rounds).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(rounds).toBe(2);
    await vi.advanceTimersByTimeAsync(1_250);
    expect(errors).toHaveLength(1);
    expect(rounds).toBe(3);
    expect(maxActive).toBe(1);

    // stop waits for the round in flight and schedules nothing more.
    let stopped = false;
    const stopping = sweeper.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(rounds).toBe(3);
  });
});
