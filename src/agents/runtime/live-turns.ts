/**
 * What a turn streams while it runs and that is not stored: text deltas and the end of the turn. The stored
 * `agent.response` is the durable record; a client that missed deltas catches up from it.
 */
export type LiveTurnMessage =
  | { type: 'agent.delta'; session_id: string; agent: string; turn_id: string; text: string }
  | { type: 'agent.done'; session_id: string; agent: string; turn_id: string; status: 'completed' | 'failed' | 'paused' | 'limit_reached' };

export type LiveTurnListener = (message: LiveTurnMessage) => void;

export interface LiveTurns {
  publish(message: LiveTurnMessage): void;
  subscribe(sessionId: string, listener: LiveTurnListener): () => void;
}

/** In-process fan-out of live turn messages, per session. A listener that throws does not stop the others. */
export function createLiveTurns(): LiveTurns {
  const listeners = new Map<string, Set<LiveTurnListener>>();
  return {
    publish(message) {
      for (const listener of listeners.get(message.session_id) ?? []) {
        try {
          listener(message);
        } catch {
          // A broken stream must not break the turn or the other streams.
        }
      }
    },
    subscribe(sessionId, listener) {
      const forSession = listeners.get(sessionId) ?? new Set();
      forSession.add(listener);
      listeners.set(sessionId, forSession);
      return () => {
        forSession.delete(listener);
        if (forSession.size === 0) listeners.delete(sessionId);
      };
    },
  };
}
