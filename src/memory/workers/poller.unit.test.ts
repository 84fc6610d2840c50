import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPoller } from './poller.ts';

describe('createPoller', () => {
  afterEach(() => vi.useRealTimers());

  it('runs a cycle at start, again at once after a full batch, then every interval, and stops cleanly', async () => {
    vi.useFakeTimers();
    const answers = [true, false, false];
    const runs: number[] = [];
    const poller = createPoller({
      intervalMs: 2000,
      runCycle: async () => (runs.push(runs.length + 1), { more: answers.shift() ?? false }),
      onError: () => undefined,
    });
    poller.start();
    await vi.advanceTimersByTimeAsync(5);
    expect(runs).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(1990);
    expect(runs).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(20);
    expect(runs).toEqual([1, 2, 3]);
    await poller.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toEqual([1, 2, 3]);
    expect(poller.running).toBe(false);
  });

  it('reports a failing cycle and goes on; stop waits for the cycle in flight', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let release: () => void = () => undefined;
    let calls = 0;
    const poller = createPoller({
      intervalMs: 100,
      runCycle: async () => {
        calls += 1;
        if (calls === 1) throw new Error('boom');
        await new Promise<void>((resolve) => (release = resolve));
        return { more: false };
      },
      onError: (error) => errors.push(error),
    });
    poller.start();
    await vi.advanceTimersByTimeAsync(1);
    expect(errors).toEqual([new Error('boom')]);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(2);
    let stopped = false;
    const stopping = poller.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
  });
});

describe('createPoller.wake', () => {
  afterEach(() => vi.useRealTimers());

  it('runs a cycle at once when woken in the pause, and once more after a cycle it woke during', async () => {
    vi.useFakeTimers();
    const runs: number[] = [];
    let release: () => void = () => undefined;
    let block = false;
    const poller = createPoller({
      intervalMs: 60_000,
      runCycle: async () => {
        runs.push(runs.length + 1);
        if (block) await new Promise<void>((resolve) => (release = resolve));
        return { more: false };
      },
      onError: () => undefined,
    });
    poller.wake();
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([]);
    poller.start();
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([1]);
    poller.wake();
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([1, 2]);
    block = true;
    poller.wake();
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([1, 2, 3]);
    block = false;
    poller.wake();
    poller.wake();
    release();
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([1, 2, 3, 4]);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(runs).toEqual([1, 2, 3, 4]);
    await poller.stop();
  });
});
