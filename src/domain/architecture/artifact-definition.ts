import type { z } from 'zod';

/**
 * What the artifact registry (`../artifacts`, `ArtifactDefinition`) needs to accept one Arquiteto artifact as
 * `artifact.<type>` events: the schema of its data, that a model may emit it (never system-only), that it is
 * versioned by `version` in its data (the current one is resolved by `currentVersion`), and that it cites no
 * conversation (`originRequired: false`: it comes from the Arquiteto's declare tools, not from the chat).
 */
export type VersionedArtifactDefinition<Type extends string, Schema extends z.ZodType> = {
  readonly type: Type;
  readonly schema: Schema;
  readonly systemOnly: false;
  readonly versioned: true;
  readonly originRequired: false;
};

/** Declares a model-emitted, versioned artifact. */
export function versionedArtifact<Type extends string, Schema extends z.ZodType>(
  type: Type,
  schema: Schema,
): VersionedArtifactDefinition<Type, Schema> {
  return { type, schema, systemOnly: false, versioned: true, originRequired: false };
}
