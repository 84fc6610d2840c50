import { spawn } from 'node:child_process';
import { countSpawn } from '../spawn/spawn-counts.ts';
import { adoptChild, type SpawnedProcess, spawnProcess } from '../spawn/spawn-process.ts';

/** Where one git command works: the repository's git directory and the files it reads, both named by Forja. */
export interface GitLocation {
  gitDir: string;
  /** null for a command that needs no work tree (refs, objects, `worktree add`). */
  workTree: string | null;
}

/**
 * Configuration given on every command line. Command-line configuration wins over every file, and the only
 * file git still reads is the repository's own config, inside the main git directory, which no sandbox
 * reaches. So no fsmonitor, no hooks, no attributes file of the host, no pager or editor, no transport:
 * nothing the worktree's content could make git run. A `.gitattributes` in the tree may still name a
 * filter, diff or merge driver, but git only runs a driver its configuration defines, and none is.
 */
const PINNED_CONFIG = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.attributesFile=/dev/null',
  'core.excludesFile=/dev/null',
  'core.pager=cat',
  'core.editor=false',
  'core.sshCommand=false',
  'protocol.allow=never',
  'commit.gpgsign=false',
  'tag.gpgsign=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'submodule.recurse=false',
  'advice.detachedHead=false',
  'advice.addEmbeddedRepo=false',
  'user.name=Forja',
  'user.email=forja@localhost',
] as const;

/**
 * The whole environment of a host git: nothing of Forja's (no API key, no `DATABASE_URL`, no `GIT_*` of the
 * host), no system or user configuration or attributes, a home with nothing in it.
 */
export function hostGitEnvironment(): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: '/nonexistent',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_OPTIONAL_LOCKS: '0',
  };
}

/** The arguments of one pinned git command, before the command's own. Pure. */
export function hostGitArguments(location: GitLocation, args: readonly string[]): string[] {
  return [
    ...PINNED_CONFIG.flatMap((entry) => ['-c', entry]),
    `--git-dir=${location.gitDir}`,
    ...(location.workTree === null ? [] : [`--work-tree=${location.workTree}`]),
    ...args,
  ];
}

/** A git command that failed: its arguments and what it said (a killed one: the signal, or the time limit). */
export class HostGitError extends Error {
  readonly args: readonly string[];
  readonly exitCode: number | null;
  readonly stderr: string;
  constructor(args: readonly string[], exitCode: number | null, stderr: string) {
    super(`git ${args.join(' ')} failed (exit ${exitCode}): ${stderr.trim().slice(0, 500)}`);
    this.name = 'HostGitError';
    this.args = args;
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

/** The time limit of one host git command unless its caller gives one (`FORJA_GIT_TIMEOUT_SECONDS`). */
export const DEFAULT_GIT_TIMEOUT_MS = 300_000;
let gitTimeoutMs = DEFAULT_GIT_TIMEOUT_MS;

/** Sets the time limit of every host git command of this process, once, at start-up (from the settings). */
export function setHostGitTimeout(timeoutMs: number): void {
  gitTimeoutMs = timeoutMs;
}

/**
 * Reads `FORJA_GIT_TIMEOUT_SECONDS` (a whole number from 1 to 3600; unset keeps 300), in milliseconds, or an
 * error naming the variable and the rule.
 */
export function readGitTimeout(
  env: NodeJS.ProcessEnv,
): { ok: true; timeoutMs: number } | { ok: false; variable: string; message: string } {
  const raw = (env.FORJA_GIT_TIMEOUT_SECONDS ?? '').trim();
  if (raw === '') return { ok: true, timeoutMs: DEFAULT_GIT_TIMEOUT_MS };
  const seconds = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > 3600)
    return {
      ok: false,
      variable: 'FORJA_GIT_TIMEOUT_SECONDS',
      message: `FORJA_GIT_TIMEOUT_SECONDS must be a whole number from 1 to 3600, not "${env.FORJA_GIT_TIMEOUT_SECONDS}".`,
    };
  return { ok: true, timeoutMs: seconds * 1000 };
}

const MAX_STDERR_BYTES = 16 * 1024;

/**
 * Starts one pinned git in a process group of its own (through the spawn helper, ADR 0428), with nothing on
 * stdin, and kills the whole group (git and anything it started) at the time limit. `finish` gets the exit
 * code and stderr, or the HostGitError that says the limit was reached.
 */
function startGit(
  location: GitLocation,
  args: readonly string[],
  options: { cwd: string; timeoutMs?: number; env?: Record<string, string> },
  finish: (ended: { code: number | null; stderr: string } | HostGitError) => void,
): SpawnedProcess {
  const child = spawnProcess({
    file: 'git',
    args: hostGitArguments(location, args),
    cwd: options.cwd,
    env: { ...hostGitEnvironment(), ...options.env },
  });
  superviseGit(child, args, options.timeoutMs ?? gitTimeoutMs, finish);
  return child;
}

/** The time limit, stderr and ending of one started git (`startGit`, `streamHostGit`). */
function superviseGit(
  child: SpawnedProcess,
  args: readonly string[],
  timeoutMs: number,
  finish: (ended: { code: number | null; stderr: string } | HostGitError) => void,
): void {
  let stderr = '';
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill();
  }, timeoutMs);
  child.on('stderr', (chunk: Buffer) => {
    if (stderr.length < MAX_STDERR_BYTES) stderr += chunk.toString('utf8');
  });
  child.on('error', (error) => {
    clearTimeout(timer);
    finish(new HostGitError(args, null, error.message));
  });
  child.on('close', (code) => {
    clearTimeout(timer);
    finish(
      timedOut
        ? new HostGitError(
            args,
            null,
            `stopped at the time limit of ${timeoutMs / 1000} s (FORJA_GIT_TIMEOUT_SECONDS); git and what it started were killed`,
          )
        : { code, stderr },
    );
  });
}

