import { ARTIFACT_PREFIX, type ArtifactEvent } from './fold-event.ts';
import {
  readBacklogItem,
  readBusinessRule,
  readModuleContracts,
  readModuleMap,
  readProductBrief,
  readStory,
  readTask,
  readVersion,
} from './read-artifacts.ts';
import { applyDecision } from './apply-questions.ts';
import type { SessionDraft } from './session-draft.ts';
import type { BusinessRule } from './session-view.ts';

export { ARTIFACT_PREFIX };

/** Folds an `artifact.<type>` event. Backlog items are keyed by their stable id: a re-declaration replaces the item. */
export function applyArtifact(draft: SessionDraft, event: ArtifactEvent): void {
  const type = event.type.slice(ARTIFACT_PREFIX.length);
  const { data } = event.payload;
  const where = { eventId: event.id, seq: event.seq };
  switch (type) {
    case 'business_rule':
      applyRule(draft, event, where);
      return;
    case 'product_brief': {
      const brief = readProductBrief(data, where);
      // The current brief is the highest version (the later one on a tie); old versions stay in the chat.
      if (draft.brief === null || brief.version >= draft.brief.version) draft.brief = brief;
      draft.chat.push({
        kind: 'brief',
        seq: event.seq,
        title: brief.title,
        version: brief.version,
      });
      return;
    }
    case 'epic': {
      const epic = readBacklogItem(data, event.seq);
      if (epic) draft.epics.set(epic.id, epic);
      return;
    }
    case 'story': {
      const story = readStory(data, event.seq);
      if (story) draft.stories.set(story.id, story);
      return;
    }
    case 'task': {
      const task = readTask(data, event.seq);
      // A task the Arquiteto split (`split_into`) is replaced by its parts: nobody works on it any more.
      if (task && isSplit(data)) draft.tasks.delete(task.id);
      else if (task) draft.tasks.set(task.id, task);
      return;
    }
    case 'module_map':
      draft.moduleMaps.push({
        seq: event.seq,
        version: readVersion(data),
        data: readModuleMap(data),
      });
      return;
    case 'decision':
      applyDecision(draft, event);
      return;
    case 'module_contracts':
      draft.contracts.push({
        seq: event.seq,
        version: readVersion(data),
        data: readModuleContracts(data),
      });
      return;
    default:
      // biome-ignore lint/suspicious/noAssignInExpressions: `??=` creates the list where it is first needed
      (draft.otherArtifacts[type] ??= []).push({
        seq: event.seq,
        version: readVersion(data),
        data,
      });
  }
}

/** A task artifact the Arquiteto split: it names the tasks that replace it (`split_into`). */
function isSplit(data: unknown): boolean {
  return (
    typeof data === 'object' &&
    data !== null &&
    'split_into' in data &&
    Array.isArray(data.split_into)
  );
}

/**
 * A business rule; a revision (`supersedes`, ADR 0421) marks the version it replaces, which stays listed. The
 * entry is replaced, not changed: an earlier view may share it.
 */
function applyRule(
  draft: SessionDraft,
  event: ArtifactEvent,
  where: { eventId: string; seq: number },
): void {
  const index = draft.rules.findIndex((rule) => rule.eventId === event.payload.supersedes);
  const old = draft.rules[index];
  if (old !== undefined) draft.rules[index] = { ...old, supersededBy: event.seq };
  draft.rules.push(
    readBusinessRule(event.payload, {
      ...where,
      recordedBy: event.actor,
      revises: old?.seq ?? null,
    }),
  );
}

/** The rules as they stand: every rule's latest version. */
export const currentRules = (rules: readonly BusinessRule[]): BusinessRule[] =>
  rules.filter((rule) => rule.supersededBy === null);
