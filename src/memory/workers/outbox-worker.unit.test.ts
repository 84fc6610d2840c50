import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DrainReport } from '../../store/index.ts';
import { createOutboxWorker } from './outbox-worker.ts';

const report = (processed: number, stopped: DrainReport['stopped'] = null): DrainReport => ({
  processed,
  failed: 0,
  stopped,
});

describe('createOutboxWorker', () => {
  afterEach(() => vi.useRealTimers());

  it('drains again at once after a full batch nothing stopped, not after a short or a stopped one', async () => {
    vi.useFakeTimers();
    const answers = [report(2), report(2, { rowId: 1, reason: 'graph down' }), report(1)];
    const seen: DrainReport[] = [];
    const worker = createOutboxWorker({
      intervalMs: 2000,
      batchSize: 2,
      runCycle: async () => answers.shift() ?? report(0),
      onReport: (cycle) => void seen.push(cycle),
      onError: () => undefined,
    });
    worker.start();
    await vi.advanceTimersByTimeAsync(5);
    // The full batch ran the stopped one at once; the stopped one waits for the interval.
    expect(seen.map((cycle) => cycle.stopped?.reason ?? cycle.processed)).toEqual([
      2,
      'graph down',
    ]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(seen).toHaveLength(3);
    await worker.stop();
  });

  it('catches up: cycles while a cycle fills its batch or runs out of time, and sums them', async () => {
    const outOfTime: DrainReport = { ...report(1), outOfTime: true };
    const answers = [outOfTime, report(2), outOfTime, report(1), report(5)];
    const worker = createOutboxWorker({
      intervalMs: 2000,
      batchSize: 2,
      runCycle: async () => answers.shift() ?? report(0),
      onReport: () => undefined,
      onError: () => undefined,
    });
    expect(await worker.catchUp()).toEqual({ processed: 5, failed: 0, stopped: null });
    // The last answer was left: the short cycle before it had caught up.
    expect(answers).toEqual([report(5)]);
  });

  it('tells the cycle and its report when the worker is stopping, and not after a new start', async () => {
    vi.useFakeTimers();
    const stoppingSeen: boolean[] = [];
    let release: () => void = () => undefined;
    const worker = createOutboxWorker({
      intervalMs: 2000,
      batchSize: 10,
      runCycle: async (stopping) => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        stoppingSeen.push(stopping());
        return report(0);
      },
      onReport: (_cycle, stopping) => void stoppingSeen.push(stopping),
      onError: () => undefined,
    });
    worker.start();
    await vi.advanceTimersByTimeAsync(1);
    const stopped = worker.stop();
    release();
    await stopped;
    expect(stoppingSeen).toEqual([true, true]);
    worker.start();
    await vi.advanceTimersByTimeAsync(1);
    release();
    await vi.advanceTimersByTimeAsync(1);
    expect(stoppingSeen).toEqual([true, true, false, false]);
    await worker.stop();
  });
});
