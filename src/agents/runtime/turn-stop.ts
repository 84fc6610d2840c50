import { decide } from '../../domain/conversation/index.ts';
import type { NewSessionEvent } from '../../store/index.ts';
import type { LiveTurns } from './live-turns.ts';
import type { SessionView } from './session-view.ts';

/** The reason a turn's signal is aborted with when the person presses Stop (ADR 0220). */
export class TurnStopRequest extends Error {
  readonly by: string;
  constructor(by: string) {
    super(`the turn was stopped by ${by}`);
    this.by = by;
    this.name = 'TurnStopRequest';
  }
}

/** The person's stop request, when `signal` was aborted by one; null for any other abort or none. */
export function stopRequestOf(signal: AbortSignal | undefined): TurnStopRequest | null {
  return signal?.aborted === true && signal.reason instanceof TurnStopRequest
    ? signal.reason
    : null;
}

/**
 * Ends the lane's turn as stopped, keeping `text` (what it streamed) as its partial answer. Null when the rules
 * say the turn cannot be stopped now (it waits for an approval, or it already ended): the loop goes on as it would.
 */
export async function recordStop(
  fields: {
    view: SessionView;
    append: (events: NewSessionEvent[]) => Promise<void>;
    liveTurns: LiveTurns;
    sessionId: string;
    agent: string;
    turnId: string;
    text: string;
  },
  stop: TurnStopRequest,
): Promise<{ status: 'stopped'; text: string } | null> {
  const decision = decide(
    { type: 'StopTurn', turn_id: fields.turnId, text: fields.text, actor: stop.by },
    fields.view.state,
  );
  if (!decision.ok) return null;
  await fields.append([...decision.events]);
  fields.liveTurns.publish({
    type: 'agent.done',
    session_id: fields.sessionId,
    agent: fields.agent,
    turn_id: fields.turnId,
    status: 'stopped',
  });
  return { status: 'stopped', text: fields.text };
}
