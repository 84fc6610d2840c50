import type { StoredEvent } from '../api/types.ts';
import { readSessionEvent } from './fold/fold-event.ts';

/** One version of an agent's answer: the event it was stored in, and its text. */
export interface AnswerVersion {
  eventId: string;
  seq: number;
  text: string;
}

/**
 * The earlier versions of each regenerated answer, read from the log (ADR 0408): an answer that
 * `answer.superseded` took out of the history stays a version of the answer of the turn that regenerated it
 * (`turn.started` with `regenerates`), and of the next one if that was regenerated too. Keyed by the current
 * answer's event id; each list is oldest first and ends with the current answer. Answers never regenerated
 * are not in the map.
 */
export function answerVersions(events: readonly StoredEvent[]): Map<string, AnswerVersion[]> {
  const answerOfTurn = new Map<string, AnswerVersion>();
  const regenerated = new Map<string, string>();
  const superseded = new Set<string>();
  for (const row of events) {
    const reading = readSessionEvent(row);
    if (reading.kind !== 'typed') continue;
    const event = reading.event;
    switch (event.type) {
      case 'agent.response':
      case 'turn.stopped': {
        const { turn_id: turnId, text } = event.payload;
        if (turnId !== undefined && turnId !== '' && text.trim() !== '')
          answerOfTurn.set(turnId, { eventId: event.id, seq: event.seq, text });
        break;
      }
      case 'turn.started':
        if (event.payload.regenerates !== undefined)
          regenerated.set(event.payload.turn_id, event.payload.regenerates);
        break;
      case 'answer.superseded':
        superseded.add(event.payload.event_id);
        break;
    }
  }
  const versions = new Map<string, AnswerVersion[]>();
  for (const [turnId, answer] of answerOfTurn) {
    if (superseded.has(answer.eventId)) continue;
    const chain = [answer];
    const seen = new Set([turnId]);
    for (let earlier = regenerated.get(turnId); earlier !== undefined; ) {
      if (seen.has(earlier)) break;
      seen.add(earlier);
      const old = answerOfTurn.get(earlier);
      if (old !== undefined && superseded.has(old.eventId)) chain.unshift(old);
      earlier = regenerated.get(earlier);
    }
    if (chain.length > 1) versions.set(answer.eventId, chain);
  }
  return versions;
}
