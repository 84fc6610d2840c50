import { handoffFromEvent } from '../../domain/handoffs/index.ts';
import type { GraphStore } from '../graph/graph-store.ts';
import { agentNode, EDGES, LABELS, sessionNode, sessionRevision } from './graph-vocabulary.ts';
import {
  RECORDED,
  skipped,
  type ProjectedEvent,
  type ProjectionOutcome,
} from './projected-event.ts';
import { recordSessionMembership } from './record-session-membership.ts';

/**
 * RecordHandoff: a `handoff.<status>` event as a Handoff node between its two agents. Every handoff event
 * carries the whole handoff, and the newest seq wins, so the node ends in the last status whatever the order.
 */
export async function recordHandoff(
  graph: GraphStore,
  event: ProjectedEvent,
): Promise<ProjectionOutcome> {
  const handoff = handoffFromEvent(event);
  if (handoff === null) return skipped(`${event.type} #${event.seq}: the payload is not a handoff`);
  const node = { label: LABELS.handoff, key: handoff.id };
  await recordSessionMembership(graph, event);
  await graph.upsertNode({
    ...node,
    properties: {
      project_id: event.project_id,
      session_id: event.session_id,
      from_agent: handoff.from_agent,
      to_agent: handoff.to_agent,
      artifact_id: handoff.artifact_id,
      status: handoff.status,
      status_seq: event.seq,
    },
    revision: sessionRevision(event),
  });
  await graph.upsertEdge({ type: EDGES.hasHandoff, from: sessionNode(event.session_id), to: node });
  await graph.upsertEdge({ type: EDGES.fromAgent, from: node, to: agentNode(handoff.from_agent) });
  await graph.upsertEdge({ type: EDGES.toAgent, from: node, to: agentNode(handoff.to_agent) });
  return RECORDED;
}
