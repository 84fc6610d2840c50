import { readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HostGitError, runHostGit } from './host-git.ts';
import { mainCommit } from './survey-repository.ts';

/** A remote's name: what the API calls it, and the tail of its credential variables (`FORJA_GIT_TOKEN_<NAME>`). */
export const REMOTE_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,39}$/;
/** A branch name on the remote: git's characters, no leading dash, no `..`, no `@{`, no ending `/`, `.` or `.lock`. */
const BRANCH_PATTERN =
  /^(?!-)(?!.*\.\.)(?!.*@\{)(?!.*\/\/)[A-Za-z0-9._/@+-]{1,200}(?<![/.])(?<!\.lock)$/;
const MAX_URL_LENGTH = 2048;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
const CONTROL = /[\u0000-\u001f\u007f\s]/;
/** The most of git's own words a refusal repeats. */
export const MAX_PUSH_MESSAGE_CHARS = 2000;

/** Why a remote or a push was refused by its shape: the field and the rule, in a sentence. */
export interface RemoteRefusal {
  field: 'name' | 'url' | 'branch';
  message: string;
}

/** The refusal of a remote's name, or null. Pure. */
export function checkRemoteName(name: string): RemoteRefusal | null {
  return REMOTE_NAME_PATTERN.test(name)
    ? null
    : {
        field: 'name',
        message: `"${name.slice(0, 60)}" is not a remote name (1 to 40 of a-z, 0-9, _ and -, starting with a letter).`,
      };
}

/** The refusal of a branch to push to, or null. Pure. */
export function checkPushBranch(branch: string): RemoteRefusal | null {
  return BRANCH_PATTERN.test(branch)
    ? null
    : {
        field: 'branch',
        message: `"${branch.slice(0, 100)}" is not a branch name (letters, digits, . _ / @ + -; no leading -, no .., no ending / . or .lock).`,
      };
}

/** Where a push goes: an http(s) URL, or a repository on Forja's host (`file://` URL or absolute path). */
export type RemoteTarget = { kind: 'http'; url: string } | { kind: 'path'; path: string };

/**
 * A remote's URL as a target, or the refusal naming the rule. Pure. An http(s) URL carries no user or
 * password (credentials come from the environment only, never from what is stored); a path is absolute and
 * outside Forja's data directory; no other transport (ssh, `git:`, `ext::`).
 */
export function remoteTarget(url: string, dataDirectory: string): RemoteTarget | RemoteRefusal {
  if (url.length === 0 || url.length > MAX_URL_LENGTH || CONTROL.test(url))
    return {
      field: 'url',
      message: `must be 1 to ${MAX_URL_LENGTH} characters, without spaces or control characters.`,
    };
  if (url.startsWith('/')) return pathTarget(url, dataDirectory);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { field: 'url', message: 'must be an http(s):// or file:// URL, or an absolute path.' };
  }
  if (parsed.protocol === 'file:') return pathTarget(fileURLToPath(parsed), dataDirectory);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return {
      field: 'url',
      message: `must be an http(s):// or file:// URL, or an absolute path (not ${parsed.protocol}): no other transport is allowed.`,
    };
  if (parsed.username !== '' || parsed.password !== '')
    return {
      field: 'url',
      message:
        'must not carry a user or password: the credentials come from FORJA_GIT_TOKEN_<NAME> (and FORJA_GIT_USER_<NAME>) in the environment, never from what Forja stores.',
    };
  return { kind: 'http', url };
}

function pathTarget(path: string, dataDirectory: string): RemoteTarget | RemoteRefusal {
  const inside = relative(resolve(dataDirectory), resolve(path));
  if (!inside.startsWith('..') && !isAbsolute(inside))
    return {
      field: 'url',
      message:
        "must not be inside Forja's data directory (a project's repository is not a remote).",
    };
  return { kind: 'path', path: resolve(path) };
}

/**
 * `remoteTarget` with the links of a path resolved: a path outside the data directory that is (or passes through)
 * a link into it is refused too, which the lexical check alone cannot see. An http target is returned as it is.
 */
export async function remoteTargetOnDisk(
  url: string,
  dataDirectory: string,
): Promise<RemoteTarget | RemoteRefusal> {
  const target = remoteTarget(url, dataDirectory);
  if (!('kind' in target) || target.kind !== 'path') return target;
  return pathTarget(await realPathOf(target.path), await realPathOf(dataDirectory));
}

