import type { DrainReport } from '../../store/index.ts';
import { createPoller } from './poller.ts';

/** A worker that drains one outbox queue on a poller: the GraphProjector, the RAG indexer. */
export interface OutboxWorker {
  /** One drain of the queue; what the poller runs every interval. */
  runCycle(): Promise<DrainReport>;
  /**
   * Cycles until the queue is caught up: one that neither filled its batch nor ran out of its time budget
   * (on PGlite a cycle stops taking rows after a few milliseconds), or one that stopped. The sum of them.
   */
  catchUp(): Promise<DrainReport>;
  start(): void;
  /** Drains now: new rows were committed (woken by the append's NOTIFY; polling is the fallback). */
  wake(): void;
  /** Stops: the batch in flight leaves its remaining rows for the next start, and this resolves when it has. */
  stop(): Promise<void>;
}

export interface OutboxWorkerOptions {
  intervalMs: number;
  batchSize: number;
  /** One cycle; `stopping()` is true once `stop` was called, and the row handler then stops the cycle. */
  runCycle: (stopping: () => boolean) => Promise<DrainReport>;
  /** What to log of a cycle's report (`stopping` says whether the worker is being stopped). */
  onReport: (report: DrainReport, stopping: boolean) => void;
  onError: (error: unknown) => void;
}

/** Runs `runCycle` on a poller, at once again after a full batch that nothing stopped. */
export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  let stopping = false;
  const runCycle = () => options.runCycle(() => stopping);
  // A drain out of its time budget left rows pending; so did a full batch.
  const more = (report: DrainReport) =>
    report.stopped === null &&
    (report.outOfTime === true || report.processed + report.failed >= options.batchSize);
  const poller = createPoller({
    intervalMs: options.intervalMs,
    runCycle: async () => {
      const report = await runCycle();
      options.onReport(report, stopping);
      return { more: more(report) };
    },
    onError: options.onError,
  });
  const catchUp = async (): Promise<DrainReport> => {
    const total: DrainReport = { processed: 0, failed: 0, stopped: null };
    for (;;) {
      const report = await runCycle();
      options.onReport(report, stopping);
      total.processed += report.processed;
      total.failed += report.failed;
      total.stopped = report.stopped;
      if (!more(report)) return total;
    }
  };
  return {
    runCycle,
    catchUp,
    start: () => {
      stopping = false;
      poller.start();
    },
    wake: () => poller.wake(),
    stop: async () => {
      stopping = true;
      await poller.stop();
    },
  };
}
