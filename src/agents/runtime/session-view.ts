import { foldEvents, initialState, type ConversationState, type SessionEvent } from '../../domain/conversation/index.ts';
import type { EventLog } from '../../store/index.ts';

const PAGE = 1000;

/** A session's events and their fold, kept current by reading only what was appended since. */
export interface SessionView {
  state: ConversationState;
  events: SessionEvent[];
}

/** Reads the events after the view's last seq and folds them in; the first call reads the whole log. */
export async function refreshSessionView(eventLog: EventLog, sessionId: string, view: SessionView = { state: initialState(), events: [] }): Promise<SessionView> {
  const added: SessionEvent[] = [];
  let afterSeq = view.state.last_seq;
  for (;;) {
    const page = await eventLog.read(sessionId, { afterSeq, limit: PAGE });
    added.push(...page);
    afterSeq = page.at(-1)?.seq ?? afterSeq;
    if (page.length < PAGE) break;
  }
  if (added.length === 0) return view;
  return { state: foldEvents(view.state, added), events: [...view.events, ...added] };
}
