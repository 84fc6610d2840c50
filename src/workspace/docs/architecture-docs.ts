import type {
  ArchitectureArtifactType,
  ProjectArchitecture,
} from '../../domain/architecture/index.ts';
import type { ProjectWorkspaces } from '../project-workspaces.ts';
import { architectureDocFile } from './architecture-doc-files.ts';
import { syncArchitectureDocs } from './sync-architecture-docs.ts';

/** The project's docs/ writer, as the Arquiteto is given it (composition.ts wires it; ADR 0235). */
export interface ArchitectureDocs {
  /**
   * Commits one declaration's docs/ file on `main`: its path, and why it could not be written (null when it
   * was). Never rejects: the log, not docs/, is the record.
   */
  commit(
    projectId: string,
    type: ArchitectureArtifactType,
    data: { version: number },
  ): Promise<{ path: string; error: string | null }>;
  /** Rewrites docs/ on `main` from the architecture (`syncArchitectureDocs`): the commit, or null. */
  sync(projectId: string, architecture: ProjectArchitecture): Promise<string | null>;
}

export function createArchitectureDocs(workspaces: ProjectWorkspaces): ArchitectureDocs {
  return {
    commit: async (projectId, type, data) => {
      const file = architectureDocFile(type, data);
      try {
        await workspaces.commitToMain(projectId, [file], `docs: ${type} version ${data.version}`);
        return { path: file.path, error: null };
      } catch (error) {
        return { path: file.path, error: error instanceof Error ? error.message : String(error) };
      }
    },
    sync: (projectId, architecture) => syncArchitectureDocs(workspaces, projectId, architecture),
  };
}
