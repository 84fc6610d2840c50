import { execFile, spawn } from 'node:child_process';

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

/** A git command that failed: its arguments and what it said. */
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

/**
 * Runs git on the host for Forja, never trusting what lies in a worktree: the git directory and work tree
 * are always explicit (git never looks for `.git`), the configuration is pinned, the environment is fixed.
 * Returns stdout.
 */
export function runHostGit(
  location: GitLocation,
  args: readonly string[],
  options: { cwd?: string } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      hostGitArguments(location, args),
      {
        cwd: options.cwd ?? location.workTree ?? '/',
        env: hostGitEnvironment(),
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error === null) return resolve(stdout);
        reject(
          new HostGitError(
            args,
            typeof error.code === 'number' ? error.code : null,
            stderr || error.message,
          ),
        );
      },
    );
  });
}

/** What a bounded git command printed: at most `maxBytes` of stdout, cut at a line end when it was cut. */
export interface BoundedGitOutput {
  stdout: string;
  /** true when git printed more than `maxBytes`: the rest was not read and git was stopped. */
  truncated: boolean;
}

const MAX_STDERR_BYTES = 16 * 1024;

/**
 * `runHostGit` for a command whose output may be large (a diff): no shell, the same pinned arguments and
 * environment, and stdout read up to `maxBytes` only. Past it git is killed and the output is cut after the
 * last `separator` byte (a line end unless told; NUL for `-z` output), so a reader never gets half a line or
 * half a UTF-8 character.
 */
export function runBoundedHostGit(
  location: GitLocation,
  args: readonly string[],
  maxBytes: number,
  separator: 0x0a | 0x00 = 0x0a,
): Promise<BoundedGitOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', hostGitArguments(location, args), {
      cwd: location.workTree ?? '/',
      env: hostGitEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      if (size + chunk.length > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_BYTES) stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const output = Buffer.concat(chunks);
      if (truncated) {
        const lastEnd = output.lastIndexOf(separator);
        return resolve({
          stdout: output.subarray(0, lastEnd + 1).toString('utf8'),
          truncated: true,
        });
      }
      if (code === 0) return resolve({ stdout: output.toString('utf8'), truncated: false });
      reject(new HostGitError(args, code, stderr));
    });
  });
}
