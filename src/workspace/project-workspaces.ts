import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { commitFiles, type RepositoryFile } from './git/commit-files.ts';
import { commitWorktree, type WorktreeCommit } from './git/commit-worktree.ts';
import { DEFAULT_SANDBOX_LIMITS } from '../domain/terminal/index.ts';
import { gitAt } from './git/git-at.ts';
import { ensureRepository, hasBranch } from './git/ensure-repository.ts';
import { ensureWorktree } from './git/ensure-worktree.ts';
import {
  integrateModule,
  integrateModules,
  type IntegrationCheck,
  type ModuleIntegration,
  type ModulesIntegration,
} from './git/integrate-module.ts';
import { createKeyedQueue } from '../lib/keyed-queue.ts';
import { mergeIntoMain, type MainMerge } from './git/merge-into-main.ts';
import {
  mergeIntegrationIntoWorktree,
  type WorktreeUpdate,
} from './git/merge-integration-into-worktree.ts';
import { instructionFilesOf, type CommittedInstructionFiles } from './git/instruction-files-of.ts';
import { syncIntegrationWithMain } from './git/sync-integration.ts';
import {
  INTEGRATION_BRANCH,
  integrationDirectory,
  moduleBranch,
  workspaceDirectory,
  worktreeDirectory,
} from './workspace-layout.ts';

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
  /**
   * The module's worktree on `dev-<module>`, created when missing from `dev` as it is then, after `dev` took
   * `main`'s docs/ (`syncIntegrationWithMain`).
   */
  ensureWorktree(projectId: string, module: string): Promise<ModuleWorktree>;
  /** Writes files on `main` (the same file overwritten) and commits what changed; null when nothing did. */
  commitToMain(
    projectId: string,
    files: readonly RepositoryFile[],
    message: string,
  ): Promise<string | null>;
  /** Commits every change of the module's worktree on its branch. */
  commitModule(projectId: string, module: string, message: string): Promise<WorktreeCommit>;
  /**
   * Merges the module's branch into `dev` in the integration scratch worktree, runs `check` there and moves
   * `dev` only when it passed (`integrateModule`). Under the project's git lock: two modules finishing at once
   * merge one after the other, each onto the `dev` the other left.
   */
  mergeModule<R>(
    projectId: string,
    module: string,
    check: (scratch: string) => Promise<IntegrationCheck<R>>,
  ): Promise<ModuleIntegration<R>>;
  /**
   * `mergeModule` of several modules at once, in the order given (`integrateModules`, ADR 0428): `check` runs
   * once on the last merge, and `dev` moves only when all went in and it passed; otherwise nothing moved.
   */
  mergeModules<R>(
    projectId: string,
    modules: readonly string[],
    check: (scratch: string) => Promise<IntegrationCheck<R>>,
  ): Promise<ModulesIntegration<R>>;
  /**
   * Merges `dev` into the module's branch in its worktree (`mergeIntegrationIntoWorktree`), under the lock;
   * null when the module has no worktree yet (it will start from `dev`). With `takeMain`, `dev` first takes
   * `main` (`syncIntegrationWithMain`) as it does before a new worktree: a worktree an earlier session's line
   * left gets what `main` has now (ADR 0416).
   */
  updateModuleFromIntegration(
    projectId: string,
    module: string,
    message: string,
    options?: { takeMain?: boolean },
  ): Promise<WorktreeUpdate | null>;
  /** Merges `commit` into `main` with a merge commit, under the project's git lock (`mergeIntoMain`). */
  mergeIntoMain(projectId: string, commit: string, message: string): Promise<MainMerge>;
  /**
   * The instruction files `commit` adds or changes against where it meets `base` (`main` unless told;
   * `instructionFilesOf`), under the lock.
   */
  instructionFilesOf(
    projectId: string,
    commit: string,
    maxBytes: number,
    base?: string,
  ): Promise<CommittedInstructionFiles>;
  /** The commit `dev` is at. */
  integrationHead(projectId: string): Promise<string>;
}

/**
 * The project workspaces under `<dataDirectory>/projects/<projectId>/`. Git operations of one project run
 * one at a time in this process (they share the repository's object store, refs and the integration
 * scratch worktree): commits, worktree creation, merges into `dev` with their integration check, and the
 * merge into `main` all take the project's lock.
 */
