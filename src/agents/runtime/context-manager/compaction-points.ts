import { firstAfter } from '../first-after.ts';
import {
  ContextCompactedPayloadSchema,
  EVENT_TYPES,
  type SessionEvent,
} from '../../../domain/conversation/index.ts';

/** Where an agent's history was last summarised: the `context.compacted` event and what it says. */
export interface CompactionPoint {
  readonly seq: number;
  readonly through_seq: number;
  readonly summary: string;
  readonly tokens_before: number;
  readonly tokens_after: number;
  /** Tool payloads up to this seq are sent as references (0: none); an empty `summary` means none was made. */
  readonly payloads_through_seq: number;
}

/**
 * The latest compaction point of each agent of each session, read from the log once and then only from
 * what was appended since: after a restart the first call scans the log and finds the points again (they
 * are rehydrated, never redone). Keyed by session; `forget` drops one (an idle view was released).
 */
export interface CompactionPoints {
  latest(sessionId: string, events: readonly SessionEvent[], agent: string): CompactionPoint | null;
  /** Every compaction of the session, oldest first (for the context view). */
  all(
    sessionId: string,
    events: readonly SessionEvent[],
  ): ReadonlyArray<CompactionPoint & { agent: string }>;
  forget(sessionId: string): void;
}

export function createCompactionPoints(): CompactionPoints {
  const sessions = new Map<
    string,
    {
      scannedSeq: number;
      latest: Map<string, CompactionPoint>;
      all: Array<CompactionPoint & { agent: string }>;
    }
  >();

  function scan(sessionId: string, events: readonly SessionEvent[]) {
    let known = sessions.get(sessionId);
    if (known === undefined) {
      known = { scannedSeq: 0, latest: new Map(), all: [] };
      sessions.set(sessionId, known);
    }
    // Events are in seq order: start after the last seq scanned (binary search, so a long log costs nothing).
    for (let index = firstAfter(events, known.scannedSeq); index < events.length; index += 1) {
      const event = events[index]!;
      known.scannedSeq = event.seq;
      if (event.type !== EVENT_TYPES.contextCompacted) continue;
      const parsed = ContextCompactedPayloadSchema.safeParse(event.payload);
      if (!parsed.success) continue;
      const { agent, through_seq, summary, tokens_before, tokens_after } = parsed.data;
      const payloads_through_seq = parsed.data.payloads_through_seq ?? 0;
      const point = {
        seq: event.seq,
        through_seq,
        summary,
        tokens_before,
        tokens_after,
        payloads_through_seq,
      };
      known.latest.set(agent, point);
      known.all.push({ ...point, agent });
    }
    return known;
  }

  return {
    latest: (sessionId, events, agent) => scan(sessionId, events).latest.get(agent) ?? null,
    all: (sessionId, events) => scan(sessionId, events).all,
    forget: (sessionId) => void sessions.delete(sessionId),
  };
}
