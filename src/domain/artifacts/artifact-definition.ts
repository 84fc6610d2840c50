import type { z } from 'zod';

/**
 * What the registry knows about one artifact type. The lead registers more of these (the architecture
 * artifacts `module_map`, `module_contracts`, `project_image`, `module_routing`, `c4_diagram`) by passing
 * them to `createArtifactRegistry` beside `CORE_ARTIFACT_DEFINITIONS`.
 */
export type ArtifactDefinition = {
  /** Wire name; the event type is `artifact.<type>`. Lowercase snake_case. */
  readonly type: string;
  /** Schema of the artifact's `data`; refusals name the failing path and the rule from its messages. */
  readonly schema: z.ZodType;
  /** True when only the system may produce it: `emit_artifact` refuses it whatever the model says. */
  readonly systemOnly: boolean;
  /** Told to the model when it tries a system-only type, so it learns the right path instead of retrying. */
  readonly systemOnlyReason?: string;
  /** True when `data.version` orders declarations and the highest is current (record ADR 0200). Metadata only here. */
  readonly versioned: boolean;
  /** True when the artifact must cite, in `origin`, the conversation events it came from; absent means false. */
  readonly originRequired?: boolean;
};
