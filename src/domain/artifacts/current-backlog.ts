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
  /** The tasks to work on: every task but those split. */
  tasks: Task[];
  /** The tasks the Arquiteto split (`split_into` names the parts, which are in `tasks`); nobody works on them. */
  split: Task[];
}

/**
 * Folds backlog artifacts in recording order. Ids are stable: declaring an id again replaces the item
 * (a task given its module by the Arquiteto is the same task), and a split part keeps its `split_from`
 * whoever declares it again. A task with `split_into` goes to `split`. An item that no longer parses is skipped.
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
    else if (type === 'task') keepTask(tasks, TaskSchema.safeParse(envelope.data.data));
  }
  const all = [...tasks.values()];
  return {
    epics: [...epics.values()],
    stories: [...stories.values()],
    tasks: all.filter((task) => task.split_into === undefined),
    split: all.filter((task) => task.split_into !== undefined),
  };
}

/** `split_from` is provenance: a later declaration of the part without it keeps it. */
function keepTask(
  tasks: Map<string, Task>,
  parsed: { success: true; data: Task } | { success: false },
): void {
  if (!parsed.success) return;
  const from = tasks.get(parsed.data.id)?.split_from;
  tasks.set(
    parsed.data.id,
    from === undefined || parsed.data.split_from !== undefined
      ? parsed.data
      : { ...parsed.data, split_from: from },
  );
}

/** For a refusal about `taskId`: where its parts are when the Arquiteto split it, else null. */
export function splitNote(backlog: Backlog, taskId: string): string | null {
  const split = backlog.split.find((task) => task.id === taskId);
  if (split === undefined) return null;
  const parts = split.split_into!.map((id) => {
    const part = backlog.tasks.find((task) => task.id === id);
    return part?.module === undefined ? id : `${id} (${part.module})`;
  });
  return `${taskId} was split by the Arquiteto into ${parts.join(', ')}`;
}

function keep<Item extends { id: string }>(
  items: Map<string, Item>,
  parsed: { success: true; data: Item } | { success: false },
): void {
  if (parsed.success) items.set(parsed.data.id, parsed.data);
}
