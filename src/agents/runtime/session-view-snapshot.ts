import {
  initialState,
  type ConversationDraft,
  type SessionEvent,
} from '../../domain/conversation/index.ts';
import { adoptView, type SessionView } from './session-view.ts';

/** The layout of a snapshot's text; part of the fold's version (fold-version.ts reads this file). */
const FORMAT = 1;

/**
 * The largest snapshot written, in characters of JSON: a 100,000-event chat session is about 62 million
 * (its events, and its history in the state). A larger view is folded from the log as before.
 */
export const MAX_SNAPSHOT_CHARS = 128 * 1024 * 1024;

/** The view as the text of a snapshot, or null when it is larger than `maxChars`. Synchronous, so the text is the view as of one seq. */
export function snapshotText(view: SessionView, maxChars = MAX_SNAPSHOT_CHARS): string | null {
  const text = JSON.stringify({ format: FORMAT, state: view.state, events: view.events });
  return text.length <= maxChars ? text : null;
}

/**
 * The view a snapshot's text holds, owned by the caller; null for text that is not a snapshot of this
 * session as of `lastSeq` in this format (old, damaged or hostile text is expected, and ignored).
 */
export function viewFromSnapshot(
  text: string,
  sessionId: string,
  lastSeq: number,
): SessionView | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || parsed.format !== FORMAT) return null;
  const { state, events } = parsed;
  if (!isState(state, sessionId, lastSeq) || !areEvents(events, sessionId, lastSeq)) return null;
  return adoptView(state, events);
}

/** The state's fields, each of the kind `initialState()` gives it, at this session and seq. */
function isState(state: unknown, sessionId: string, lastSeq: number): state is ConversationDraft {
  if (!isRecord(state) || state.session_id !== sessionId || state.last_seq !== lastSeq)
    return false;
  return Object.entries(initialState()).every(([key, initial]) => {
    const value = state[key];
    if (Array.isArray(initial)) return Array.isArray(value);
    if (initial === null)
      return value === null || isRecord(value) || ['string', 'number'].includes(typeof value);
    return typeof value === typeof initial && value !== null;
  });
}

/** Every event of the session from seq 1 to `lastSeq`, in order, each with the fields of a stored event. */
function areEvents(events: unknown, sessionId: string, lastSeq: number): events is SessionEvent[] {
  if (!Array.isArray(events) || events.length !== lastSeq) return false;
  return events.every(
    (event: unknown, index) =>
      isRecord(event) &&
      event.seq === index + 1 &&
      event.session_id === sessionId &&
      typeof event.id === 'string' &&
      typeof event.type === 'string' &&
      typeof event.actor === 'string' &&
      typeof event.created_at === 'string' &&
      'payload' in event,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
