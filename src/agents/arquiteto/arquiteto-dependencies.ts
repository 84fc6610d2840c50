import type { ProjectWorkspaces } from '../../workspace/index.ts';
import type { LineDependencies } from '../po/line-dependencies.ts';

/** The Arquiteto also writes the current version of its artifacts to the project's docs/ folder. */
export interface ArquitetoDependencies extends LineDependencies {
  workspaces: ProjectWorkspaces;
}
