import { mkdir, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { INTEGRATION_BRANCH, MAIN_BRANCH } from '../workspace-layout.ts';
import { HostGitError, runHostGit, type GitLocation } from './host-git.ts';

/** Where an imported repository comes from: a directory on Forja's host, or an http(s) URL; `ref` a branch or tag. */
export type RepositorySource = { path: string; ref?: string } | { git: string; ref?: string };

/** Why an import was refused: the field of the request and the rule, in a sentence. */
export interface ImportRefusal {
  field: 'source' | 'source.path' | 'source.git' | 'source.ref';
  message: string;
}

const MAX_PATH_LENGTH = 4096;
const MAX_URL_LENGTH = 2048;
/** A branch or tag name: git's characters, no leading dash, no `..`, no `@{`, no ending `/`, `.` or `.lock`. */
const REF_PATTERN =
  /^(?!-)(?!.*\.\.)(?!.*@\{)(?!.*\/\/)[A-Za-z0-9._/@+-]{1,200}(?<![/.])(?<!\.lock)$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
const CONTROL = /[\u0000-\u001f\u007f\s]/;

/**
 * The refusal of a source by its shape alone, or null when it may be tried. Pure: a path is absolute and
 * outside Forja's data directory (another project's repository is not a source), a URL is http or https (no
 * `file:`, `ext::` or ssh transport), a ref a plain branch or tag name.
 */
export function checkRepositorySource(
  source: RepositorySource,
  dataDirectory: string,
): ImportRefusal | null {
  if (source.ref !== undefined && !REF_PATTERN.test(source.ref))
    return {
      field: 'source.ref',
      message: `"${source.ref.slice(0, 100)}" is not a branch or tag name (letters, digits, . _ / @ + -; no leading -, no .., no ending / . or .lock).`,
    };
  if ('path' in source) {
    const path = source.path;
    if (path.length === 0 || path.length > MAX_PATH_LENGTH || path.includes('\u0000'))
      return { field: 'source.path', message: `must be 1 to ${MAX_PATH_LENGTH} characters.` };
    if (!isAbsolute(path)) return { field: 'source.path', message: 'must be an absolute path.' };
    const inside = relative(resolve(dataDirectory), resolve(path));
    if (!inside.startsWith('..') && !isAbsolute(inside))
      return {
        field: 'source.path',
        message:
          "must not be inside Forja's data directory (a project's repository is cloned over HTTP, not by path).",
      };
    return null;
  }
  const url = source.git;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { field: 'source.git', message: 'must be an http:// or https:// URL.' };
  }
  if (url.length > MAX_URL_LENGTH || CONTROL.test(url))
    return {
      field: 'source.git',
      message: `must be at most ${MAX_URL_LENGTH} characters, without spaces or control characters.`,
    };
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return {
      field: 'source.git',
      message: `must be an http:// or https:// URL (not ${parsed.protocol}): no other transport is allowed.`,
    };
  return null;
}

/** The one transport a source may use, on top of the pinned `protocol.allow=never`. */
function transportOf(source: RepositorySource): string[] {
  if ('path' in source) return ['-c', 'protocol.file.allow=always'];
  const scheme = new URL(source.git).protocol === 'https:' ? 'https' : 'http';
  return ['-c', `protocol.${scheme}.allow=always`];
}

/**
 * Makes `workspace` (which must not exist) a copy of the source: every branch under `refs/remotes/origin/`,
 * every tag, `main` and `dev` at the given ref or the source's default branch, `main` checked out. Only
 * fetches and a checkout under the host git's pinned rules (ADR 0040, ADR 0355): no hook, filter, fsmonitor
 * or submodule of the source runs, a symbolic link is checked out as a link and never followed. On a refusal
 * or failure the workspace directory is removed; returns the refusal, or null when done.
 */
export async function importRepository(
  workspace: string,
  source: RepositorySource,
): Promise<ImportRefusal | null> {
  try {
    const refusal = await fetchSource(workspace, source);
    if (refusal !== null) await rm(workspace, { recursive: true, force: true });
    return refusal;
  } catch (error) {
    await rm(workspace, { recursive: true, force: true });
    throw error;
  }
}

async function fetchSource(
  workspace: string,
  source: RepositorySource,
): Promise<ImportRefusal | null> {
  const field = 'path' in source ? 'source.path' : 'source.git';
  const from = 'path' in source ? source.path : source.git;
  const shown = 'path' in source ? source.path : withoutCredentials(source.git);
  if ('path' in source) {
    const info = await stat(source.path).catch(() => null);
    if (info === null || !info.isDirectory())
      return { field, message: `${source.path} is not a directory Forja can read.` };
  }
  await mkdir(workspace, { recursive: true });
  const location: GitLocation = { gitDir: join(workspace, '.git'), workTree: workspace };
  const git = (args: readonly string[]) => runHostGit(location, args);
  await git(['init', '--quiet', `--initial-branch=${MAIN_BRANCH}`]);
  const transport = transportOf(source);
  let advertised: string;
  try {
    advertised = await git([...transport, 'ls-remote', '--symref', '--', from]);
  } catch (error) {
    if (!(error instanceof HostGitError)) throw error;
    return {
      field,
      message: `${shown} is not a git repository Forja can read: ${gitSaid(error, from, shown)}`,
    };
  }
  const commit = chosenCommit(advertised, source.ref);
  if (typeof commit !== 'string') return commit;
  try {
    await git([
      ...transport,
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-recurse-submodules',
      '--no-write-fetch-head',
      '--',
      from,
      '+refs/heads/*:refs/remotes/origin/*',
      '+refs/tags/*:refs/tags/*',
    ]);
  } catch (error) {
    if (!(error instanceof HostGitError)) throw error;
    return { field, message: `cloning ${shown} failed: ${gitSaid(error, from, shown)}` };
  }
  const found = await git(['rev-parse', '--verify', '--quiet', `${commit}^{commit}`]).catch(
    () => '',
  );
  if (found.trim() === '')
    return {
      field: source.ref === undefined ? field : 'source.ref',
      message: `${source.ref ?? 'the default branch'} does not name a commit that was fetched.`,
    };
  await git(['update-ref', `refs/heads/${MAIN_BRANCH}`, found.trim()]);
  await git(['update-ref', `refs/heads/${INTEGRATION_BRANCH}`, found.trim()]);
  await git(['reset', '--hard', '--quiet']);
  return null;
}

/**
 * The commit `main` starts at, from `ls-remote --symref` output: the branch `ref`, else the tag `ref` (peeled),
 * else the source's HEAD; or the refusal naming the ref. Pure.
 */
export function chosenCommit(advertised: string, ref: string | undefined): string | ImportRefusal {
  const refs = new Map<string, string>();
  let head: string | null = null;
  for (const line of advertised.split('\n')) {
    const symbolic = /^ref: (\S+)\tHEAD$/.exec(line);
    if (symbolic) continue;
    const entry = /^([0-9a-f]{40,64})\t(\S+)$/.exec(line);
    if (entry === null) continue;
    if (entry[2] === 'HEAD') head = entry[1]!;
    else refs.set(entry[2]!, entry[1]!);
  }
  if (ref === undefined) {
    if (head === null)
      return { field: 'source', message: 'the repository has no commit on its default branch.' };
    return head;
  }
  const found =
    refs.get(`refs/heads/${ref}`) ??
    refs.get(`refs/tags/${ref}^{}`) ??
    refs.get(`refs/tags/${ref}`);
  if (found === undefined)
    return { field: 'source.ref', message: `the repository has no branch or tag named "${ref}".` };
  return found;
}

/** A URL as it may be shown: without the user and password it may carry. Pure. */
export function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

/** The last lines git wrote, the source named as shown (a URL's password is never repeated). */
function gitSaid(error: HostGitError, from: string, shown: string): string {
  const secret = from === shown ? '' : decodeURIComponent(new URL(from).password);
  const replaced = error.stderr.split(from).join(shown);
  const said = (secret === '' ? replaced : replaced.split(secret).join('***'))
    .trim()
    .split('\n')
    .slice(-2)
    .join(' ')
    .slice(0, 300);
  return said === '' ? `git exited with ${error.exitCode}` : said;
}