/** A streaming host git: its stdin and stdout are the caller's; `ended` settles when it exits. */
export interface StreamingHostGit {
  stdin: NodeJS.WritableStream;
  stdout: NodeJS.ReadableStream;
  ended: Promise<{ code: number | null; stderr: string } | HostGitError>;
  /** Kills git and what it started (a client that went away). */
  kill(): void;
}

/**
 * `runHostGit` for a command that streams (`upload-pack` serving a clone): the same pinned arguments,
 * environment and time limit, with stdin open for the caller to write and stdout for it to read.
 */
export function streamHostGit(
  location: GitLocation,
  args: readonly string[],
  options: { timeoutMs?: number } = {},
): StreamingHostGit {
  let settle: (ended: { code: number | null; stderr: string } | HostGitError) => void = () => {};
  const ended = new Promise<{ code: number | null; stderr: string } | HostGitError>(
    (resolve) => (settle = resolve),
  );
  // Started here, not by the helper: the caller reads stdout as a stream, with back-pressure.
  countSpawn('git');
  const child = spawn('git', hostGitArguments(location, args), {
    cwd: location.workTree ?? '/',
    env: hostGitEnvironment(),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    shell: false,
  });
  const adopted = adoptChild(child, { stdout: false });
  superviseGit(adopted, args, options.timeoutMs ?? gitTimeoutMs, (outcome) => settle(outcome));
  // A client that stops reading or writing must not crash Forja with an EPIPE.
  child.stdin.on('error', () => undefined);
  return { stdin: child.stdin, stdout: child.stdout, ended, kill: () => adopted.kill() };
}

const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Runs git on the host for Forja, never trusting what lies in a worktree: the git directory and work tree
 * are always explicit (git never looks for `.git`), the configuration is pinned, the environment is fixed
 * (`env` adds entries only its caller chose: a push's credentials, ADR 0415), and it has a time limit (ADR
 * 0310). Returns stdout; more than 64 MiB of it is an error.
 */
export function runHostGit(
  location: GitLocation,
  args: readonly string[],
  options: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const child = startGit(
      location,
      args,
      {
        cwd: options.cwd ?? location.workTree ?? '/',
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.env === undefined ? {} : { env: options.env }),
      },
      (ended) => {
        if (ended instanceof HostGitError) return reject(ended);
        if (size > MAX_OUTPUT_BYTES)
          return reject(new HostGitError(args, null, 'printed more than 64 MiB; it was stopped'));
        if (ended.code === 0) return resolve(Buffer.concat(chunks).toString('utf8'));
        reject(new HostGitError(args, ended.code, ended.stderr));
      },
    );
    child.on('stdout', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) return void child.kill();
      chunks.push(chunk);
    });
  });
}

/** What a bounded git command printed: at most `maxBytes` of stdout, cut at a line end when it was cut. */
export interface BoundedGitOutput {
  stdout: string;
  /** true when git printed more than `maxBytes`: the rest was not read and git was stopped. */
  truncated: boolean;
}

/**
 * `runHostGit` for a command whose output may be large (a diff): no shell, the same pinned arguments,
 * environment and time limit, and stdout read up to `maxBytes` only. Past it git is killed and the output
 * is cut after the last `separator` byte (a line end unless told; NUL for `-z` output), so a reader never
 * gets half a line or half a UTF-8 character.
 */
export function runBoundedHostGit(
  location: GitLocation,
  args: readonly string[],
  maxBytes: number,
  separator: 0x0a | 0x00 = 0x0a,
  options: { timeoutMs?: number } = {},
): Promise<BoundedGitOutput> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    const child = startGit(
      location,
      args,
      {
        cwd: location.workTree ?? '/',
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      },
      (ended) => {
        const output = Buffer.concat(chunks);
        if (truncated) {
          const lastEnd = output.lastIndexOf(separator);
          return resolve({
            stdout: output.subarray(0, lastEnd + 1).toString('utf8'),
            truncated: true,
          });
        }
        if (ended instanceof HostGitError) return reject(ended);
        if (ended.code === 0) return resolve({ stdout: output.toString('utf8'), truncated: false });
        reject(new HostGitError(args, ended.code, ended.stderr));
      },
    );
    child.on('stdout', (chunk: Buffer) => {
      if (truncated) return;
      if (size + chunk.length > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        child.kill();
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
  });
}
