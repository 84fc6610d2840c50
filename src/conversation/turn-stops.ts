import { TurnStopRequest } from '../agents/index.ts';
import { EVENT_TYPES } from '../domain/conversation/index.ts';
import type { SessionEvent } from '../store/index.ts';

/** Where a process hears of events other processes append: the event notifications (LISTEN/NOTIFY). */
export type WatchSession = (
  sessionId: string,
  afterSeq: number,
  listener: (events: SessionEvent[]) => void,
) => () => void;

/** A turn whose loop is about to run here. */
export interface TrackedTurn {
  sessionId: string;
  turnId: string;
  /** The log's last seq when the loop starts: stop requests after it are heard through `watch`. */
  afterSeq: number;
  /** Who asked to stop it before the loop started here (a request to a process that died); null when nobody. */
  requestedBy: string | null;
}

/**
 * The turns whose loop runs in this process, each with the controller that stops it (ADR 0220). A stop aborts
 * the model call with a `TurnStopRequest`; the loop then records `turn.stopped` and returns, releasing the lane.
 * With `watch` (a server, where another process may get the request), a `turn.stop_requested` appended by any
 * process stops the turn here too.
 */
export interface TurnStops {
  track<T>(turn: TrackedTurn, run: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Stops the turn if its loop runs here and resolves once the loop returned; false when it does not run here. */
  stop(turnId: string, by: string): Promise<boolean>;
}

export function createTurnStops(watch?: WatchSession): TurnStops {
  const running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  return {
    track(turn, run) {
      const controller = new AbortController();
      if (turn.requestedBy !== null) controller.abort(new TurnStopRequest(turn.requestedBy));
      const unwatch = watch?.(turn.sessionId, turn.afterSeq, (events) => {
        for (const event of events) {
          const payload = event.payload as { turn_id?: unknown; by?: unknown };
          if (event.type !== EVENT_TYPES.turnStopRequested || payload.turn_id !== turn.turnId)
            continue;
          if (!controller.signal.aborted)
            controller.abort(new TurnStopRequest(String(payload.by ?? 'user')));
        }
      });
      const done = run(controller.signal).finally(() => unwatch?.());
      const entry = { controller, done: done.catch(() => undefined) };
      running.set(turn.turnId, entry);
      void entry.done.then(() => {
        if (running.get(turn.turnId) === entry) running.delete(turn.turnId);
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
