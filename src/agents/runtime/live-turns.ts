/**
 * What a turn streams while it runs and that is not stored: text deltas and the end of the turn. The stored
 * `agent.response` is the durable record; a client that connects mid-turn first gets the turn's text so far
 * (`partials`), then the rest as deltas.
 */
export type LiveTurnMessage =
  | { type: 'agent.delta'; session_id: string; agent: string; turn_id: string; text: string }
  | {
      type: 'agent.done';
      session_id: string;
      agent: string;
      turn_id: string;
      status: 'completed' | 'failed' | 'paused' | 'limit_reached' | 'stopped';
    };

/** The text a running turn has streamed so far. */
export type PartialTurn = { session_id: string; agent: string; turn_id: string; text: string };

export type LiveTurnListener = (message: LiveTurnMessage) => void;

export interface LiveTurns {
  publish(message: LiveTurnMessage): void;
  subscribe(sessionId: string, listener: LiveTurnListener): () => void;
  /**
   * Settles once whoever runs the session's turns has been told that this process has a listener for it: a
   * turn that starts after that streams here. At once for one process; other processes are told by NOTIFY.
   */
  announced(sessionId: string): Promise<void>;
  /** The running turns of a session with the text each streamed so far; a turn leaves when it is done. */
  partials(sessionId: string): PartialTurn[];
}

/** In-process fan-out of live turn messages, per session. A listener that throws does not stop the others. */
export function createLiveTurns(): LiveTurns {
  const listeners = new Map<string, Set<LiveTurnListener>>();
  const running = new Map<string, PartialTurn>();
  return {
    publish(message) {
      if (message.type === 'agent.delta') {
        const partial = running.get(message.turn_id);
        if (partial) partial.text += message.text;
        else
          running.set(message.turn_id, {
            session_id: message.session_id,
            agent: message.agent,
            turn_id: message.turn_id,
            text: message.text,
          });
      } else {
        running.delete(message.turn_id);
      }
      for (const listener of listeners.get(message.session_id) ?? []) {
        try {
          listener(message);
        } catch {
          // A broken stream must not break the turn or the other streams.
        }
      }
    },
    announced: () => Promise.resolve(),
    subscribe(sessionId, listener) {
      const forSession = listeners.get(sessionId) ?? new Set();
      forSession.add(listener);
      listeners.set(sessionId, forSession);
      return () => {
        forSession.delete(listener);
        if (forSession.size === 0) listeners.delete(sessionId);
      };
    },
    partials(sessionId) {
      return [...running.values()]
        .filter((partial) => partial.session_id === sessionId)
        .map((partial) => ({ ...partial }));
    },
  };
}
