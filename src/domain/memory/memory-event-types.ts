/**
 * Wire names of the events of the relational memory (record ADR 0101). The record's names where it has them
 * (`session.ended`); the others are chosen here in the same dotted, past-tense grammar:
 * - `hypothesis.proposed` / `.accepted` / `.dismissed` — a Psicólogo hypothesis and the person's answer;
 *   `hypothesis.refused` — one the prohibition refused (categories and paths only, never its text).
 * - `anamnese.profile_recorded` — a competence profile; `anamnese.profile_refused` — one the prohibition
 *   refused (only its competency and the categories are kept, never the refused text).
 * - `rag.feedback` — which `rag_search` hits helped.
 */
export const MEMORY_EVENT_TYPES = {
  sessionEnded: 'session.ended',
  hypothesisProposed: 'hypothesis.proposed',
  hypothesisAccepted: 'hypothesis.accepted',
  hypothesisDismissed: 'hypothesis.dismissed',
  hypothesisRefused: 'hypothesis.refused',
  anamneseProfileRecorded: 'anamnese.profile_recorded',
  anamneseProfileRefused: 'anamnese.profile_refused',
  ragFeedback: 'rag.feedback',
} as const;
