import type { GraphStore } from '../graph/graph-store.ts';
import { EDGES, personNode, projectNode, sessionNode } from './graph-vocabulary.ts';
import type { ProjectedEvent } from './projected-event.ts';

/** The frame every projected event hangs from: its session in its project, and the project's person. */
export async function recordSessionMembership(
  graph: GraphStore,
  event: ProjectedEvent,
): Promise<void> {
  await graph.upsertNode({
    ...sessionNode(event.session_id),
    properties: { project_id: event.project_id },
  });
  await graph.upsertEdge({
    type: EDGES.inProject,
    from: sessionNode(event.session_id),
    to: projectNode(event.project_id),
  });
  await graph.upsertEdge({
    type: EDGES.worksOn,
    from: personNode(event.project_id),
    to: projectNode(event.project_id),
  });
}
