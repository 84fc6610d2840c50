import type { ArtifactDefinition } from './artifact-definition.ts';
import { formatIssues } from './format-issues.ts';

/** Outcome of checking an artifact's `data` against its type's schema. */
export type ArtifactDataValidation =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly reason: string };

/**
 * Parses `data` with the definition's schema. On success `data` is the parsed value (trimmed strings,
 * defaults filled in), which is what gets stored; on failure the reason names every failing path under `data`.
 */
export function validateArtifactData(
  definition: ArtifactDefinition,
  data: unknown,
): ArtifactDataValidation {
  const parsed = definition.schema.safeParse(data);
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, reason: `${definition.type} ${formatIssues('data', parsed.error.issues)}` };
}
