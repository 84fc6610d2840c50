export { USER_STARTED_AGENTS, canActivate } from './agent-activation.ts';
export type { ActivationDecision } from './agent-activation.ts';
export {
  AGENT_SLUG_PATTERN,
  AgentSlugSchema,
  HANDOFF_STATUSES,
  TERMINAL_HANDOFF_STATUSES,
} from './handoff.ts';
export type { Handoff, HandoffStatus } from './handoff.ts';
export {
  HANDOFF_PAYLOAD_VERSION,
  HandoffPayloadSchema,
  handoffEvent,
  handoffEventType,
  handoffFromEvent,
} from './handoff-event.ts';
export type { HandoffPayload } from './handoff-event.ts';
export { offerHandoff } from './offer-handoff.ts';
export type { HandoffOffer, HandoffOffered } from './offer-handoff.ts';
export { MAX_REJECTION_REASON_CHARACTERS, transitionHandoff } from './transition-handoff.ts';
export type { HandoffCommand, HandoffTransition } from './transition-handoff.ts';
export { rejectionsOf, rejectionTurnsOwed, standingRejections } from './rejected-handoffs.ts';
export type { StandingRejection } from './rejected-handoffs.ts';
