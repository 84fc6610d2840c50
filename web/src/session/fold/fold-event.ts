import type {
  ArtifactEnvelope,
  SessionEventOf,
  SessionEventPayloads,
  TypedSessionEvent,
} from '../../../../src/domain/contract/index.ts';
import type { StoredEvent } from '../../api/types.ts';

export { readSessionEvent } from '../../../../src/domain/contract/index.ts';

/**
 * A stored event as the fold reads it: its payload parsed by the server's own event definitions (ADR 0400),
 * so `switch (event.type)` narrows `event.payload` to that kind's payload.
 */
export type FoldEvent = TypedSessionEvent<StoredEvent>;

/** The fold event of one wire name. */
export type FoldEventOf<Type extends keyof SessionEventPayloads> = SessionEventOf<
  Type,
  StoredEvent
>;

/** An `artifact.<type>` event: its envelope, whose `data` each artifact's reader reads. */
export type ArtifactEvent = Omit<StoredEvent, 'type' | 'payload'> & {
  readonly type: `artifact.${string}`;
  readonly payload: ArtifactEnvelope;
};

export const ARTIFACT_PREFIX = 'artifact.';
export const HANDOFF_PREFIX = 'handoff.';

export const isArtifactEvent = (event: FoldEvent): event is ArtifactEvent =>
  event.type.startsWith(ARTIFACT_PREFIX);

/** A `handoff.<status>` event. */
export type HandoffEvent =
  FoldEventOf<`handoff.${'offered' | 'accepted' | 'completed' | 'rejected'}`>;

export const isHandoffEvent = (event: FoldEvent): event is HandoffEvent =>
  event.type.startsWith(HANDOFF_PREFIX);

/** The agent an event is about: its payload's `agent` when it names one, else who caused it. */
export function agentOf(event: FoldEvent): string {
  const { payload } = event;
  return 'agent' in payload && typeof payload.agent === 'string' ? payload.agent : event.actor;
}

/** The turn an event belongs to, or `''` when it names none. */
export function turnOf(event: FoldEvent): string {
  const { payload } = event;
  return 'turn_id' in payload && typeof payload.turn_id === 'string' ? payload.turn_id : '';
}
