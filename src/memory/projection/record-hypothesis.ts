import {
  HypothesisAnsweredPayloadSchema,
  HypothesisProposedPayloadSchema,
} from '../../domain/memory/memory-event-payloads.ts';
import { MEMORY_EVENT_TYPES } from '../../domain/memory/memory-event-types.ts';
import type { GraphStore } from '../graph/graph-store.ts';
import {
  agentNode,
  EDGES,
  LABELS,
  personNode,
  sessionNode,
  sessionRevision,
} from './graph-vocabulary.ts';
import {
  RECORDED,
  skipped,
  type ProjectedEvent,
  type ProjectionOutcome,
} from './projected-event.ts';
import { recordEvidence } from './record-evidence.ts';
import { recordSessionMembership } from './record-session-membership.ts';

/**
 * RecordHypothesis: `hypothesis.proposed` creates the Hypothesis about the project's person with its
 * evidence; `hypothesis.accepted` / `.dismissed` set its status. Proposal and answer are in one session, so
 * the seq orders them: an answer projected before its proposal is not overwritten by it.
 */
export async function recordHypothesis(
  graph: GraphStore,
  event: ProjectedEvent,
): Promise<ProjectionOutcome> {
  if (event.type === MEMORY_EVENT_TYPES.hypothesisProposed) return recordProposal(graph, event);
  const answer = HypothesisAnsweredPayloadSchema.safeParse(event.payload);
  if (!answer.success)
    return skipped(
      `${event.type} #${event.seq}: ${answer.error.issues[0]?.message ?? 'invalid payload'}`,
    );
  const status = event.type === MEMORY_EVENT_TYPES.hypothesisAccepted ? 'accepted' : 'dismissed';
  await graph.upsertNode({
    label: LABELS.hypothesis,
    key: answer.data.hypothesis_id,
    properties: { status, answered_at: event.created_at },
    revision: sessionRevision(event),
  });
  return RECORDED;
}

async function recordProposal(
  graph: GraphStore,
  event: ProjectedEvent,
): Promise<ProjectionOutcome> {
  const parsed = HypothesisProposedPayloadSchema.safeParse(event.payload);
  if (!parsed.success)
    return skipped(
      `${event.type} #${event.seq}: ${parsed.error.issues[0]?.message ?? 'invalid payload'}`,
    );
  const proposal = parsed.data;
  const node = { label: LABELS.hypothesis, key: proposal.hypothesis_id };
  await recordSessionMembership(graph, event);
  await graph.upsertNode({
    ...node,
    properties: {
      project_id: event.project_id,
      session_id: event.session_id,
      statement: proposal.statement,
      status: 'proposed',
      trigger_reason: proposal.trigger.reason,
      proposed_at: event.created_at,
      proposed_seq: event.seq,
    },
    revision: sessionRevision(event),
  });
  await graph.upsertEdge({ type: EDGES.about, from: node, to: personNode(event.project_id) });
  await graph.upsertEdge({ type: EDGES.raisedIn, from: node, to: sessionNode(event.session_id) });
  await graph.upsertEdge({ type: EDGES.proposedBy, from: node, to: agentNode(event.actor) });
  await recordEvidence(graph, node, event.session_id, proposal.evidence);
  return RECORDED;
}
