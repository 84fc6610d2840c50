import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { runHostGit } from './host-git.ts';

/** Git on one repository Forja made: `raw` runs a command and returns its output. */
export interface RepositoryGit {
  raw(args: readonly string[]): Promise<string>;
}

/**
 * Git for Forja's own operations on a project repository (`<repository>/.git` is a directory Forja made):
 * pinned to that git directory and work tree, with the configuration and environment of `runHostGit`. The
 * git directory is checked to still be a real directory before each command.
 */
export function gitAt(repository: string): RepositoryGit {
  const gitDir = join(repository, '.git');
  return {
    async raw(args) {
      const info = await lstat(gitDir).catch(() => null);
      if (info === null || !info.isDirectory())
        throw new Error(
          `${gitDir} is not the git directory Forja made (${info === null ? 'missing' : 'not a directory'}); git was not run`,
        );
      return runHostGit({ gitDir, workTree: repository }, args);
    },
  };
}
