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
  const existing = await existingBranches(directory, [MAIN_BRANCH, INTEGRATION_BRANCH]);
  if (!existing.has(MAIN_BRANCH)) {
    await git.raw(['commit', '--quiet', '--allow-empty', '-m', 'Forja: the project workspace']);
  }
  if (!existing.has(INTEGRATION_BRANCH)) await git.raw(['branch', INTEGRATION_BRANCH, MAIN_BRANCH]);
}

/**
 * Which of `branches` the repository at `directory` has as local branches at a commit: one `for-each-ref`
 * for all of them (a pattern matches a ref's whole path components, so `dev` never matches `dev-x`).
 */
export async function existingBranches(
  directory: string,
  branches: readonly string[],
): Promise<Set<string>> {
  const listing = await gitAt(directory).raw([
    'for-each-ref',
    '--format=%(objecttype) %(refname)',
    ...branches.map((branch) => `refs/heads/${branch}`),
  ]);
  const wanted = new Set(branches.map((branch) => `refs/heads/${branch}`));
  return new Set(
    listing
      .split('\n')
      .filter((line) => line.startsWith('commit ') && wanted.has(line.slice('commit '.length)))
      .map((line) => line.slice('commit refs/heads/'.length)),
  );
}

/** Whether the repository at `directory` has a local branch `branch` with a commit. */
export async function hasBranch(directory: string, branch: string): Promise<boolean> {
  // A repository git cannot read has no branch (the caller's next git says why).
  return (await existingBranches(directory, [branch]).catch(() => new Set<string>())).has(branch);
}
