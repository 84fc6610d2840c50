import { truncateText } from '../../domain/memory/index.ts';
import type { GraphStore } from '../graph/graph-store.ts';
import { agentNode, EDGES, eventNode, personNode, sessionNode } from './graph-vocabulary.ts';
import {
  RECORDED,
  skipped,
  type ProjectedEvent,
  type ProjectionOutcome,
} from './projected-event.ts';
import { recordSessionMembership } from './record-session-membership.ts';

/** How much of what was said the graph keeps; the log has the rest. */
export const INTERACTION_EXCERPT_CHARS = 280;

/**
 * RecordInteraction: what the person (`chat.message`) or an agent (`agent.response`) said becomes an Event
 * node of its session, linked to who said it, with a short excerpt that evidence can show.
 */
export async function recordInteraction(
  graph: GraphStore,
  event: ProjectedEvent,
): Promise<ProjectionOutcome> {
  const payload = (event.payload ?? {}) as { text?: unknown; agent?: unknown };
  if (typeof payload.text !== 'string')
    return skipped(`${event.type} #${event.seq}: the payload has no text`);
  const speaker =
    event.type === 'chat.message'
      ? personNode(event.project_id)
      : agentNode(typeof payload.agent === 'string' ? payload.agent : event.actor);
  const node = eventNode(event.session_id, event.seq);
  await recordSessionMembership(graph, event);
  await graph.upsertNode({
    ...node,
    properties: {
      session_id: event.session_id,
      seq: event.seq,
      type: event.type,
      actor: event.actor,
      created_at: event.created_at,
      excerpt: truncateText(payload.text, INTERACTION_EXCERPT_CHARS),
    },
  });
  await graph.upsertEdge({ type: EDGES.inSession, from: node, to: sessionNode(event.session_id) });
  await graph.upsertEdge({ type: EDGES.saidBy, from: node, to: speaker });
  return RECORDED;
}
