import { defineEvent, type EventMap } from '../events/index.ts';
import {
  AnamneseProfileRecordedPayloadSchema,
  AnamneseProfileRefusedPayloadSchema,
  HypothesisAnsweredPayloadSchema,
  HypothesisProposedPayloadSchema,
  HypothesisRefusedPayloadSchema,
  RagFeedbackPayloadSchema,
  SessionEndedPayloadSchema,
} from './memory-event-payloads.ts';
import { MEMORY_EVENT_TYPES } from './memory-event-types.ts';

/** The relational memory's session events with their payload schemas (see `session-events.ts`). */
export const MEMORY_EVENTS = {
  sessionEnded: defineEvent(MEMORY_EVENT_TYPES.sessionEnded, SessionEndedPayloadSchema),
  hypothesisProposed: defineEvent(
    MEMORY_EVENT_TYPES.hypothesisProposed,
    HypothesisProposedPayloadSchema,
  ),
  hypothesisAccepted: defineEvent(
    MEMORY_EVENT_TYPES.hypothesisAccepted,
    HypothesisAnsweredPayloadSchema,
  ),
  hypothesisDismissed: defineEvent(
    MEMORY_EVENT_TYPES.hypothesisDismissed,
    HypothesisAnsweredPayloadSchema,
  ),
  hypothesisRefused: defineEvent(
    MEMORY_EVENT_TYPES.hypothesisRefused,
    HypothesisRefusedPayloadSchema,
  ),
  anamneseProfileRecorded: defineEvent(
    MEMORY_EVENT_TYPES.anamneseProfileRecorded,
    AnamneseProfileRecordedPayloadSchema,
  ),
  anamneseProfileRefused: defineEvent(
    MEMORY_EVENT_TYPES.anamneseProfileRefused,
    AnamneseProfileRefusedPayloadSchema,
  ),
  ragFeedback: defineEvent(MEMORY_EVENT_TYPES.ragFeedback, RagFeedbackPayloadSchema),
} as const;

export type MemoryEventMap = EventMap<typeof MEMORY_EVENTS>;