export function createProjectWorkspaces(options: {
  dataDirectory: string;
  /** The most one commit of a worktree may add, in bytes (`FORJA_COMMIT_MAX_MB`); 512 MiB unless given. */
  commitMaxBytes?: number;
}): ProjectWorkspaces {
  const lock = createKeyedQueue();
  const repository = (projectId: string) => workspaceDirectory(options.dataDirectory, projectId);
  // A repository this process made or found whole keeps main and dev: nothing but Forja's own git reaches its
  // git directory (no sandbox mounts it), and Forja never deletes them. So it is asked of git once per process;
  // a git directory gone since (removed by hand) is made again.
  const ensured = new Set<string>();
  const ensure = async (projectId: string) => {
    const directory = repository(projectId);
    if (ensured.has(directory) && existsSync(join(directory, '.git'))) return directory;
    await ensureRepository(directory);
    ensured.add(directory);
    return directory;
  };
  const worktreeOf = (projectId: string, module: string): ModuleWorktree => ({
    directory: worktreeDirectory(options.dataDirectory, projectId, module),
    branch: moduleBranch(module),
  });
  const scratchOf = (projectId: string) => integrationDirectory(options.dataDirectory, projectId);
  // Called holding the lock. A new branch starts from dev as it is now, once dev holds main's docs/ (a
  // conflict there leaves dev as it was: the worktree is made all the same, and the merge into main shows it).
  const makeWorktree = async (projectId: string, worktree: ModuleWorktree) => {
    // A worktree that exists is used as it is (`ensureWorktree` would do nothing): no git needed to know it.
    if (existsSync(join(worktree.directory, '.git'))) return;
    const directory = await ensure(projectId);
    const branchExists = await hasBranch(directory, worktree.branch);
    if (!branchExists) await syncIntegrationWithMain(directory, scratchOf(projectId));
    await ensureWorktree(directory, worktree.directory, worktree.branch, branchExists);
  };
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
        await makeWorktree(projectId, worktree);
        return worktree;
      });
    },
    commitToMain: (projectId, files, message) =>
      lock.run(projectId, async () => commitFiles(await ensure(projectId), files, message)),
    commitModule: (projectId, module, message) =>
      lock.run(projectId, async () => {
        const worktree = worktreeOf(projectId, module);
        await makeWorktree(projectId, worktree);
        return commitWorktree(
          repository(projectId),
          worktree.directory,
          worktree.branch,
          message,
          options.commitMaxBytes ?? DEFAULT_SANDBOX_LIMITS.commitBytes,
        );
      }),
    mergeModule: (projectId, module, check) =>
      lock.run(projectId, async () =>
        integrateModule(
          await ensure(projectId),
          scratchOf(projectId),
          moduleBranch(module),
          `Merge ${moduleBranch(module)} into ${INTEGRATION_BRANCH}`,
          check,
        ),
      ),
    mergeModules: (projectId, modules, check) =>
      lock.run(projectId, async () =>
        integrateModules(
          await ensure(projectId),
          scratchOf(projectId),
          modules.map((module) => ({
            branch: moduleBranch(module),
            message: `Merge ${moduleBranch(module)} into ${INTEGRATION_BRANCH}`,
          })),
          check,
        ),
      ),
    updateModuleFromIntegration: (projectId, module, message, updateOptions = {}) =>
      lock.run(projectId, async () => {
        const worktree = worktreeOf(projectId, module);
        if (!existsSync(join(worktree.directory, '.git'))) return null;
        // A conflict there leaves dev as it was, as before a new worktree: dev is merged all the same.
        if (updateOptions.takeMain === true)
          await syncIntegrationWithMain(repository(projectId), scratchOf(projectId));
        return mergeIntegrationIntoWorktree(
          repository(projectId),
          worktree.directory,
          worktree.branch,
          INTEGRATION_BRANCH,
          message,
        );
      }),
    mergeIntoMain: (projectId, commit, message) =>
      lock.run(projectId, async () => mergeIntoMain(await ensure(projectId), commit, message)),
    instructionFilesOf: (projectId, commit, maxBytes, base) =>
      lock.run(projectId, async () =>
        instructionFilesOf(await ensure(projectId), commit, maxBytes, base),
      ),
    integrationHead: (projectId) =>
      lock.run(projectId, async () =>
        (
          await gitAt(await ensure(projectId)).raw([
            'rev-parse',
            `refs/heads/${INTEGRATION_BRANCH}`,
          ])
        ).trim(),
      ),
  };
}
