import type { StoredEvent } from '../../api/types.ts';
import { applyEvent, toView } from './fold-session.ts';
import { newSessionDraft, type SessionDraft } from './session-draft.ts';
import type { SessionView } from './session-view.ts';

/**
 * The session page's fold, carried from one render to the next (decision 0231): the stream only ever
 * adds events after the ones it holds, so each new event is applied once to the draft the earlier ones left,
 * instead of folding the whole log again for every event. `foldSession(events)` remains the definition: a fold
 * continued over any chunking of the log equals it (`incremental-fold.unit.test.ts`).
 */
export type SessionFold = {
  /** The events folded so far, the very array given (the stream's: appending makes a new array). */
  readonly events: readonly StoredEvent[];
  readonly view: SessionView;
  /** Events applied to produce this fold: the new ones, or all of them when the fold started over. */
  readonly applied: number;
  readonly draft: SessionDraft;
};

/**
 * The fold of `events`, continued from `previous` when `events` extends the events it folded (the same event
 * objects, in the same places, then new ones); otherwise (the first load, a different session, an event that
 * arrived out of order and was sorted in) folded from the start. Continuing takes over `previous`'s draft, and
 * a view shares the draft's lists and items (copying them would cost what the whole log costs): the view is a
 * new object for every new event, but its lists and items move on with the events after it. A component reads
 * the view it is given while rendering; it must not memoize on a list or an item of the view.
 */
export function continueFold(
  previous: SessionFold | null,
  events: readonly StoredEvent[],
): SessionFold {
  if (previous !== null && previous.events === events) return previous;
  const held = previous?.events.length ?? 0;
  const extends_ =
    previous !== null &&
    events.length >= held &&
    (held === 0 || events[held - 1] === previous.events[held - 1]);
  const draft = extends_ ? previous.draft : newSessionDraft();
  const from = extends_ ? held : 0;
  for (let index = from; index < events.length; index += 1) applyEvent(draft, events[index]!);
  return { events, view: toView(draft), applied: events.length - from, draft };
}
