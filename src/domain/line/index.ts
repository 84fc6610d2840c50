export {
  BLOCK_EVENT_TYPES,
  BlockAnsweredPayloadSchema,
  BlockResolutionSchema,
  DevUnblockedPayloadSchema,
} from './block-events.ts';
export type { BlockResolution, DevUnblockedPayload } from './block-events.ts';
export {
  BLOCK_KINDS,
  DEV_EVENT_TYPES,
  DevBlockedPayloadSchema,
  DevTaskFinishedPayloadSchema,
} from './dev-events.ts';
export type { BlockKind, DevBlockedPayload, DevTaskFinishedPayload } from './dev-events.ts';
export {
  InstructionFileDigestSchema,
  LINE_EVENT_TYPES,
  LineCompletedPayloadSchema,
  LineInstructionsAcceptedPayloadSchema,
  LineMergedIntoMainPayloadSchema,
  MAX_MERGED_INSTRUCTION_FILES,
  ModuleCaughtUpPayloadSchema,
  ModuleDependencyMergedPayloadSchema,
  ModuleMergedPayloadSchema,
  ModuleMergeFailedPayloadSchema,
} from './line-event-payloads.ts';
export type {
  InstructionFileDigest,
  LineMergedIntoMainPayload,
  ModuleCaughtUpPayload,
  ModuleDependencyMergedPayload,
} from './line-event-payloads.ts';
export { LINE_EVENTS, type LineEventMap } from './line-events.ts';
