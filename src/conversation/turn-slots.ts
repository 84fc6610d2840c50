/**
 * The bound on turns the line runs at once in this process (`FORJA_MAX_PARALLEL_TURNS`): a first-in,
 * first-out semaphore, so lanes waiting for a slot start in the order they asked (kickoffs in the order
 * offered). A slot is held for a whole turn and given back when the turn ends or pauses for an approval.
 */
export interface TurnSlots {
  /** Runs `work` once a slot is free; the slot is asked for synchronously, so call order is start order. */
  run<T>(work: () => Promise<T>): Promise<T>;
  readonly limit: number;
  /** Turns holding a slot now, and lanes waiting for one. */
  usage(): { running: number; waiting: number };
}

export function createTurnSlots(limit: number): TurnSlots {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`turn slots: limit must be a whole number ≥ 1, got ${limit}`);
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  };
  const acquire = (): Promise<void> => {
    if (running < limit) {
      running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  return {
    limit,
    run: async (work) => {
      await acquire();
      try {
        return await work();
      } finally {
        release();
      }
    },
    usage: () => ({ running, waiting: waiting.length }),
  };
}
