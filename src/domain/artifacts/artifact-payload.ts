import { z } from 'zod';
import { ARTIFACT_EVENT_PREFIX } from '../conversation/event-types.ts';
import type { NewSessionEvent } from '../conversation/session-event.ts';

/** Schema version of the `artifact.<type>` event payload envelope. */
export const ARTIFACT_PAYLOAD_VERSION = 1;

/**
 * Payload of every `artifact.<type>` event: the envelope mirrors the `emit_artifact` arguments, so what the
 * model sent and what is stored read the same. `origin` is present only when the artifact cites the
 * conversation.
 */
export type ArtifactPayload = {
  readonly v: typeof ARTIFACT_PAYLOAD_VERSION;
  readonly data: unknown;
  readonly origin?: readonly number[];
  /** On a business rule revised (`revise_rule`): the event id of the version it replaces. */
  readonly supersedes?: string;
};

/**
 * Lenient read shape of the envelope. Reading is deliberately looser than writing: a limit tightened later
 * must not hide artifacts already in the log; only writes are checked against the type's schema.
 */
export const StoredArtifactPayloadSchema = z.object({
  v: z.literal(ARTIFACT_PAYLOAD_VERSION),
  data: z.unknown(),
  origin: z.array(z.number()).optional(),
  supersedes: z.string().min(1).max(64).optional(),
});

/** `business_rule` → `artifact.business_rule`. */
export function artifactEventType(artifactType: string): string {
  return `${ARTIFACT_EVENT_PREFIX}${artifactType}`;
}

/** `artifact.business_rule` → `business_rule`; `null` for any other event type. */
export function artifactTypeOf(eventType: string): string | null {
  if (!eventType.startsWith(ARTIFACT_EVENT_PREFIX)) return null;
  const artifactType = eventType.slice(ARTIFACT_EVENT_PREFIX.length);
  return artifactType.length > 0 ? artifactType : null;
}

/**
 * The `artifact.<type>` event recording `payload`: the constructor every artifact write goes through. The
 * caller has checked `payload.data` against the type's schema (`validateArtifactData`, `validateEmitArtifact`).
 */
export function artifactEvent(
  artifactType: string,
  actor: string,
  payload: ArtifactPayload,
): NewSessionEvent {
  return { type: artifactEventType(artifactType), actor, payload };
}
