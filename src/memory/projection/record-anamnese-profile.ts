import { checkAnamneseProfile, competencyKey } from '../../domain/memory/index.ts';
import { AnamneseProfileRecordedPayloadSchema } from '../../domain/memory/memory-event-payloads.ts';
import type { GraphStore } from '../graph/graph-store.ts';
import { EDGES, LABELS, personNode, projectRevision, sessionNode } from './graph-vocabulary.ts';
import {
  RECORDED,
  skipped,
  type ProjectedEvent,
  type ProjectionOutcome,
} from './projected-event.ts';
import { recordEvidence } from './record-evidence.ts';
import { recordSessionMembership } from './record-session-membership.ts';

/**
 * RecordAnamneseProfile: each recorded profile is a ProfileRecord with its evidence; the person's
 * CompetenceProfile for that competency shows the newest record of the project (by time, session, seq).
 * The prohibition is checked again here: a profile that infers health, personality, age or gender never
 * reaches the graph, however it got into the log.
 */
export async function recordAnamneseProfile(
  graph: GraphStore,
  event: ProjectedEvent,
): Promise<ProjectionOutcome> {
  const parsed = AnamneseProfileRecordedPayloadSchema.safeParse(event.payload);
  if (!parsed.success)
    return skipped(
      `${event.type} #${event.seq}: ${parsed.error.issues[0]?.message ?? 'invalid payload'}`,
    );
  const { profile_id, competency, level, evidence } = parsed.data;
  const summary = parsed.data.v === 1 ? parsed.data.summary : null;
  const check = checkAnamneseProfile({ competency, level, summary });
  if (!check.ok) return skipped(`${event.type} #${event.seq}: ${check.reason}`);

  const record = { label: LABELS.profileRecord, key: profile_id };
  const profile = {
    label: LABELS.competenceProfile,
    key: `${event.project_id}:${competencyKey(competency)}`,
  };
  const fields = { project_id: event.project_id, competency, level, recorded_at: event.created_at };
  await recordSessionMembership(graph, event);
  await graph.upsertNode({
    ...record,
    properties: { ...fields, session_id: event.session_id, seq: event.seq },
  });
  await graph.upsertEdge({
    type: EDGES.inSession,
    from: record,
    to: sessionNode(event.session_id),
  });
  await recordEvidence(graph, record, event.session_id, evidence);
  await graph.upsertNode({
    ...profile,
    properties: { ...fields, profile_id },
    revision: projectRevision(event),
  });
  await graph.upsertEdge({ type: EDGES.records, from: record, to: profile });
  await graph.upsertEdge({
    type: EDGES.hasCompetence,
    from: personNode(event.project_id),
    to: profile,
  });
  return RECORDED;
}
