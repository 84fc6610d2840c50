import type {
  ArchitectureArtifactType,
  ProjectArchitecture,
} from '../../domain/architecture/index.ts';
import type { ProjectWorkspaces } from '../project-workspaces.ts';
import { ARCHITECTURE_DOC_PATHS, architectureDocFiles } from './architecture-doc-files.ts';

/**
 * Rewrites docs/ on `main` from the project's architecture (read from the log by the caller): the current
 * version of every Arquiteto artifact, one file each, committed when something changed. Idempotent, so it can
 * run whenever docs/ must be known to match the log.
 */
export async function syncArchitectureDocs(
  workspaces: ProjectWorkspaces,
  projectId: string,
  architecture: ProjectArchitecture,
): Promise<string | null> {
  const files = architectureDocFiles(architecture);
  const versions = (Object.keys(ARCHITECTURE_DOC_PATHS) as ArchitectureArtifactType[])
    .flatMap((type) =>
      architecture[type] === null ? [] : [`${type} v${architecture[type]!.version}`],
    )
    .join(', ');
  if (files.length === 0) return null;
  return workspaces.commitToMain(projectId, files, `docs: current architecture (${versions})`);
}
