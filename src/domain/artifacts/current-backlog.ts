import { StoredArtifactPayloadSchema, artifactTypeOf } from './artifact-payload.ts';
import {
  EpicSchema,
  StorySchema,
  TaskSchema,
  type Epic,
  type Story,
  type Task,
} from './backlog.ts';
import type { SessionEvent } from '../conversation/index.ts';

/** The backlog artifact types the PO writes (`artifact.epic`, `artifact.story`, `artifact.task`). */
export const BACKLOG_TYPES = ['epic', 'story', 'task'] as const;

/** The backlog as it stands: each id at its latest declaration, in the order ids first appeared. */
export interface Backlog {
  epics: Epic[];
  stories: Story[];
  tasks: Task[];
}

/**
 * Folds backlog artifacts in recording order. Ids are stable: declaring an id again replaces the item
 * (a task given its module by the Arquiteto is the same task). An item that no longer parses is skipped.
 */
export function currentBacklog(events: readonly SessionEvent[]): Backlog {
  const epics = new Map<string, Epic>();
  const stories = new Map<string, Story>();
  const tasks = new Map<string, Task>();
  for (const event of events) {
    const type = artifactTypeOf(event.type);
    const envelope = StoredArtifactPayloadSchema.safeParse(event.payload);
    if (!envelope.success) continue;
    if (type === 'epic') keep(epics, EpicSchema.safeParse(envelope.data.data));
    else if (type === 'story') keep(stories, StorySchema.safeParse(envelope.data.data));
    else if (type === 'task') keep(tasks, TaskSchema.safeParse(envelope.data.data));
  }
  return { epics: [...epics.values()], stories: [...stories.values()], tasks: [...tasks.values()] };
}

function keep<Item extends { id: string }>(
  items: Map<string, Item>,
  parsed: { success: true; data: Item } | { success: false },
): void {
  if (parsed.success) items.set(parsed.data.id, parsed.data);
}
