export {
  ALLOWED_TECHNICAL_PHRASES,
  FORBIDDEN_FIELD_TERMS,
  FORBIDDEN_TEXT_TERMS,
  PROHIBITED_CATEGORIES,
} from './anamnese-forbidden-terms.ts';
export type { ProhibitedCategory } from './anamnese-forbidden-terms.ts';
export { checkAnamneseProfile } from './check-anamnese-profile.ts';
export type { AnamneseProfileCheck, AnamneseViolation } from './check-anamnese-profile.ts';
export {
  MAX_ANAMNESE_QUERY_COMPETENCIES,
  PSYCHOLOGIST_RAG_QUERIES,
  competencyKey,
  ragQueryForAnamnese,
  ragQueryForPsychologist,
} from './rag-queries.ts';
export { BLOCKING_TOOLS, SESSION_END_REASONS, classifySessionEnd } from './session-end-reason.ts';
export type { SessionEndReason } from './session-end-reason.ts';
export {
  FRAGMENTS_HEADING,
  RECENT_EVENTS_HEADING,
  composeTriageWindow,
  renderRecentWindow,
} from './triage-window.ts';
export type {
  TriageFragment,
  TriageLimits,
  TriageWindow,
  TriageWindowInput,
} from './triage-window.ts';
export { TRUNCATION_MARKER, truncateText } from './truncate-text.ts';
export { detectTextLanguage, type TextLanguage } from './detect-text-language.ts';
export { fuseRankedLists, RRF_CONSTANT } from './fuse-ranked-lists.ts';
export { competencyVocabulary, matchCompetency } from './competency-vocabulary.ts';
export { MEMORY_EVENTS, type MemoryEventMap } from './memory-events.ts';
export { MEMORY_EVENT_TYPES } from './memory-event-types.ts';
export {
  AnamneseProfileRecordedPayloadSchema,
  AnamneseProfileRefusedPayloadSchema,
  COMPETENCE_LEVELS,
  HypothesisAnsweredPayloadSchema,
  HypothesisProposedPayloadSchema,
  HypothesisRefusedPayloadSchema,
  RagFeedbackPayloadSchema,
  SessionEndedPayloadSchema,
  type AnamneseProfileRecordedPayload,
  type HypothesisProposedPayload,
} from './memory-event-payloads.ts';
export { instructionTemplateName, TEMPLATE_NAMES } from './template-names.ts';
