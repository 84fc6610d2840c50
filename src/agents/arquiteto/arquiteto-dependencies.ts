import type {
  ArchitectureDocs,
  ProjectWorkspaces,
  TerminalRunner,
  WorktreeFiles,
} from '../../workspace/index.ts';
import type { LineDependencies } from '../line/line-dependencies.ts';

/** The Arquiteto also writes the current version of its artifacts to the project's docs/ folder. */
export interface ArquitetoDependencies extends LineDependencies {
  /** The workspace's docs/ writer (`createArchitectureDocs`, wired in composition.ts). */
  docs: ArchitectureDocs;
  /** Where the checks it writes will run (`renderSandbox`): the settings and the tools found in the sandbox. */
  terminal: Pick<TerminalRunner, 'settings' | 'tools'>;
  /** Read-only looks at `main` in the project's repository (`read_file`, `search_workspace`; ADR 0416). */
  workspaces: Pick<ProjectWorkspaces, 'workspaceDirectory'>;
  files: Pick<WorktreeFiles, 'read' | 'search'>;
}
