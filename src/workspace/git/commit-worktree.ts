import { lstat, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runHostGit } from './host-git.ts';
import { stagedRefusal } from './staged-refusals.ts';
import { checkWorktreeLink } from './worktree-link.ts';

/**
 * A commit of a module's work, or why there is none. With nothing to commit, `unchanged.head` is the commit the
 * branch is at (the work may already be committed there: ADR 0341).
 */
export type WorktreeCommit =
  | { ok: true; commit: string; branch: string; files: string[] }
  | { ok: false; reason: string; unchanged?: { head: string } };

/**
 * Commits everything changed in a module's worktree (new, modified and deleted files) on its branch, with
 * git pinned to the worktree's git directory inside the main repository — the worktree's `.git` is checked
 * before every command and never followed. Nothing to commit, a changed `.git`, a nested repository and a
 * branch that does not end at the new commit are refusals with the reason, and so are a change under docs/
 * and a symbolic link that may lead out of the repository (`stagedRefusal`, ADR 0301); the commit returned is
 * verified to be the tip of `branch` in the repository. Changed files larger in all than `maxBytes` are refused
 * before git reads them (a sparse file counts its apparent size: git would read every byte of it).
 */
export async function commitWorktree(
  repository: string,
  worktree: string,
  branch: string,
  message: string,
  maxBytes: number,
): Promise<WorktreeCommit> {
  const git = async (args: readonly string[]): Promise<string | { refused: string }> => {
    const link = await checkWorktreeLink(repository, worktree);
    if (!link.ok) return { refused: link.reason };
    return runHostGit({ gitDir: link.gitDir, workTree: worktree }, args);
  };
  const running = await configPrograms(repository, worktree, git);
  if (!Array.isArray(running)) return { ok: false, reason: running.refused };
  if (running.length > 0)
    return {
      ok: false,
      reason: `refused by the rule "host git never trusts the worktree": the repository's configuration sets ${running.join(', ')}, which would make git run a program; git was not run and nothing was committed`,
    };
  const head = await git(['symbolic-ref', '--quiet', 'HEAD']);
  if (typeof head !== 'string') return { ok: false, reason: head.refused };
  if (head.trim() !== `refs/heads/${branch}`)
    return {
      ok: false,
      reason: `the worktree is on ${head.trim() || 'a detached HEAD'}, not on refs/heads/${branch}; nothing was committed`,
    };
  // New and changed files in one listing (`-t` tags each: `? ` untracked, `C ` modified or deleted). Another
  // repository inside the worktree is an untracked `dir/`: git would record it as a submodule link (or fail on it).
  const listing = await git([
    'ls-files',
    '-t',
    '--others',
    '--modified',
    '--exclude-standard',
    '-z',
  ]);
  if (typeof listing !== 'string') return { ok: false, reason: listing.refused };
  const changed = listing.split('\0').filter((entry) => entry.length > 2);
  const inner = changed
    .filter((entry) => entry.startsWith('? ') && entry.endsWith('/'))
    .map((entry) => entry.slice(2, -1));
  if (inner.length > 0) return nestedRefusal(inner);
  const paths = changed.map((entry) => entry.slice(2)).join('\0');
  const tooLarge = await sizeRefusal(worktree, paths, maxBytes);
  if (tooLarge !== null) return { ok: false, reason: tooLarge };
  const added = await git(['add', '--all']);
  if (typeof added !== 'string') return { ok: false, reason: added.refused };
  const index = await git(['ls-files', '--stage', '-z']);
  if (typeof index !== 'string') return { ok: false, reason: index.refused };
  const nested = index
    .split('\0')
    .filter((entry) => entry.startsWith('160000 '))
    .map((entry) => entry.split('\t')[1] ?? entry);
  if (nested.length > 0) {
    await git(['reset', '--quiet']);
    return nestedRefusal(nested);
  }
  const refused = await stagedRefusal(git);
  if (!('staged' in refused)) {
    await git(['reset', '--quiet']);
    return { ok: false, reason: refused.refused };
  }
  const staged = [...refused.staged].sort();
  if (staged.length === 0) {
    const head = await git(['rev-parse', '--verify', 'HEAD^{commit}']);
    return {
      ok: false,
      reason: `nothing to commit on ${branch}: the worktree has no change since the last commit; write the files of the task first`,
      ...(typeof head === 'string' ? { unchanged: { head: head.trim() } } : {}),
    };
  }
  // The message comes from the model: read from a file, it can never be taken for a git option.
  const scratch = await mkdtemp(join(tmpdir(), 'forja-commit-'));
  try {
    await writeFile(join(scratch, 'message'), message, 'utf8');
    const committed = await git([
      'commit',
      '--quiet',
      '--no-verify',
      '--file',
      join(scratch, 'message'),
    ]);
    if (typeof committed !== 'string') return { ok: false, reason: committed.refused };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  // The new commit and the branch's tip in one git: the worktree's git directory is the repository's own
  // (checked before every command), so its refs/heads are the repository's.
  const current = await git(['rev-parse', 'HEAD^{commit}', `refs/heads/${branch}^{commit}`]).catch(
    (error: unknown) => ({
      refused: `the new commit could not be read as the tip of ${branch} in the project's repository (${error instanceof Error ? error.message : String(error)}); it is not recorded`,
    }),
  );
  if (typeof current !== 'string') return { ok: false, reason: current.refused };
  const [commit = '', tip = ''] = current.trim().split('\n');
  if (tip !== commit)
    return {
      ok: false,
      reason: `the commit ${commit} is not the tip of ${branch} in the project's repository (${tip || 'no such branch'}); it is not recorded`,
    };
  return { ok: true, commit, branch, files: staged };
}

/** What `programsInConfig` found for a worktree's git directory, with the stamp of the files it read. */
const configSeen = new Map<string, { stamp: string; running: string[] }>();

/**
 * `programsInConfig` of the configuration git reads for the worktree — the repository's `config` and the
 * worktree's `config.worktree`, both in the repository's git directory, which no sandbox reaches — asked of git
 * once and again only when either file changed (its inode, size, modification or change time). A file that is
 * not a plain file (a link) is never trusted to stay the same: git is asked every time.
 */
export async function configPrograms(
  repository: string,
  worktree: string,
  git: (args: readonly string[]) => Promise<string | { refused: string }>,
): Promise<string[] | { refused: string }> {
  const link = await checkWorktreeLink(repository, worktree);
  if (!link.ok) return { refused: link.reason };
  const stamps = await Promise.all(
    [join(link.commonGitDir, 'config'), join(link.gitDir, 'config.worktree')].map(async (path) => {
      const info = await lstat(path, { bigint: true }).catch(() => null);
      if (info === null) return '-';
      if (!info.isFile()) return null;
      return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
    }),
  );
  const stamp = stamps.includes(null) ? null : stamps.join('|');
  const seen = configSeen.get(link.gitDir);
  if (stamp !== null && seen?.stamp === stamp) return seen.running;
  const config = await git(['config', '--list', '--show-scope', '-z']);
  if (typeof config !== 'string') return config;
  const running = programsInConfig(config);
  if (stamp !== null) configSeen.set(link.gitDir, { stamp, running });
  return running;
}

/** Keys of a git configuration that make git run a program or read files Forja did not name. */
const PROGRAM_KEY =
  /^(filter|diff|merge)\.[^\n]*\.(clean|smudge|process|command|textconv|driver)$|^core\.(fsmonitor|hookspath|worktree|attributesfile|sshcommand|gitproxy|askpass|editor|pager)$|^(include|includeif)\.|^(gpg|credential|sequence)\.|^diff\.external$/i;

/**
 * The keys of `git config --list --show-scope -z` (scope, then key and value) that would run a program,
 * outside Forja's own command-line configuration. Forja's repositories set none; one that does was changed
 * by someone else, and git is not run on it.
 */
export function programsInConfig(listing: string): string[] {
  const fields = listing.split('\0');
  const keys: string[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const scope = fields[index]!;
    const key = fields[index + 1]!.split('\n')[0]!;
    if (scope !== 'command' && PROGRAM_KEY.test(key)) keys.push(`${key} (${scope} configuration)`);
  }
  return keys;
}

/**
 * Why the files git would add (NUL-separated paths, relative to the worktree) are too large for one commit,
 * or null. Sizes are read with lstat, and a path under a link counts nothing: no link is ever followed.
 */
async function sizeRefusal(worktree: string, listing: string, maxBytes: number) {
  const paths = [...new Set(listing.split('\0').filter((path) => path !== ''))];
  const linkFree = new Map<string, Promise<boolean>>();
  const plainDirectory = (directory: string): Promise<boolean> => {
    if (directory === '.' || directory === '') return Promise.resolve(true);
    let known = linkFree.get(directory);
    if (known === undefined) {
      known = plainDirectory(dirname(directory)).then(
        async (parent) =>
          parent &&
          (await lstat(join(worktree, directory)).catch(() => null))?.isDirectory() === true,
      );
      linkFree.set(directory, known);
    }
    return known;
  };
  let total = 0;
  const largest = { path: '', size: 0 };
  for (const path of paths) {
    const size = (await plainDirectory(dirname(path)))
      ? ((await lstat(join(worktree, path)).catch(() => null))?.size ?? 0)
      : 0;
    total += size;
    if (size > largest.size) Object.assign(largest, { path, size });
  }
  if (total <= maxBytes) return null;
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  return `the changed files hold ${mib(total)} MiB, more than the ${mib(maxBytes)} MiB one commit may add (FORJA_COMMIT_MAX_MB); the largest is ${largest.path} (${mib(largest.size)} MiB). Remove or shrink them; nothing was committed`;
}

function nestedRefusal(paths: readonly string[]): WorktreeCommit {
  const what = paths.length === 1 ? 'is a nested git repository' : 'are nested git repositories';
  return {
    ok: false,
    reason: `${paths.join(', ')} ${what}: Forja commits files only; remove the inner .git and finish again. Nothing was committed`,
  };
}
