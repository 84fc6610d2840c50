import { CONVERSATION_EVENT_TYPES } from '../conversation/event-types.ts';
import type { SessionEvent } from '../conversation/session-event.ts';
import {
  ARTIFACT_PAYLOAD_VERSION,
  artifactEventType,
  type ArtifactPayload,
} from './artifact-payload.ts';
import { defaultArtifactRegistry, type ArtifactRegistry } from './artifact-registry.ts';
import { validateArtifactData } from './validate-artifact-data.ts';
import { checkOrigin } from './check-origin.ts';

/** Why `emit_artifact` refused, for callers that branch (the reason text is for the model). */
export type EmitArtifactRefusalCode =
  | 'invalid_arguments'
  | 'unknown_type'
  | 'system_only'
  | 'invalid_data'
  | 'origin_empty'
  | 'origin_invalid';

/** An accepted artifact, ready to append as `event_type` with `payload`. */
export type EmittedArtifact = {
  readonly type: string;
  readonly event_type: string;
  readonly payload: ArtifactPayload;
};

export type EmitArtifactResult =
  | { readonly ok: true; readonly artifact: EmittedArtifact }
  | { readonly ok: false; readonly code: EmitArtifactRefusalCode; readonly reason: string };

/**
 * Checks the arguments of the `emit_artifact` tool, `{ "type": "business_rule", "data": {...}, "origin": [SEQ, ...] }`,
 * against the registry and this session's log. Checks run in order — arguments shape, known type, not
 * system-only, data, origin — and the first failing step is returned with a reason naming the field and the rule.
 *
 * @param sessionEvents every event of the session the tool runs in (origin seqs are looked up here only,
 *   which is what makes "of this session" true).
 */
export function validateEmitArtifact(
  args: unknown,
  sessionEvents: readonly SessionEvent[],
  registry: ArtifactRegistry = defaultArtifactRegistry,
): EmitArtifactResult {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return refuse('invalid_arguments', 'arguments must be an object { "type", "data", "origin" }');
  }
  const { type, data, origin } = args as Record<string, unknown>;
  const validTypes = registry.emittableTypes.join(', ');
  if (typeof type !== 'string' || type.length === 0) {
    return refuse('invalid_arguments', `type: must be one of ${validTypes}`);
  }
  const definition = registry.get(type);
  if (definition === undefined) {
    return refuse(
      'unknown_type',
      `type: "${type}" is not an artifact type; valid types are ${validTypes}`,
    );
  }
  if (definition.systemOnly) {
    const why = definition.systemOnlyReason ?? 'it is produced by the system only';
    return refuse('system_only', `type: "${type}" cannot be emitted with emit_artifact: ${why}`);
  }
  const checkedData = validateArtifactData(definition, data);
  if (!checkedData.ok) return refuse('invalid_data', checkedData.reason);

  const checkedOrigin = checkOrigin(definition, origin, sessionEvents, CONVERSATION_EVENT_TYPES);
  if (!checkedOrigin.ok) return refuse(checkedOrigin.code, checkedOrigin.reason);

  const payload: ArtifactPayload =
    checkedOrigin.origin.length > 0
      ? { v: ARTIFACT_PAYLOAD_VERSION, data: checkedData.data, origin: checkedOrigin.origin }
      : { v: ARTIFACT_PAYLOAD_VERSION, data: checkedData.data };
  return { ok: true, artifact: { type, event_type: artifactEventType(type), payload } };
}

function refuse(code: EmitArtifactRefusalCode, reason: string): EmitArtifactResult {
  return { ok: false, code, reason };
}
