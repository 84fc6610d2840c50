import { EVENT_TYPES } from '../conversation/event-types.ts';
import { HandoffPayloadSchema, handoffEventType } from './handoff-event.ts';

/** The events the rule reads: a session's log, in seq order. */
type LoggedEvent = { readonly type: string; readonly seq: number; readonly payload: unknown };

/** A rejection its sender has not answered by offering the same receiver again (ADR 0160). */
export type StandingRejection = {
  readonly handoff_id: string;
  readonly from_agent: string;
  readonly to_agent: string;
  readonly artifact_id: string | null;
  /** The person's reason; empty only in logs from before a reason was required. */
  readonly reason: string;
  /** Seq of the `handoff.rejected` event. */
  readonly seq: number;
};

const OFFERED = handoffEventType('offered');
const REJECTED = handoffEventType('rejected');

/**
 * The rejections that still stand, oldest first: the latest handoff from a sender to a receiver was rejected.
 * A new offer from that sender to that receiver (the PO offered the Arquiteto again, a new brief offered to
 * the PO) answers it. Decided from the log alone.
 */
export function standingRejections(events: readonly LoggedEvent[]): StandingRejection[] {
  const latest = new Map<string, StandingRejection | null>();
  for (const event of events) {
    if (event.type !== OFFERED && event.type !== REJECTED) continue;
    const parsed = HandoffPayloadSchema.safeParse(event.payload);
    if (!parsed.success) continue;
    const { handoff_id, from_agent, to_agent, artifact_id, reason } = parsed.data;
    const key = `${from_agent}\u0000${to_agent}`;
    if (event.type === OFFERED) latest.set(key, null);
    else
      latest.set(key, {
        handoff_id,
        from_agent,
        to_agent,
        artifact_id,
        reason: reason ?? '',
        seq: event.seq,
      });
  }
  return [...latest.values()]
    .filter((rejection): rejection is StandingRejection => rejection !== null)
    .sort((left, right) => left.seq - right.seq);
}

/** The standing rejections of handoffs `agent` sent. */
export function rejectionsOf(events: readonly LoggedEvent[], agent: string): StandingRejection[] {
  return standingRejections(events).filter((rejection) => rejection.from_agent === agent);
}

/**
 * The senders owed a turn for a rejection, in the order rejected: a standing rejection of a handoff the agent
 * sent, recorded after the agent's last `turn.started`. The turn's task state carries the reason, so the
 * turn is owed once: any turn of the agent after the rejection has seen it.
 */
export function rejectionTurnsOwed(events: readonly LoggedEvent[]): string[] {
  const lastStart = new Map<string, number>();
  for (const event of events) {
    if (event.type !== EVENT_TYPES.turnStarted) continue;
    const agent = (event.payload as { agent?: unknown } | null)?.agent;
    if (typeof agent === 'string') lastStart.set(agent, event.seq);
  }
  const owed: string[] = [];
  for (const rejection of standingRejections(events)) {
    if (owed.includes(rejection.from_agent)) continue;
    if ((lastStart.get(rejection.from_agent) ?? 0) < rejection.seq) owed.push(rejection.from_agent);
  }
  return owed;
}
