import { TurnStopRequest } from '../agents/runtime/turn-stop.ts';

/**
 * The turns whose loop runs in this process, each with the controller that stops it (ADR 0220). A stop aborts
 * the model call with a `TurnStopRequest`; the loop then records `turn.stopped` and returns, releasing the lane.
 */
export interface TurnStops {
  /** Runs a turn's loop with a signal that `stop` aborts. */
  track<T>(turnId: string, run: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Stops the turn if its loop runs here and resolves once the loop returned; false when it does not run here. */
  stop(turnId: string, by: string): Promise<boolean>;
}

export function createTurnStops(): TurnStops {
  const running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  return {
    track(turnId, run) {
      const controller = new AbortController();
      const done = run(controller.signal);
      const entry = { controller, done: done.catch(() => undefined) };
      running.set(turnId, entry);
      void entry.done.then(() => {
        if (running.get(turnId) === entry) running.delete(turnId);
      });
      return done;
    },
    async stop(turnId, by) {
      const entry = running.get(turnId);
      if (entry === undefined) return false;
      entry.controller.abort(new TurnStopRequest(by));
      await entry.done;
      return true;
    },
  };
}
