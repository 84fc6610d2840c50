import type { z } from 'zod';
import type { TURN_OUTCOMES, TurnEndedPayloadSchema } from './event-payloads.ts';
import { EVENT_TYPES, endsTurn } from './event-types.ts';
import type { NewSessionEvent } from './session-event.ts';
import { SESSION_EVENTS } from './session-events.ts';

type TurnOutcome = (typeof TURN_OUTCOMES)[number];
type TurnEndedEvent = ReturnType<typeof SESSION_EVENTS.turnEnded.create>;

/** The outcome each turn-ending event type records; an answer that ends its turn (no tool calls) answered. */
const OUTCOMES: Readonly<Record<string, TurnOutcome>> = {
  [EVENT_TYPES.agentResponse]: 'answered',
  [EVENT_TYPES.turnCompleted]: 'answered',
  [EVENT_TYPES.turnFailed]: 'failed',
  [EVENT_TYPES.turnStopped]: 'stopped',
  [EVENT_TYPES.toolLoopLimitReached]: 'limit_reached',
};

/** The `turn.ended` payload `event` calls for: an event that ends a turn it names, or null. */
export function turnEndOf(
  event: Pick<NewSessionEvent, 'type'> & { readonly payload?: unknown },
): z.output<typeof TurnEndedPayloadSchema> | null {
  const outcome = OUTCOMES[event.type];
  if (outcome === undefined) return null;
  if (event.type !== EVENT_TYPES.turnStopped && !endsTurn(event)) return null;
  const { payload } = event;
  if (typeof payload !== 'object' || payload === null) return null;
  const { agent, turn_id: turnId } = payload as { agent?: unknown; turn_id?: unknown };
  if (typeof agent !== 'string' || agent === '' || typeof turnId !== 'string' || turnId === '')
    return null;
  return { v: 1, agent, turn_id: turnId, outcome };
}

/**
 * `events` with a `turn.ended` appended for each turn one of them ends (ADR 0422): after the whole batch, so a
 * reader that sees `turn.ended` has every event the turn appended; one per turn, and none for a batch that
 * records its own (a replayed batch). Pure.
 */
export function withTurnEnds<Event extends Pick<NewSessionEvent, 'type'> & { payload?: unknown }>(
  events: readonly Event[],
): readonly (Event | TurnEndedEvent)[] {
  const recorded = new Set<string>();
  for (const event of events) {
    if (event.type === EVENT_TYPES.turnEnded) recorded.add(turnIdOf(event.payload));
  }
  const ends = new Map<string, z.output<typeof TurnEndedPayloadSchema>>();
  for (const event of events) {
    const end = turnEndOf(event);
    if (end !== null && !recorded.has(end.turn_id)) ends.set(end.turn_id, end);
  }
  if (ends.size === 0) return events;
  return [
    ...events,
    ...[...ends.values()].map((end) => SESSION_EVENTS.turnEnded.create('system', end)),
  ];
}

const turnIdOf = (payload: unknown): string =>
  typeof payload === 'object' && payload !== null && 'turn_id' in payload
    ? String(payload.turn_id)
    : '';
