import { z } from 'zod';
import { HANDOFF_EVENT_PREFIX } from '../conversation/event-types.ts';
import type { NewSessionEvent } from '../conversation/session-event.ts';
import { HANDOFF_STATUSES, type Handoff, type HandoffStatus } from './handoff.ts';

/** Schema version of the `handoff.<status>` payload. */
export const HANDOFF_PAYLOAD_VERSION = 1;

/**
 * Payload of every `handoff.<status>` event: the whole handoff after the transition, so the log alone
 * rebuilds the table (the table is only the current state, record ADR 0008).
 */
export const HandoffPayloadSchema = z.object({
  v: z.literal(HANDOFF_PAYLOAD_VERSION),
  handoff_id: z.string().min(1),
  from_agent: z.string().min(1),
  to_agent: z.string().min(1),
  artifact_id: z.string().min(1).nullable(),
  status: z.enum(HANDOFF_STATUSES),
  reason: z.string().optional(),
});

export type HandoffPayload = z.infer<typeof HandoffPayloadSchema>;

/** The event recording that `handoff` reached its current status. */
export function handoffEvent(handoff: Handoff, actor: string, reason?: string): NewSessionEvent {
  const payload: HandoffPayload = {
    v: HANDOFF_PAYLOAD_VERSION,
    handoff_id: handoff.id,
    from_agent: handoff.from_agent,
    to_agent: handoff.to_agent,
    artifact_id: handoff.artifact_id,
    status: handoff.status,
    ...(reason === undefined ? {} : { reason }),
  };
  return { type: handoffEventType(handoff.status), actor, payload };
}

/** `accepted` → `handoff.accepted`. */
export function handoffEventType(status: HandoffStatus): string {
  return `${HANDOFF_EVENT_PREFIX}${status}`;
}

/**
 * Reads a handoff back from a `handoff.<status>` event; `null` when the event is not a handoff event or its
 * payload does not parse (the caller decides whether that is worth reporting).
 */
export function handoffFromEvent(event: {
  readonly type: string;
  readonly session_id: string;
  readonly payload: unknown;
}): Handoff | null {
  if (!event.type.startsWith(HANDOFF_EVENT_PREFIX)) return null;
  const parsed = HandoffPayloadSchema.safeParse(event.payload);
  if (!parsed.success || handoffEventType(parsed.data.status) !== event.type) return null;
  const { handoff_id, from_agent, to_agent, artifact_id, status } = parsed.data;
  return {
    id: handoff_id,
    session_id: event.session_id,
    from_agent,
    to_agent,
    artifact_id,
    status,
  };
}
