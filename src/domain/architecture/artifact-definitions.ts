import { c4DiagramArtifact } from './c4-diagram-schema.ts';
import { moduleContractsArtifact } from './module-contracts-schema.ts';
import { moduleMapArtifact } from './module-map-schema.ts';
import { moduleRoutingArtifact } from './module-routing-schema.ts';
import { projectImageArtifact } from './project-image-schema.ts';

/**
 * The five Arquiteto artifacts for the artifact registry, each a model-emitted, versioned `artifact.<type>`
 * event (record ADR 0200: "module_map, project_image, module_routing, c4_diagram" plus `module_contracts`). Their
 * current versions are what the project's `docs/` folder mirrors.
 */
export const architectureArtifacts = [
  moduleMapArtifact,
  projectImageArtifact,
  moduleRoutingArtifact,
  c4DiagramArtifact,
  moduleContractsArtifact,
] as const;

export type ArchitectureArtifactType = (typeof architectureArtifacts)[number]['type'];
