import { closeSync, readSync } from 'node:fs';
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { openInsideSync } from '../files/beneath.ts';

/** A module worktree's git directory inside the main repository, or why its link cannot be trusted. */
export type WorktreeLink =
  | { ok: true; gitDir: string; commonGitDir: string }
  | { ok: false; reason: string };

const RULE = 'refused by the rule "host git never trusts the worktree"';

/**
 * Finds the git directory Forja registered for `worktree` in the main repository (whose `worktrees/*\/gitdir`
 * files no sandbox can reach) and checks that the worktree's own `.git` — which its commands could touch — is
 * still the plain file `gitdir: <that directory>` git wrote. Forja never runs git through that file; a `.git`
 * that says anything else means someone tried to point Forja's git elsewhere, and nothing is run.
 */
export async function checkWorktreeLink(
  repository: string,
  worktree: string,
): Promise<WorktreeLink> {
  const commonGitDir = join(repository, '.git');
  const common = await lstat(commonGitDir).catch(() => null);
  if (common === null || !common.isDirectory())
    return {
      ok: false,
      reason: `${RULE}: the repository's git directory ${commonGitDir} is missing or not a directory; git was not run`,
    };
  const link = join(worktree, '.git');
  const registered = await registeredGitDir(commonGitDir, [
    link,
    await realpath(link).catch(() => link),
  ]);
  if (registered === null)
    return {
      ok: false,
      reason: `${RULE}: the repository has no worktree registered at ${worktree}; git was not run`,
    };
  const info = await lstat(link).catch(() => null);
  if (info === null || !info.isFile() || info.nlink !== 1) {
    const what =
      info === null
        ? 'is missing'
        : info.isSymbolicLink()
          ? 'was replaced by a symbolic link'
          : info.isFile()
            ? 'has more than one hard link'
            : 'is not a plain file';
    return { ok: false, reason: `${RULE}: ${link} ${what}; git was not run` };
  }
  const content = readLinkFile(await realpath(worktree).catch(() => worktree), link);
  if (content === null)
    return {
      ok: false,
      reason: `${RULE}: ${link} cannot be read as the worktree's own file; git was not run`,
    };
  const expected = [registered, await realpath(registered).catch(() => registered)].map(
    (path) => `gitdir: ${path}`,
  );
  if (!expected.includes(content)) {
    const shown = JSON.stringify(content.length > 200 ? `${content.slice(0, 200)}…` : content);
    return {
      ok: false,
      reason: `${RULE}: ${link} was changed — it says ${shown}, Forja wrote ${JSON.stringify(expected[0])}; git was not run on it and nothing was committed`,
    };
  }
  return { ok: true, gitDir: registered, commonGitDir };
}

async function registeredGitDir(
  commonGitDir: string,
  links: readonly string[],
): Promise<string | null> {
  const directory = join(commonGitDir, 'worktrees');
  const names = await readdir(directory).catch(() => [] as string[]);
  for (const name of names.sort()) {
    const pointer = (
      await readFile(join(directory, name, 'gitdir'), 'utf8').catch(() => '')
    ).trim();
    if (links.includes(pointer)) return join(directory, name);
  }
  return null;
}

/** Most bytes of a worktree's `.git` file read: git writes one short line. */
const MAX_LINK_FILE_BYTES = 4096;

/** The worktree's `.git` file's line, read without following a link out of the worktree (ADR 0300); null when it cannot be. */
function readLinkFile(worktreeRealPath: string, link: string): string | null {
  const opened = openInsideSync(worktreeRealPath, link);
  if (!opened.ok) return null;
  try {
    const buffer = Buffer.allocUnsafe(MAX_LINK_FILE_BYTES);
    const bytesRead = readSync(opened.fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').replace(/\n$/, '');
  } finally {
    closeSync(opened.fd);
  }
}
