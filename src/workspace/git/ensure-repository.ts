import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { INTEGRATION_BRANCH, MAIN_BRANCH } from '../workspace-layout.ts';
import { gitAt } from './git-at.ts';
import { runHostGit } from './host-git.ts';

/**
 * Makes `directory` the project's repository if it is not one yet: `main` with a first commit, and the
 * integration branch `dev` at the same commit. Each step checks before it acts, so a creation interrupted
 * half-way is finished by the next call instead of failing forever.
 */
export async function ensureRepository(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true });
  if (!existsSync(join(directory, '.git')))
    await runHostGit({ gitDir: join(directory, '.git'), workTree: directory }, [
      'init',
      '--quiet',
      `--initial-branch=${MAIN_BRANCH}`,
    ]);
  const git = gitAt(directory);
  if (!(await hasBranch(directory, MAIN_BRANCH))) {
    await git.raw(['commit', '--quiet', '--allow-empty', '-m', 'Forja: the project workspace']);
  }
  if (!(await hasBranch(directory, INTEGRATION_BRANCH)))
    await git.raw(['branch', INTEGRATION_BRANCH, MAIN_BRANCH]);
}

/** Whether the repository at `directory` has a local branch `branch` with a commit. */
export async function hasBranch(directory: string, branch: string): Promise<boolean> {
  // `--verify --quiet` prints the commit when there is one and nothing otherwise (its exit code is not kept).
  const found = await gitAt(directory)
    .raw(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`])
    .catch(() => '');
  return found.trim() !== '';
}
