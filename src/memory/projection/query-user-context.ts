import type { GraphNode, GraphStore, NodeRef } from '../graph/graph-store.ts';
import { EDGES, LABELS } from './graph-vocabulary.ts';

/** One event cited as evidence; `type` and `excerpt` are there when the event was an interaction. */
export interface EvidenceView {
  session_id: string;
  seq: number;
  type: string | null;
  excerpt: string | null;
}

export interface HypothesisView {
  id: string;
  session_id: string;
  statement: string;
  status: string;
  trigger_reason: string | null;
  proposed_at: string | null;
  answered_at: string | null;
  evidence: EvidenceView[];
}

export interface ProfileView {
  competency: string;
  level: string;
  recorded_at: string;
  evidence: EvidenceView[];
}

export interface UserContext {
  project_id: string;
  hypotheses: HypothesisView[];
  profiles: ProfileView[];
}

/**
 * `query_user_context` (record ADR 0101): what the graph knows about the project's person — the Psicólogo's
 * hypotheses with the events that support them, and the Anamnese's current competence profiles with theirs.
 * Hypotheses oldest first; profiles by competency.
 */
export async function queryUserContext(graph: GraphStore, projectId: string): Promise<UserContext> {
  const hypothesisNodes = await graph.findNodes(LABELS.hypothesis, { project_id: projectId });
  const hypotheses = await Promise.all(
    hypothesisNodes.map(async (node) => toHypothesis(node, await evidenceOf(graph, node))),
  );
  hypotheses.sort(
    (left, right) =>
      (left.proposed_at ?? '').localeCompare(right.proposed_at ?? '') ||
      left.id.localeCompare(right.id),
  );

  const profileNodes = await graph.findNodes(LABELS.competenceProfile, { project_id: projectId });
  const profiles = await Promise.all(
    profileNodes.map(async (node) => {
      const record = { label: LABELS.profileRecord, key: String(node.properties.profile_id ?? '') };
      return toProfile(node, record.key === '' ? [] : await evidenceOf(graph, record));
    }),
  );
  profiles.sort((left, right) => left.competency.localeCompare(right.competency));
  return { project_id: projectId, hypotheses, profiles };
}

async function evidenceOf(graph: GraphStore, ref: NodeRef): Promise<EvidenceView[]> {
  const cited = await graph.neighbours(ref, { direction: 'out', type: EDGES.evidencedBy });
  return cited
    .map(({ node }) => ({
      session_id: String(node.properties.session_id),
      seq: Number(node.properties.seq),
      type: typeof node.properties.type === 'string' ? node.properties.type : null,
      excerpt: typeof node.properties.excerpt === 'string' ? node.properties.excerpt : null,
    }))
    .sort((left, right) => left.session_id.localeCompare(right.session_id) || left.seq - right.seq);
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function toHypothesis(node: GraphNode, evidence: EvidenceView[]): HypothesisView {
  const properties = node.properties;
  return {
    id: node.key,
    session_id: String(properties.session_id ?? ''),
    statement: String(properties.statement ?? ''),
    status: String(properties.status ?? 'proposed'),
    trigger_reason: text(properties.trigger_reason),
    proposed_at: text(properties.proposed_at),
    answered_at: text(properties.answered_at),
    evidence,
  };
}

/** A profile as people see it: competency, level, evidence — a v1 record's free-text summary is not shown. */
function toProfile(node: GraphNode, evidence: EvidenceView[]): ProfileView {
  const properties = node.properties;
  return {
    competency: String(properties.competency ?? ''),
    level: String(properties.level ?? ''),
    recorded_at: String(properties.recorded_at ?? ''),
    evidence,
  };
}
