import { z } from 'zod';
import { PROHIBITED_CATEGORIES } from './anamnese-forbidden-terms.ts';
import { SESSION_END_REASONS } from './session-end-reason.ts';

/**
 * Version 1 payloads of the memory events (names in `memory-event-types.ts`). Every payload carries `v`;
 * objects are not strict, so an added optional field is not a new version.
 */
const v1 = z.literal(1);
/** Evidence is a list of seqs of events in the same session as the event that cites them. */
const Evidence = z.array(z.number().int().positive()).min(1, 'must cite at least one event');

/** `session.ended` — the session is over, with the reason `classifySessionEnd` gave. */
export const SessionEndedPayloadSchema = z.object({ v: v1, reason: z.enum(SESSION_END_REASONS) });

/** `hypothesis.proposed` — a Psicólogo hypothesis about how the person works, always with evidence. */
export const HypothesisProposedPayloadSchema = z.object({
  v: v1,
  hypothesis_id: z.string().min(1),
  /** What about the way the person works (`ritmo`, `decisoes`, `bloqueios`); absent in early events. */
  aspect: z.enum(['ritmo', 'decisoes', 'bloqueios']).optional(),
  statement: z.string().min(1).max(600),
  evidence: Evidence,
  trigger: z.object({ kind: z.literal('session.ended'), reason: z.enum(SESSION_END_REASONS) }),
  rag: z.object({ degraded: z.boolean(), reason: z.string().optional() }),
});

/** `hypothesis.accepted` / `hypothesis.dismissed` — the person's answer. */
export const HypothesisAnsweredPayloadSchema = z.object({
  v: v1,
  hypothesis_id: z.string().min(1),
});

export const COMPETENCE_LEVELS = [
  'iniciante',
  'intermediario',
  'avancado',
  'especialista',
] as const;

/**
 * `anamnese.profile_recorded` — a competence profile that passed `checkAnamneseProfile`. Version 2 is closed
 * (competency, level, evidence: no text about the person); version 1 also had a free-text `summary`, read as
 * it was written and never produced again.
 */
export const AnamneseProfileRecordedPayloadSchema = z.discriminatedUnion('v', [
  z.object({
    v: v1,
    profile_id: z.string().min(1),
    competency: z.string().min(1).max(80),
    level: z.enum(COMPETENCE_LEVELS),
    summary: z.string().min(1).max(600),
    evidence: Evidence,
  }),
  z.strictObject({
    v: z.literal(2),
    profile_id: z.string().min(1),
    competency: z.string().min(1).max(80),
    level: z.enum(COMPETENCE_LEVELS),
    evidence: Evidence,
  }),
]);

/** `anamnese.profile_refused` — what was refused and why, without the refused text. */
export const AnamneseProfileRefusedPayloadSchema = z.object({
  v: v1,
  competency: z.string(),
  categories: z.array(z.enum(PROHIBITED_CATEGORIES)),
  paths: z.array(z.string()),
});

/** `hypothesis.refused` — a hypothesis the prohibition refused: what and where, without the refused text. */
export const HypothesisRefusedPayloadSchema = z.object({
  v: v1,
  categories: z.array(z.enum(PROHIBITED_CATEGORIES)),
  paths: z.array(z.string()),
});

/** `rag.feedback` — which `rag_search` hits (chunk ids) helped and which did not. */
export const RagFeedbackPayloadSchema = z.object({
  v: v1,
  query: z.string().min(1),
  helpful: z.array(z.string().min(1)),
  not_helpful: z.array(z.string().min(1)),
});

export type HypothesisProposedPayload = z.infer<typeof HypothesisProposedPayloadSchema>;
export type AnamneseProfileRecordedPayload = z.infer<typeof AnamneseProfileRecordedPayloadSchema>;
