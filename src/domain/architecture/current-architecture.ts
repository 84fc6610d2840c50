import type { z } from 'zod';
import { c4DiagramSchema, type C4Diagram } from './c4-diagram-schema.ts';
import type { ArchitectureArtifactType } from './artifact-definitions.ts';
import { currentVersion } from './current-version.ts';
import { moduleContractsSchema, type ModuleContracts } from './module-contracts-schema.ts';
import { moduleMapSchema, type ModuleMap } from './module-map-schema.ts';
import { moduleRoutingSchema, type ModuleRouting } from './module-routing-schema.ts';
import { projectImageSchema, type ProjectImage } from './project-image-schema.ts';
import { StoredArtifactPayloadSchema, artifactTypeOf } from '../artifacts/index.ts';
import type { SessionEvent } from '../conversation/index.ts';

/** One recorded declaration of a versioned artifact. */
export interface ArtifactVersion<Data> {
  version: number;
  data: Data;
  event_id: string;
  session_id: string;
  seq: number;
  created_at: string;
}

/** The current declaration of each Arquiteto artifact of a project, and every version recorded. */
export interface ProjectArchitecture {
  module_map: ArtifactVersion<ModuleMap> | null;
  module_contracts: ArtifactVersion<ModuleContracts> | null;
  module_routing: ArtifactVersion<ModuleRouting> | null;
  c4_diagram: ArtifactVersion<C4Diagram> | null;
  project_image: ArtifactVersion<ProjectImage> | null;
  /** Every readable declaration by type, in recording order (the contracts "by version"). */
  history: Record<ArchitectureArtifactType, Array<Omit<ArtifactVersion<unknown>, 'data'>>>;
}

const SCHEMAS: Record<ArchitectureArtifactType, z.ZodType> = {
  module_map: moduleMapSchema,
  module_contracts: moduleContractsSchema,
  module_routing: moduleRoutingSchema,
  c4_diagram: c4DiagramSchema,
  project_image: projectImageSchema,
};

/** The Arquiteto artifact types, in the order the docs list them. */
export const ARCHITECTURE_TYPES = Object.keys(SCHEMAS) as ArchitectureArtifactType[];

/**
 * Resolves the current version of each artifact from the project's events in recording order: the
 * highest `version`, ties broken by the later event (record ADR 0200), the whole declaration, never merged.
 * A declaration that no longer parses is left out rather than half-read.
 */
export function currentArchitecture(events: readonly SessionEvent[]): ProjectArchitecture {
  const byType = new Map<
    ArchitectureArtifactType,
    Array<ArtifactVersion<unknown> & { order: number }>
  >();
  events.forEach((event, order) => {
    const type = artifactTypeOf(event.type) as ArchitectureArtifactType | null;
    if (type === null || !(type in SCHEMAS)) return;
    const envelope = StoredArtifactPayloadSchema.safeParse(event.payload);
    const data = envelope.success ? SCHEMAS[type].safeParse(envelope.data.data) : null;
    if (data === null || !data.success) return;
    const version = (data.data as { version: number }).version;
    const list = byType.get(type) ?? [];
    list.push({
      version,
      data: data.data,
      event_id: event.id,
      session_id: event.session_id,
      seq: event.seq,
      created_at: event.created_at,
      order,
    });
    byType.set(type, list);
  });
  const current = <Data>(type: ArchitectureArtifactType) => {
    const winner = currentVersion(
      (byType.get(type) ?? []).map((entry) => ({
        seq: entry.order,
        payload: { version: entry.version },
        entry,
      })),
    );
    if (winner === null) return null;
    const { order: _order, ...version } = winner.entry;
    return version as ArtifactVersion<Data>;
  };
  const history = Object.fromEntries(
    ARCHITECTURE_TYPES.map((type) => [
      type,
      (byType.get(type) ?? []).map(({ data: _data, order: _order, ...rest }) => rest),
    ]),
  ) as ProjectArchitecture['history'];
  return {
    module_map: current<ModuleMap>('module_map'),
    module_contracts: current<ModuleContracts>('module_contracts'),
    module_routing: current<ModuleRouting>('module_routing'),
    c4_diagram: current<C4Diagram>('c4_diagram'),
    project_image: current<ProjectImage>('project_image'),
    history,
  };
}
