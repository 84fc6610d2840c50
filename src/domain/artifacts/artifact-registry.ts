import { InvariantViolationError } from '../errors/invariant-violation-error.ts';
import type { ArtifactDefinition } from './artifact-definition.ts';
import { epicDefinition, storyDefinition, taskDefinition } from './backlog.ts';
import { businessRuleDefinition } from './business-rule.ts';
import { decisionDefinition } from './decision.ts';
import { productBriefDefinition } from './product-brief.ts';

/** Registry from artifact type to its definition ("ArtifactSchemas" in the records). */
export type ArtifactRegistry = {
  /** Every registered type, in registration order. */
  readonly types: readonly string[];
  /** Types `emit_artifact` accepts: every type that is not system-only. */
  readonly emittableTypes: readonly string[];
  get(type: string): ArtifactDefinition | undefined;
};

/** The artifacts of the Criativo → PO flow (record ADR 0008). */
export const CORE_ARTIFACT_DEFINITIONS: readonly ArtifactDefinition[] = [
  businessRuleDefinition,
  productBriefDefinition,
  epicDefinition,
  storyDefinition,
  taskDefinition,
  decisionDefinition,
];

const ARTIFACT_TYPE_PATTERN = /^[a-z][a-z0-9_]*$/;

/**
 * Builds a registry. This is the extension point: the lead passes
 * `[...CORE_ARTIFACT_DEFINITIONS, ...architectureDefinitions]`.
 * Throws on a malformed or repeated type: that is a wiring bug found at startup, not an input to refuse.
 */
export function createArtifactRegistry(
  definitions: readonly ArtifactDefinition[],
): ArtifactRegistry {
  const byType = new Map<string, ArtifactDefinition>();
  for (const definition of definitions) {
    if (!ARTIFACT_TYPE_PATTERN.test(definition.type)) {
      throw new InvariantViolationError(
        'artifact_type',
        `"${definition.type}" must match ${ARTIFACT_TYPE_PATTERN.source}`,
      );
    }
    if (byType.has(definition.type)) {
      throw new InvariantViolationError(
        'artifact_type',
        `"${definition.type}" is registered twice`,
      );
    }
    byType.set(definition.type, definition);
  }
  const types = [...byType.keys()];
  return {
    types,
    emittableTypes: types.filter((type) => byType.get(type)?.systemOnly === false),
    get: (type) => byType.get(type),
  };
}

/** The registry of the core artifacts only. */
export const defaultArtifactRegistry: ArtifactRegistry =
  createArtifactRegistry(CORE_ARTIFACT_DEFINITIONS);
