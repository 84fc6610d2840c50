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
 * `events`, so a refresh costs what was appended, never a copy of the whole log or history (ADR 0080: at
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
    // read was in flight.
    foldNew(owned, page);
    if (page.length < PAGE) break;
  }
  return owned;
}

/**
 * Brings a view past an append this process just made, from what the append returned: when the appended
 * events follow the view's last seq they are folded in with no read of the log; when another append landed
 * in between (a gap), the view is refreshed from the log. Either way the view then holds the appended events.
 * A turn reads the log once when it starts and carries its view forward with its own appends (ADR 0210).
 */
export async function viewAfterAppend(
  eventLog: EventLog,
  sessionId: string,
  view: SessionView,
  appended: readonly SessionEvent[],
): Promise<SessionView> {
  const owned = own(view);
  const first = appended.find((event) => event.seq > owned.state.last_seq);
  if (appended.length === 0 || (first !== undefined && first.seq !== owned.state.last_seq + 1))
    return refreshSessionView(eventLog, sessionId, owned);
  foldNew(owned, appended);
  return owned;
}

/** Folds the events past the view's last seq (a concurrent refresh may have folded some already). */
function foldNew(owned: OwnedView, events: readonly SessionEvent[]): void {
  // Folding is synchronous, so what is still new is decided here, just before it.
  const fresh = events.filter((event) => event.seq > owned.state.last_seq);
  if (fresh.length === 0) return;
  foldEventsInto(owned.state, fresh);
  for (const event of fresh) owned.events.push(event);
}

/** The project the session belongs to, from its `session.created` (seq 1); null for a view of no session. */
export function sessionProjectId(view: SessionView): string | null {
  const created = view.events[0];
  if (created?.type !== 'session.created') return null;
  const projectId = (created.payload as { project_id?: unknown } | null)?.project_id;
  return typeof projectId === 'string' ? projectId : null;
}

type OwnedView = { state: ConversationDraft; events: SessionEvent[] };

const ownedViews = new WeakSet<SessionView>();

/**
 * A view of `state` and `events` exactly as given, owned from now on with no copy: for a view read back from
 * a snapshot (session-view-snapshot.ts), whose parsed arrays nobody else holds.
 */
export function adoptView(state: ConversationDraft, events: SessionEvent[]): SessionView {
  const owned: OwnedView = { state, events };
  ownedViews.add(owned);
  return owned;
}

/** The view itself when it was made here; a view built elsewhere (a test's fold) is copied once and owned. */
function own(view: SessionView): OwnedView {
  if (ownedViews.has(view)) return view as OwnedView;
  const owned: OwnedView = { state: draftOf(view.state), events: [...view.events] };
  ownedViews.add(owned);
  return owned;
}
