/**
 * The contract the server and the web UI share (ADR 0400): the session events as one discriminated union read
 * by the server's own event definitions, and the pure rules both sides apply to them. Everything reachable from
 * here is pure (zod and the domain's schemas, no `node:` module): the web bundles it.
 */
export {
  type ArtifactEnvelope,
  type ArtifactEventOf,
  isArtifactEvent,
  type EventReading,
  payloadSchemaOf,
  readEventOf,
  readSessionEvent,
  SESSION_EVENT_DEFINITIONS,
  type SessionEventOf,
  type SessionEventPayloads,
  type TypedSessionEvent,
} from './session-event-union.ts';
export {
  applyBlockEvent,
  type BlockLoop,
  type DevBlock,
  newBlockLoop,
} from './block-loop.ts';
export {
  type LaneEndFacts,
  type LaneEndRule,
  regenerateRefusal,
  retryRefusal,
} from '../conversation/lane-end-rules.ts';
