/**
 * Runs work one at a time per key, in the order it was queued, and work of different keys side by side. A
 * failed piece of work rejects its own promise only: the next one of its key still runs. Used for the lanes
 * of a session (`conversation/session-queue.ts`) and for each project's git lock (`workspace/project-workspaces.ts`).
 */
export interface KeyedQueue {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
  /**
   * Resolves when no key that `matches` (every key when omitted) has work left, including work queued under
   * such a key while waiting.
   */
  idle(matches?: (key: string) => boolean): Promise<void>;
  /** Whether `key` has work running or queued now. */
  busy(key: string): boolean;
}

export function createKeyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<void>>();
  const pending = (matches: (key: string) => boolean) =>
    [...tails].filter(([key]) => matches(key)).map(([, tail]) => tail);
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const result = (tails.get(key) ?? Promise.resolve()).then(work);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    busy: (key) => tails.has(key),
    idle: async (matches = () => true) => {
      for (let waiting = pending(matches); waiting.length > 0; waiting = pending(matches))
        await Promise.all(waiting);
    },
  };
}
