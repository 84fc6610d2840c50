import type { SessionEvent } from '../../domain/conversation/index.ts';
import {
  DEV_EVENT_TYPES,
  DevTaskFinishedPayloadSchema,
  LINE_EVENT_TYPES,
  type DevTaskFinishedPayload,
} from '../../domain/line/index.ts';

/** One `dev.task_finished` of a module, with where it is in the log. */
export type FinishedTask = DevTaskFinishedPayload & { seq: number };

/**
 * Where a module's tasks stand for `finish_task` (ADR 0341): `standing`, the finish of `taskId` that still
 * holds (no `module.merge_failed` of the module re-opened it since), and `last`, the module's latest finish of
 * any task (its branch holds a commit of the dev's work). Pure.
 */
export function moduleFinishes(
  events: readonly SessionEvent[],
  module: string,
  taskId: string,
): { standing: FinishedTask | null; last: FinishedTask | null } {
  let standing: FinishedTask | null = null;
  let last: FinishedTask | null = null;
  for (const event of events) {
    const payload = event.payload as { module?: unknown };
    if (payload?.module !== module) continue;
    if (event.type === LINE_EVENT_TYPES.mergeFailed) standing = null;
    if (event.type !== DEV_EVENT_TYPES.taskFinished) continue;
    const parsed = DevTaskFinishedPayloadSchema.safeParse(event.payload);
    if (!parsed.success) continue;
    last = { ...parsed.data, seq: event.seq };
    if (parsed.data.task_id === taskId) standing = last;
  }
  return { standing, last };
}

/** Every task whose finish stands (no `module.merge_failed` of its module re-opened it since), by task id. Pure. */
export function standingFinishes(events: readonly SessionEvent[]): Map<string, FinishedTask> {
  const standing = new Map<string, FinishedTask>();
  for (const event of events) {
    if (event.type === LINE_EVENT_TYPES.mergeFailed) {
      const module = (event.payload as { module?: unknown })?.module;
      for (const [taskId, finish] of standing)
        if (finish.module === module) standing.delete(taskId);
    }
    if (event.type !== DEV_EVENT_TYPES.taskFinished) continue;
    const parsed = DevTaskFinishedPayloadSchema.safeParse(event.payload);
    if (parsed.success) standing.set(parsed.data.task_id, { ...parsed.data, seq: event.seq });
  }
  return standing;
}
