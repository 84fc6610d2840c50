import {
  draftOf,
  foldEventsInto,
  initialState,
  type ConversationDraft,
  type ConversationState,
  type SessionEvent,
} from '../../domain/conversation/index.ts';
import type { EventLog } from '../../store/index.ts';

const PAGE = 1000;

/**
 * A session's events and their fold, kept current by reading only what was appended since. A view is
 * updated in place: refreshing it folds the new events into its own state and appends them to its own
 * `events`, so a refresh costs what was appended, never a copy of the whole log or history (issue 15: at
 * 100,000 events, the seven refreshes of a turn each copied both). Whoever holds a view (or its state) sees
 * it current; keep a field's value, not the view, to remember how it was.
 */
export interface SessionView {
  readonly state: ConversationState;
  readonly events: readonly SessionEvent[];
}

/** Reads the events after the view's last seq and folds them in; the first call reads the whole log. */
export async function refreshSessionView(
  eventLog: EventLog,
  sessionId: string,
  view?: SessionView,
): Promise<SessionView> {
  const owned = own(view ?? { state: initialState(), events: [] });
  for (;;) {
    const page = await eventLog.read(sessionId, { afterSeq: owned.state.last_seq, limit: PAGE });
    // Lanes refresh the same view concurrently: another refresh may have folded part of this page while the
    // read was in flight. Folding is synchronous, so what is still new is decided here, just before it.
    const fresh = page.filter((event) => event.seq > owned.state.last_seq);
    if (fresh.length > 0) {
      foldEventsInto(owned.state, fresh);
      for (const event of fresh) {
        owned.events.push(event);
        if (event.type === SESSION_ENDED && !endedAt.has(owned)) endedAt.set(owned, event.seq);
      }
    }
    if (page.length < PAGE) break;
  }
  return owned;
}

const SESSION_ENDED = 'session.ended';
const endedAt = new WeakMap<SessionView, number>();

/** The seq of the session's `session.ended`, or null: tracked as the view folds, so no scan of the log. */
export function sessionEndedSeq(view: SessionView): number | null {
  if (ownedViews.has(view)) return endedAt.get(view) ?? null;
  return view.events.find((event) => event.type === SESSION_ENDED)?.seq ?? null;
}

type OwnedView = { state: ConversationDraft; events: SessionEvent[] };

const ownedViews = new WeakSet<SessionView>();

/** The view itself when it was made here; a view built elsewhere (a test's fold) is copied once and owned. */
function own(view: SessionView): OwnedView {
  if (ownedViews.has(view)) return view as OwnedView;
  const owned: OwnedView = { state: draftOf(view.state), events: [...view.events] };
  ownedViews.add(owned);
  const ended = view.events.find((event) => event.type === SESSION_ENDED);
  if (ended !== undefined) endedAt.set(owned, ended.seq);
  return owned;
}
