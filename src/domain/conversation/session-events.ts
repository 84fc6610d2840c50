import { defineEvent, type EventMap } from '../events/index.ts';
import {
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
  ToolCompletedPayloadSchema,
  ToolLoopLimitReachedPayloadSchema,
  TurnCompletedPayloadSchema,
  TurnEndedPayloadSchema,
  TurnFailedPayloadSchema,
  TurnStartedPayloadSchema,
} from './event-payloads.ts';
import { EVENT_TYPES } from './event-types.ts';
import {
  AnswerSupersededPayloadSchema,
  TurnRetriedPayloadSchema,
  TurnStopRequestedPayloadSchema,
  TurnStoppedPayloadSchema,
} from './turn-control-payloads.ts';
import { PersonAnsweredPayloadSchema, PersonAskedPayloadSchema } from './person-questions.ts';

/**
 * The conversation's session events, each its wire name with its payload schema: the one way code outside
 * the domain writes them (`SESSION_EVENTS.chatMessage.create(actor, payload)`), and the map
 * `ConversationEventMap` (wire name → payload) derived from the schemas. Memory events are in
 * `domain/memory/memory-events.ts`, the line's in `domain/line/line-events.ts`, artifacts and handoffs have
 * their own constructors (`artifactEvent`, `handoffEvent`).
 */
export const SESSION_EVENTS = {
  sessionCreated: defineEvent('session.created', SessionCreatedPayloadSchema),
  chatMessage: defineEvent(EVENT_TYPES.chatMessage, ChatMessagePayloadSchema),
  agentActivated: defineEvent(EVENT_TYPES.agentActivated, AgentActivatedPayloadSchema),
  agentResponse: defineEvent(EVENT_TYPES.agentResponse, AgentResponsePayloadSchema),
  turnStarted: defineEvent(EVENT_TYPES.turnStarted, TurnStartedPayloadSchema),
  turnFailed: defineEvent(EVENT_TYPES.turnFailed, TurnFailedPayloadSchema),
  turnCompleted: defineEvent(EVENT_TYPES.turnCompleted, TurnCompletedPayloadSchema),
  turnEnded: defineEvent(EVENT_TYPES.turnEnded, TurnEndedPayloadSchema),
  readinessConfirmed: defineEvent(EVENT_TYPES.readinessConfirmed, ReadinessConfirmedPayloadSchema),
  toolCompleted: defineEvent(EVENT_TYPES.toolCompleted, ToolCompletedPayloadSchema),
  actionProposed: defineEvent(EVENT_TYPES.actionProposed, ActionProposedPayloadSchema),
  actionApproved: defineEvent(EVENT_TYPES.actionApproved, ActionResolvedPayloadSchema),
  actionDenied: defineEvent(EVENT_TYPES.actionDenied, ActionResolvedPayloadSchema),
  budgetExceeded: defineEvent(EVENT_TYPES.budgetExceeded, BudgetExceededPayloadSchema),
  toolLoopLimitReached: defineEvent(
    EVENT_TYPES.toolLoopLimitReached,
    ToolLoopLimitReachedPayloadSchema,
  ),
  contextCompacted: defineEvent(EVENT_TYPES.contextCompacted, ContextCompactedPayloadSchema),
  contextCompactionFailed: defineEvent(
    EVENT_TYPES.contextCompactionFailed,
    ContextCompactionFailedPayloadSchema,
  ),
  // The person's control over turns (ADR 0220).
  turnStopped: defineEvent(EVENT_TYPES.turnStopped, TurnStoppedPayloadSchema),
  turnStopRequested: defineEvent(EVENT_TYPES.turnStopRequested, TurnStopRequestedPayloadSchema),
  turnRetried: defineEvent(EVENT_TYPES.turnRetried, TurnRetriedPayloadSchema),
  answerSuperseded: defineEvent(EVENT_TYPES.answerSuperseded, AnswerSupersededPayloadSchema),
  // What only the person can decide goes to the person.
  personAsked: defineEvent(EVENT_TYPES.personAsked, PersonAskedPayloadSchema),
  personAnswered: defineEvent(EVENT_TYPES.personAnswered, PersonAnsweredPayloadSchema),
} as const;

/** `{ 'chat.message': ChatMessagePayload, 'turn.started': TurnStartedPayload, … }`. */
export type ConversationEventMap = EventMap<typeof SESSION_EVENTS>;
