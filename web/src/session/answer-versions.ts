import type { StoredEvent } from '../api/types.ts';

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
  for (const event of events) {
    const payload = record(event.payload);
    const turnId = string(payload['turn_id']);
    if (turnId === '') continue;
    if (event.type === 'agent.response' || event.type === 'turn.stopped') {
      const text = string(payload['text']);
      if (text.trim() !== '') answerOfTurn.set(turnId, { eventId: event.id, seq: event.seq, text });
    } else if (event.type === 'turn.started' && string(payload['regenerates']) !== '')
      regenerated.set(turnId, string(payload['regenerates']));
    else if (event.type === 'answer.superseded') superseded.add(string(payload['event_id']));
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

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function string(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
