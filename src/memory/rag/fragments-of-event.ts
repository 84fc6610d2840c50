import { ARTIFACT_EVENT_PREFIX } from '../../domain/conversation/event-types.ts';
import type { ProjectedEvent } from '../projection/projected-event.ts';
import type { ProjectFragment } from './project-fragment.ts';

/** Whether an event carries text the RAG index keeps: artifacts and agents' responses. */
export function isRagIndexed(type: string): boolean {
  return type.startsWith(ARTIFACT_EVENT_PREFIX) || type === 'agent.response';
}

/** The fragment an event contributes to the RAG index, or null when it has no text worth finding. Pure. */
export function fragmentOfEvent(event: ProjectedEvent): ProjectFragment | null {
  const payload = (event.payload ?? {}) as { text?: unknown; agent?: unknown; data?: unknown };
  const base = { projectId: event.project_id, sourceId: event.id };
  if (event.type === 'agent.response') {
    if (typeof payload.text !== 'string' || payload.text.trim() === '') return null;
    const agent = typeof payload.agent === 'string' ? payload.agent : event.actor;
    return {
      ...base,
      sourceKind: 'agent_response',
      sourceLabel: `agent.response (${agent}) #${event.seq}`,
      text: payload.text,
    };
  }
  if (event.type.startsWith(ARTIFACT_EVENT_PREFIX)) {
    const text = describeData(payload.data).trim();
    return text === ''
      ? null
      : { ...base, sourceKind: 'artifact', sourceLabel: `${event.type} #${event.seq}`, text };
  }
  return null;
}

/** An artifact's data as readable lines (`title: Entrega cedo`), nested values as compact JSON. */
function describeData(data: unknown): string {
  if (typeof data === 'string') return data;
  if (typeof data !== 'object' || data === null) return '';
  return Object.entries(data)
    .map(([key, value]) => {
      if (typeof value === 'string') return `${key}: ${value}`;
      if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
        return `${key}: ${value.join('; ')}`;
      return `${key}: ${JSON.stringify(value)}`;
    })
    .join('\n');
}
