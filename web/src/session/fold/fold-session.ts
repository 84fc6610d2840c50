import type { StoredEvent } from '../../api/types.ts';
import { applyArtifact, ARTIFACT_PREFIX } from './apply-artifact.ts';
import { applyConversation } from './apply-conversation.ts';
import { applyCoordination, isCoordinationEvent } from './apply-coordination.ts';
import { newSessionDraft, type SessionDraft } from './session-draft.ts';
import type { SessionView } from './session-view.ts';

/**
 * Folds a session's events (in seq order) into what the page shows. Pure. Unknown event types are ignored
 * and an event that cannot be read is counted, never allowed to break the page.
 */
export function foldSession(events: readonly StoredEvent[]): SessionView {
  const draft = newSessionDraft();
  for (const event of events) {
    try {
      if (event.type.startsWith(ARTIFACT_PREFIX)) applyArtifact(draft, event);
      else if (isCoordinationEvent(event.type)) applyCoordination(draft, event);
      else applyConversation(draft, event);
    } catch {
      draft.unreadable += 1;
    }
    draft.lastSeq = Math.max(draft.lastSeq, event.seq);
  }
  return toView(draft);
}

function toView(draft: SessionDraft): SessionView {
  const bySeq = <Item extends { seq: number }>(items: Iterable<Item>) => [...items].sort((a, b) => a.seq - b.seq);
  return {
    lastSeq: draft.lastSeq,
    chat: draft.chat,
    activeAgents: draft.activeAgents,
    rules: draft.rules,
    brief: draft.brief,
    readinessConfirmed: draft.readinessConfirmed,
    handoffs: draft.handoffs,
    actions: bySeq(draft.actions.values()),
    openTurns: [...draft.openTurns.values()],
    backlog: { epics: bySeq(draft.epics.values()), stories: bySeq(draft.stories.values()), tasks: bySeq(draft.tasks.values()) },
    moduleMaps: draft.moduleMaps,
    contracts: draft.contracts,
    otherArtifacts: draft.otherArtifacts,
    devs: [...draft.devs.values()].sort((a, b) => a.module.localeCompare(b.module)),
    unreadable: draft.unreadable,
  };
}
