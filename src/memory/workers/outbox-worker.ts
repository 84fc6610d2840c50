import type { DrainReport } from '../../store/index.ts';
import { createPoller } from './poller.ts';

/** A worker that drains one outbox queue on a poller: the GraphProjector, the RAG indexer. */
export interface OutboxWorker {
  /** One drain of the queue; what the poller runs every interval. */
  runCycle(): Promise<DrainReport>;
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
  const poller = createPoller({
    intervalMs: options.intervalMs,
    runCycle: async () => {
      const report = await runCycle();
      options.onReport(report, stopping);
      return {
        more:
          report.stopped === null &&
          // A drain out of its time budget left rows pending; so did a full batch.
          (report.outOfTime === true || report.processed + report.failed >= options.batchSize),
      };
    },
    onError: options.onError,
  });
  return {
    runCycle,
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
