import { defineEvent, type EventMap } from '../events/index.ts';
import {
  BLOCK_EVENT_TYPES,
  BlockAnsweredPayloadSchema,
  DevUnblockedPayloadSchema,
} from './block-events.ts';
import {
  DEV_EVENT_TYPES,
  DevBlockedPayloadSchema,
  DevTaskFinishedPayloadSchema,
} from './dev-events.ts';
import {
  LINE_EVENT_TYPES,
  LineCompletedPayloadSchema,
  LineInstructionsAcceptedPayloadSchema,
  LineMergedIntoMainPayloadSchema,
  ModuleCaughtUpPayloadSchema,
  ModuleDependencyMergedPayloadSchema,
  ModuleMergedPayloadSchema,
  ModuleMergeFailedPayloadSchema,
} from './line-event-payloads.ts';

/** The production line's session events (the devs, the block loop, the merges) with their schemas. */
export const LINE_EVENTS = {
  devBlocked: defineEvent(DEV_EVENT_TYPES.blocked, DevBlockedPayloadSchema),
  devTaskFinished: defineEvent(DEV_EVENT_TYPES.taskFinished, DevTaskFinishedPayloadSchema),
  blockAnswered: defineEvent(BLOCK_EVENT_TYPES.answered, BlockAnsweredPayloadSchema),
  devUnblocked: defineEvent(BLOCK_EVENT_TYPES.unblocked, DevUnblockedPayloadSchema),
  moduleMerged: defineEvent(LINE_EVENT_TYPES.merged, ModuleMergedPayloadSchema),
  moduleMergeFailed: defineEvent(LINE_EVENT_TYPES.mergeFailed, ModuleMergeFailedPayloadSchema),
  moduleDependencyMerged: defineEvent(
    LINE_EVENT_TYPES.dependencyMerged,
    ModuleDependencyMergedPayloadSchema,
  ),
  moduleCaughtUp: defineEvent(LINE_EVENT_TYPES.caughtUp, ModuleCaughtUpPayloadSchema),
  lineCompleted: defineEvent(LINE_EVENT_TYPES.completed, LineCompletedPayloadSchema),
  lineMergedIntoMain: defineEvent(LINE_EVENT_TYPES.mergedIntoMain, LineMergedIntoMainPayloadSchema),
  lineInstructionsAccepted: defineEvent(
    LINE_EVENT_TYPES.instructionsAccepted,
    LineInstructionsAcceptedPayloadSchema,
  ),
} as const;

export type LineEventMap = EventMap<typeof LINE_EVENTS>;
