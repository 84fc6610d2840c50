import { HANDOFF_EVENT_PREFIX } from '../../domain/conversation/event-types.ts';
import { MEMORY_EVENT_TYPES } from '../../domain/memory/memory-event-types.ts';
import type { GraphStore } from '../graph/graph-store.ts';
import { skipped, type ProjectedEvent, type ProjectionOutcome } from './projected-event.ts';
import { recordAnamneseProfile } from './record-anamnese-profile.ts';
import { recordHandoff } from './record-handoff.ts';
import { recordHypothesis } from './record-hypothesis.ts';
import { recordInteraction } from './record-interaction.ts';

const HYPOTHESIS_TYPES: ReadonlySet<string> = new Set([
  MEMORY_EVENT_TYPES.hypothesisProposed,
  MEMORY_EVENT_TYPES.hypothesisAccepted,
  MEMORY_EVENT_TYPES.hypothesisDismissed,
]);
const INTERACTION_TYPES: ReadonlySet<string> = new Set(['chat.message', 'agent.response']);

/** Whether an event type matters to the graph: the outbox rule and the rebuild both ask this. */
export function isGraphProjected(type: string): boolean {
  return (
    type.startsWith(HANDOFF_EVENT_PREFIX) ||
    HYPOTHESIS_TYPES.has(type) ||
    type === MEMORY_EVENT_TYPES.anamneseProfileRecorded ||
    INTERACTION_TYPES.has(type)
  );
}

/** The types `isGraphProjected` accepts, for SQL (`handoff.%` is matched as a prefix). */
export const GRAPH_PROJECTED_TYPES: readonly string[] = [
  ...HYPOTHESIS_TYPES,
  MEMORY_EVENT_TYPES.anamneseProfileRecorded,
  ...INTERACTION_TYPES,
];

/**
 * Sends an event to its write use case (RecordHandoff, RecordHypothesis, RecordAnamneseProfile,
 * RecordInteraction). The live projector and the rebuild both come through here, so they cannot differ.
 */
export async function projectEvent(
  graph: GraphStore,
  event: ProjectedEvent,
): Promise<ProjectionOutcome> {
  if (event.type.startsWith(HANDOFF_EVENT_PREFIX)) return recordHandoff(graph, event);
  if (HYPOTHESIS_TYPES.has(event.type)) return recordHypothesis(graph, event);
  if (event.type === MEMORY_EVENT_TYPES.anamneseProfileRecorded)
    return recordAnamneseProfile(graph, event);
  if (INTERACTION_TYPES.has(event.type)) return recordInteraction(graph, event);
  return skipped(`${event.type} is not projected to the graph`);
}
