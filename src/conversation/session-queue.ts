/**
 * Serialises work per session inside this process: turns, approvals and handoff transitions of one session
 * run one after another (ADR 0008: "turns of one session are serialised"), different sessions in parallel.
 */
export interface SessionQueue {
  enqueue<T>(sessionId: string, work: () => Promise<T>): Promise<T>;
  /** Resolves when the work queued so far for the session has finished. */
  idle(sessionId: string): Promise<void>;
  /** Resolves when every session's queued work has finished. */
  drain(): Promise<void>;
}

export function createSessionQueue(): SessionQueue {
  const tails = new Map<string, Promise<void>>();
  return {
    enqueue<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
      const previous = tails.get(sessionId) ?? Promise.resolve();
      const result = previous.then(work);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(sessionId, tail);
      void tail.then(() => {
        if (tails.get(sessionId) === tail) tails.delete(sessionId);
      });
      return result;
    },
    idle: (sessionId) => tails.get(sessionId) ?? Promise.resolve(),
    drain: async () => {
      while (tails.size > 0) await Promise.all(tails.values());
    },
  };
}
