import { z } from 'zod';
import type { ArtifactDefinition } from './artifact-definition.ts';
import { requiredText, textList } from './artifact-text.ts';

/** Wire name of the product brief artifact (`artifact.product_brief`). */
export const PRODUCT_BRIEF_TYPE = 'product_brief';

/**
 * The consolidation of an ideation session, handed to the PO. Shape chosen here (the records name the
 * artifact, not its fields): what the PO needs to write a backlog without rereading the chat.
 * `business_rule_refs` are event ids of `artifact.business_rule` events of the same session, so the brief
 * points at the rules instead of copying them (the rules stay the source of truth).
 * `version` is the brief's version in its session, set by the system (never by the model): 1 for the first
 * brief and for briefs from before versions, one more each time readiness is confirmed again after the PO's
 * handoff was rejected. The current brief is the highest version (ADR 0160), like the Arquiteto's artifacts.
 */
export const ProductBriefSchema = z.strictObject({
  version: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(1),
  title: requiredText(160),
  summary: requiredText(2000),
  problem: requiredText(2000),
  audience: requiredText(1000),
  goals: textList({ minItems: 1, maxItems: 20, maxCharacters: 500 }),
  business_rule_refs: z
    .array(requiredText(64), { error: 'must be a list of business rule event ids' })
    .max(200, 'must have at most 200 items')
    .default([]),
  out_of_scope: textList({ maxItems: 20, maxCharacters: 500 }).default([]),
  open_questions: textList({ maxItems: 20, maxCharacters: 500 }).default([]),
});

export type ProductBrief = z.infer<typeof ProductBriefSchema>;

/** System-only: produced by the consolidation turn after the person confirms readiness, never by the model's tool. */
export const productBriefDefinition: ArtifactDefinition = {
  type: PRODUCT_BRIEF_TYPE,
  schema: ProductBriefSchema,
  systemOnly: true,
  systemOnlyReason:
    'it is produced by the server only after the person presses "Estou pronto para produzir" (readiness); ' +
    'keep recording business rules and tell the person they can confirm readiness when the idea is complete',
  versioned: true,
  originRequired: false,
};
