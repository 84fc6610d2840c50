import { z } from 'zod';
import type { ArtifactDefinition } from './artifact-definition.ts';
import { requiredText } from './artifact-text.ts';

/** Wire name of the business rule artifact (`artifact.business_rule`). */
export const BUSINESS_RULE_TYPE = 'business_rule';

/** A rule Criativo heard in the conversation: `{ title, statement }` (record ADR 0008). */
export const BusinessRuleSchema = z.strictObject({
  title: requiredText(160),
  statement: requiredText(2000),
});

export type BusinessRule = z.infer<typeof BusinessRuleSchema>;

/** Emitted by the model through `emit_artifact`; must cite its `origin` in the conversation. */
export const businessRuleDefinition: ArtifactDefinition = {
  type: BUSINESS_RULE_TYPE,
  schema: BusinessRuleSchema,
  systemOnly: false,
  versioned: false,
  originRequired: true,
};
