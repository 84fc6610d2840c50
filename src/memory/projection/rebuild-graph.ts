import { HANDOFF_EVENT_PREFIX } from '../../domain/conversation/event-types.ts';
import type { Database, Queryable } from '../../store/index.ts';
import type { GraphStore } from '../graph/graph-store.ts';
import { GraphUnavailableError } from '../graph/graph-unavailable-error.ts';
import { SEEDED_LABELS } from './graph-vocabulary.ts';
import { loadProjectedEventsPage } from './load-projected-events.ts';
import { GRAPH_PROJECTED_TYPES, projectEvent } from './project-event.ts';

const PAGE_SIZE = 500;

export type GraphRebuildOutcome =
  | { ok: true; events: number; recorded: number; skipped: number }
  | { ok: false; reason: string };

/**
 * `forja graph rebuild`: empties the projection (seeded templates stay) and replays the event log through
 * the same write use cases the projector calls, in one transaction, so the graph is never seen half-built.
 */
export async function rebuildGraph(
  database: Database,
  graphFor: (transaction: Queryable) => GraphStore,
): Promise<GraphRebuildOutcome> {
  try {
    return await database.transaction(async (transaction) => {
      const graph = graphFor(transaction);
      await graph.clear({ keepLabels: SEEDED_LABELS });
      const totals = { events: 0, recorded: 0, skipped: 0 };
      let after: { sessionId: string; seq: number } | null = null;
      for (;;) {
        const page = await loadProjectedEventsPage(
          transaction,
          { types: GRAPH_PROJECTED_TYPES, prefixes: [HANDOFF_EVENT_PREFIX] },
          after,
          PAGE_SIZE,
        );
        for (const event of page) {
          const outcome = await projectEvent(graph, event);
          totals.events += 1;
          totals[outcome.outcome] += 1;
        }
        const last = page.at(-1);
        if (last === undefined || page.length < PAGE_SIZE) break;
        after = { sessionId: last.session_id, seq: last.seq };
      }
      return { ok: true as const, ...totals };
    });
  } catch (error) {
    if (error instanceof GraphUnavailableError) return { ok: false, reason: error.message };
    throw error;
  }
}
