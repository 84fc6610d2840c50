export { isPersonActor, PERSON_ACTOR, SYSTEM_ACTOR } from './actors.ts';
export type { CommandOf, ConversationCommand } from './commands.ts';
export {
  activeAgent,
  isInLane,
  laneOf,
  openHandoffs,
  turnInProgress,
  waitingQuestions,
} from './conversation-queries.ts';
export type { LaneState } from './conversation-queries.ts';
export { initialState } from './conversation-state.ts';
export type {
  ActiveAgent,
  Addressed,
  ChatHistoryEntry,
  ConversationState,
  PendingAction,
  Readiness,
  RecordedArtifact,
  RecordedBusinessRule,
  SupersededBusinessRule,
  RecordedDecision,
  RecordedProductBrief,
  SkippedEvent,
  TurnInProgress,
  LaneEnd,
} from './conversation-state.ts';
export { canRegenerate, canRetry, canStop, knownTurn, stopRequestedBy } from './turn-control.ts';
export type { TurnControlCheck, TurnControlRule } from './turn-control.ts';
export {
  AnswerSupersededPayloadSchema,
  TurnRetriedPayloadSchema,
  TurnStoppedPayloadSchema,
} from './turn-control-payloads.ts';
export { BRIEF_RECEIVER, BRIEF_SENDER, briefRound, readinessOpen } from './brief-round.ts';
export type { BriefRound } from './brief-round.ts';
export { decide } from './decide.ts';
export {
  CRIATIVO_GREETINGS,
  GREETING_LANGUAGES,
  greetingLanguage,
  type GreetingLanguage,
} from './greetings.ts';
export { READINESS_AGENT } from './decide-readiness.ts';
export type { Decision } from './decision.ts';
export {
  ActionProposedPayloadSchema,
  ActionResolvedPayloadSchema,
  AgentActivatedPayloadSchema,
  AgentResponsePayloadSchema,
  BudgetExceededPayloadSchema,
  ChatMessagePayloadSchema,
  ContextCompactedPayloadSchema,
  ContextCompactionFailedPayloadSchema,
  ReadinessConfirmedPayloadSchema,
  SessionCreatedPayloadSchema,
  TURN_KINDS,
  ToolCompletedPayloadSchema,
  ToolLoopLimitReachedPayloadSchema,
  RecordedToolCallSchema,
  TurnCompletedPayloadSchema,
  TurnEndedPayloadSchema,
  TURN_OUTCOMES,
  TurnFailedPayloadSchema,
  TurnStartedPayloadSchema,
} from './event-payloads.ts';
export type {
  ActionProposedPayload,
  ActionResolvedPayload,
  AgentActivatedPayload,
  AgentResponsePayload,
  ChatMessagePayload,
  ContextCompactedPayload,
  ContextCompactionFailedPayload,
  ToolCompletedPayload,
  RecordedToolCall,
  TurnCompletedPayload,
  TurnFailedPayload,
  TurnKind,
  TurnStartedPayload,
} from './event-payloads.ts';
export {
  ARTIFACT_EVENT_PREFIX,
  CONVERSATION_EVENT_TYPES,
  EVENT_TYPES,
  endsTurn,
  HANDOFF_EVENT_PREFIX,
  TURN_ENDING_TYPES,
  turnEndsSql,
} from './event-types.ts';
export { evolve } from './evolve.ts';
export { turnEndOf, withTurnEnds } from './turn-ends.ts';
export { CURRENT_PAYLOAD_VERSION } from './read-payload.ts';
export { foldEvents, foldEventsInto, rehydrate } from './rehydrate.ts';
export { draftOf, type ConversationDraft } from './conversation-draft.ts';
export type { NewSessionEvent, SessionEvent } from './session-event.ts';
export { UPCASTERS, upcast, versionOf } from './upcast.ts';
export type { PayloadUpcaster, UpcasterTable } from './upcast.ts';
export { writtenBeforeStart } from './written-before-start.ts';
export { SESSION_EVENTS } from './session-events.ts';
export type { ConversationEventMap } from './session-events.ts';
export {
  answerForTheAgent,
  checkAnswer,
  openQuestionsCheck,
  MAX_ANSWER_CHARACTERS,
  MAX_QUESTION_CHARACTERS,
  MAX_QUESTION_OPTIONS,
  PersonAnsweredPayloadSchema,
  PersonAskedPayloadSchema,
} from './person-questions.ts';
export type {
  AnswerCheck,
  OpenQuestionsCheck,
  PersonAnsweredPayload,
  PersonAskedPayload,
  PersonQuestion,
  PersonReply,
} from './person-questions.ts';
export { decisionsByHandoff } from './handoff-decisions.ts';
export type { HandoffDecision } from './handoff-decisions.ts';
export {
  foldTurnTrace,
  TRACE_TEXT_CHARACTERS,
  type TracedToolCall,
  type TurnSkeleton,
} from './turn-trace.ts';
