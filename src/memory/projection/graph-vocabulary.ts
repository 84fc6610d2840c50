import type { NodeRef } from '../graph/graph-store.ts';
import type { ProjectedEvent } from './projected-event.ts';

/** Node labels of the relational memory. `PromptTemplate` is seeded, not projected: a rebuild keeps it. */
export const LABELS = {
  project: 'Project',
  session: 'Session',
  person: 'Person',
  agent: 'Agent',
  handoff: 'Handoff',
  hypothesis: 'Hypothesis',
  profileRecord: 'ProfileRecord',
  competenceProfile: 'CompetenceProfile',
  event: 'Event',
  promptTemplate: 'PromptTemplate',
} as const;

/** Labels the seeder writes; `forja graph rebuild` leaves them alone. */
export const SEEDED_LABELS: readonly string[] = [LABELS.promptTemplate];

export const EDGES = {
  inProject: 'IN_PROJECT',
  worksOn: 'WORKS_ON',
  hasHandoff: 'HAS_HANDOFF',
  fromAgent: 'FROM_AGENT',
  toAgent: 'TO_AGENT',
  about: 'ABOUT',
  raisedIn: 'RAISED_IN',
  proposedBy: 'PROPOSED_BY',
  evidencedBy: 'EVIDENCED_BY',
  inSession: 'IN_SESSION',
  saidBy: 'SAID_BY',
  records: 'RECORDS',
  hasCompetence: 'HAS_COMPETENCE',
} as const;

export const projectNode = (projectId: string): NodeRef => ({
  label: LABELS.project,
  key: projectId,
});
export const sessionNode = (sessionId: string): NodeRef => ({
  label: LABELS.session,
  key: sessionId,
});
/** Forja has one person per project: the one who brought the idea. */
export const personNode = (projectId: string): NodeRef => ({
  label: LABELS.person,
  key: `project:${projectId}`,
});
export const agentNode = (slug: string): NodeRef => ({ label: LABELS.agent, key: slug });
/** Events are keyed by session and seq, so evidence (cited by seq) and interactions meet in one node. */
export const eventNode = (sessionId: string, seq: number): NodeRef => ({
  label: LABELS.event,
  key: `${sessionId}#${seq}`,
});

/** Orders writes of one session: its seq, zero-padded so byte order is numeric order. */
export function sessionRevision(event: Pick<ProjectedEvent, 'seq'>): string {
  return String(event.seq).padStart(10, '0');
}

/** Orders writes across the sessions of a project: time, then session, then seq — the same on every replay. */
export function projectRevision(
  event: Pick<ProjectedEvent, 'created_at' | 'session_id' | 'seq'>,
): string {
  return `${event.created_at}|${event.session_id}|${sessionRevision(event)}`;
}
