import type {
  ArchitectureArtifactType,
  ProjectArchitecture,
} from '../../domain/architecture/index.ts';
import type { RepositoryFile } from '../git/commit-files.ts';
import { renderC4DiagramDoc } from './render-c4-diagram-doc.ts';
import { renderModuleContractsDoc } from './render-module-contracts-doc.ts';
import { renderModuleMapDoc } from './render-module-map-doc.ts';
import { renderModuleRoutingDoc } from './render-module-routing-doc.ts';
import { renderProjectImageDoc } from './render-project-image-doc.ts';

/** Where the current version of each versioned artifact lives in the project's repository. */
export const ARCHITECTURE_DOC_PATHS: Readonly<Record<ArchitectureArtifactType, string>> = {
  project_image: 'docs/project-image.md',
  module_map: 'docs/module-map.md',
  module_routing: 'docs/module-routing.md',
  c4_diagram: 'docs/c4-diagram.md',
  module_contracts: 'docs/module-contracts.md',
};

/** The docs/ file of one declaration. */
export function architectureDocFile(type: ArchitectureArtifactType, data: unknown): RepositoryFile {
  return { path: ARCHITECTURE_DOC_PATHS[type], content: renderers[type](data as never) };
}

/** The docs/ files of every artifact the project has a current version of. */
export function architectureDocFiles(architecture: ProjectArchitecture): RepositoryFile[] {
  return (Object.keys(ARCHITECTURE_DOC_PATHS) as ArchitectureArtifactType[]).flatMap((type) => {
    const current = architecture[type];
    return current === null ? [] : [architectureDocFile(type, current.data)];
  });
}

const renderers: { [Type in ArchitectureArtifactType]: (data: never) => string } = {
  project_image: renderProjectImageDoc,
  module_map: renderModuleMapDoc,
  module_routing: renderModuleRoutingDoc,
  c4_diagram: renderC4DiagramDoc,
  module_contracts: renderModuleContractsDoc,
};
