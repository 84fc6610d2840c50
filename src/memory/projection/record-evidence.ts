import type { GraphStore, NodeRef } from '../graph/graph-store.ts';
import { EDGES, eventNode, sessionNode } from './graph-vocabulary.ts';

/** Links `from` to each cited event of the session (created with what is known of it: session and seq). */
export async function recordEvidence(
  graph: GraphStore,
  from: NodeRef,
  sessionId: string,
  seqs: readonly number[],
): Promise<void> {
  for (const seq of seqs) {
    await graph.upsertNode({
      ...eventNode(sessionId, seq),
      properties: { session_id: sessionId, seq },
    });
    await graph.upsertEdge({
      type: EDGES.inSession,
      from: eventNode(sessionId, seq),
      to: sessionNode(sessionId),
    });
    await graph.upsertEdge({ type: EDGES.evidencedBy, from, to: eventNode(sessionId, seq) });
  }
}
