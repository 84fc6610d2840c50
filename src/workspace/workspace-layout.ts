import { join } from 'node:path';
import { MODULE_NAME_PATTERN } from '../domain/architecture/index.ts';
import { InvariantViolationError } from '../domain/errors/index.ts';

/** The branch people and the integration read; docs/ is committed here. */
export const MAIN_BRANCH = 'main';

/** The integration branch every module branch starts from. */
export const INTEGRATION_BRANCH = 'dev';

const PROJECT_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A module's branch: `dev-<module>`. Not `dev/<module>`: git stores `refs/heads/dev` as a file, so a ref
 * `refs/heads/dev/<module>` cannot exist beside the integration branch `dev`.
 */
export function moduleBranch(module: string): string {
  return `dev-${checkedModule(module)}`;
}

/** `<data>/projects/<projectId>`: everything of one project on disk. */
export function projectDirectory(dataDirectory: string, projectId: string): string {
  if (!PROJECT_ID_PATTERN.test(projectId))
    throw new InvariantViolationError('project_id', `"${projectId}" is not a project id (uuid)`);
  return join(dataDirectory, 'projects', projectId);
}

/** The project's git repository (branch `main` checked out): the harness reads its AGENTS.md files. */
export function workspaceDirectory(dataDirectory: string, projectId: string): string {
  return join(projectDirectory(dataDirectory, projectId), 'workspace');
}

/** The scratch worktree where merges into `dev` are made and checked before `dev` moves. */
export function integrationDirectory(dataDirectory: string, projectId: string): string {
  return join(projectDirectory(dataDirectory, projectId), 'integration');
}

/** A dev agent's worktree, outside the workspace so no module's files are read as instruction files. */
export function worktreeDirectory(
  dataDirectory: string,
  projectId: string,
  module: string,
): string {
  return join(projectDirectory(dataDirectory, projectId), 'worktrees', checkedModule(module));
}

function checkedModule(module: string): string {
  // Module names become paths and refs; the map's own rule already keeps them to [a-z0-9-_].
  if (!MODULE_NAME_PATTERN.test(module))
    throw new InvariantViolationError(
      'module_name',
      `"${module}" is not a module name (${MODULE_NAME_PATTERN.source})`,
    );
  return module;
}