/**
 * The path with every link resolved, a dangling one included, up to its nearest ancestor that exists (a remote
 * may not exist yet). At most 40 links, as the kernel allows.
 */
async function realPathOf(path: string, links = 0): Promise<string> {
  const real = await realpath(path).catch(() => null);
  if (real !== null) return real;
  const link = links < 40 ? await readlink(path).catch(() => null) : null;
  if (link !== null) return realPathOf(resolve(dirname(path), link), links + 1);
  const parent = dirname(path);
  return parent === path ? path : join(await realPathOf(parent, links), basename(path));
}

/** The variables that hold a remote's credentials. Pure. */
export function credentialVariables(name: string): { token: string; user: string } {
  const tail = name.toUpperCase().replaceAll('-', '_');
  return { token: `FORJA_GIT_TOKEN_${tail}`, user: `FORJA_GIT_USER_${tail}` };
}

/** A push's basic credentials from the environment, or null when its token variable is unset or empty. */
export function pushCredentials(
  env: NodeJS.ProcessEnv,
  name: string,
): { user: string; token: string } | null {
  const variables = credentialVariables(name);
  const token = env[variables.token] ?? '';
  if (token === '') return null;
  return { user: env[variables.user] || 'forja', token };
}

/**
 * The one-command configuration of an http push with credentials, given through git's environment (never
 * its command line, which any process may read): an `Authorization: Basic` header, and no redirect, so the
 * header goes to the remote's own host only. Pure.
 */
export function credentialEnvironment(credentials: {
  user: string;
  token: string;
}): Record<string, string> {
  const basic = Buffer.from(`${credentials.user}:${credentials.token}`).toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
  };
}

/**
 * The receive-pack a push to a repository on the host runs there: with hooks and the repository's own
 * fsmonitor off, like every host git (ADR 0040); otherwise the remote's hooks would run with Forja's rights.
 */
const LOCAL_RECEIVE_PACK =
  'git -c core.hooksPath=/dev/null -c core.fsmonitor=false -c core.alternateRefsCommand= receive-pack';

export type PushOutcome =
  | { ok: true; commit: string }
  | { ok: false; reason: 'rejected' | 'failed'; message: string };

/**
 * Pushes the project's `main` to `branch` of the target, without force: a push the remote refuses (not a
 * fast-forward, a protected branch) is `rejected`, one that cannot reach it `failed`; both carry git's words,
 * bounded, with the token taken out should git ever repeat it. Through the host git (pinned configuration,
 * fixed environment, time limit); only the target's transport is allowed.
 */
export async function pushMain(
  workspace: string,
  target: RemoteTarget,
  branch: string,
  credentials: { user: string; token: string } | null,
): Promise<PushOutcome> {
  const location = { gitDir: join(workspace, '.git'), workTree: null };
  const commit = await mainCommit(workspace);
  if (commit === null)
    return { ok: false, reason: 'rejected', message: 'the project has no main branch yet.' };
  const scheme = target.kind === 'path' ? 'file' : new URL(target.url).protocol.slice(0, -1);
  const args = [
    '-c',
    `protocol.${scheme}.allow=always`,
    '-c',
    'http.followRedirects=false',
    'push',
    '--no-verify',
    '--no-recurse-submodules',
    ...(target.kind === 'path' ? [`--receive-pack=${LOCAL_RECEIVE_PACK}`] : []),
    '--',
    target.kind === 'path' ? target.path : target.url,
    `${commit}:refs/heads/${branch}`,
  ];
  const env =
    credentials !== null && target.kind === 'http' ? credentialEnvironment(credentials) : {};
  try {
    await runHostGit(location, args, { cwd: '/', env });
    return { ok: true, commit };
  } catch (error) {
    if (!(error instanceof HostGitError)) throw error;
    const said = boundedGitWords(error.stderr, credentials?.token);
    const rejected = /\[(remote )?rejected\]|! \[|non-fast-forward|fetch first/.test(error.stderr);
    return { ok: false, reason: rejected ? 'rejected' : 'failed', message: said };
  }
}

/** Git's words, without a token it might repeat, at most MAX_PUSH_MESSAGE_CHARS. Pure. */
export function boundedGitWords(stderr: string, token?: string): string {
  const clean = token === undefined || token === '' ? stderr : stderr.replaceAll(token, '***');
  const trimmed = clean.trim();
  return trimmed.length <= MAX_PUSH_MESSAGE_CHARS
    ? trimmed
    : `${trimmed.slice(0, MAX_PUSH_MESSAGE_CHARS)}…`;
}
