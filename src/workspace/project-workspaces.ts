import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { commitFiles, type RepositoryFile } from './git/commit-files.ts';
import { commitWorktree, type WorktreeCommit } from './git/commit-worktree.ts';
import { ensureRepository } from './git/ensure-repository.ts';
import { ensureWorktree } from './git/ensure-worktree.ts';
import { createKeyedLock } from './git/keyed-lock.ts';
import { moduleBranch, workspaceDirectory, worktreeDirectory } from './workspace-layout.ts';

/** Where a module works: its worktree directory and its branch. */
export interface ModuleWorktree {
  directory: string;
  branch: string;
}

/** Each project's git repository on disk and its modules' worktrees, created on first use. */
export interface ProjectWorkspaces {
  workspaceDirectory(projectId: string): string;
  /** The repository with `main` and `dev`, created when missing; returns its directory. */
  ensureWorkspace(projectId: string): Promise<string>;
  /** The module's worktree on `dev-<module>`, created from `dev` when missing. */
  ensureWorktree(projectId: string, module: string): Promise<ModuleWorktree>;
  /** Writes files on `main` (the same file overwritten) and commits what changed; null when nothing did. */
  commitToMain(
    projectId: string,
    files: readonly RepositoryFile[],
    message: string,
  ): Promise<string | null>;
  /** Commits every change of the module's worktree on its branch. */
  commitModule(projectId: string, module: string, message: string): Promise<WorktreeCommit>;
}

/**
 * The project workspaces under `<dataDirectory>/projects/<projectId>/`. Git operations of one project run
 * one at a time in this process (they share the repository's object store and refs).
 */
export function createProjectWorkspaces(options: { dataDirectory: string }): ProjectWorkspaces {
  const lock = createKeyedLock();
  const repository = (projectId: string) => workspaceDirectory(options.dataDirectory, projectId);
  const ensure = async (projectId: string) => {
    await ensureRepository(repository(projectId));
    return repository(projectId);
  };
  const worktreeOf = (projectId: string, module: string): ModuleWorktree => ({
    directory: worktreeDirectory(options.dataDirectory, projectId, module),
    branch: moduleBranch(module),
  });
  return {
    workspaceDirectory: repository,
    ensureWorkspace: (projectId) => lock.run(projectId, () => ensure(projectId)),
    ensureWorktree: (projectId, module) => {
      // A worktree that exists needs no git at all: dev lanes running side by side ask for theirs on every model
      // call, and must not queue behind one another on the project's lock for nothing.
      const existing = worktreeOf(projectId, module);
      if (existsSync(join(existing.directory, '.git'))) return Promise.resolve(existing);
      return lock.run(projectId, async () => {
        const worktree = worktreeOf(projectId, module);
        await ensureWorktree(await ensure(projectId), worktree.directory, worktree.branch);
        return worktree;
      });
    },
    commitToMain: (projectId, files, message) =>
      lock.run(projectId, async () => commitFiles(await ensure(projectId), files, message)),
    commitModule: (projectId, module, message) =>
      lock.run(projectId, async () => {
        const worktree = worktreeOf(projectId, module);
        await ensureWorktree(await ensure(projectId), worktree.directory, worktree.branch);
        return commitWorktree(repository(projectId), worktree.directory, worktree.branch, message);
      }),
  };
}
